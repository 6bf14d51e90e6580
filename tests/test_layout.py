"""One import namespace: everything installs under `gambler`, and nothing imports the repository's
folders by their bare names (`bot`, `protocol`, ...), which would load a second copy of a module
in a checkout and fail once installed."""

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("bot", "protocol", "evaluator", "training", "games", "configs")


def imported_names(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_no_source_imports_a_folder_by_its_bare_name():
    sources = [path for folder in (*FOLDERS, "gambler", "tests", "benchmarks")
               for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(sources) > 60
    bare = [f"{path.relative_to(ROOT)}: import {name}" for path in sources
            for name in imported_names(path) if name.split(".")[0] in FOLDERS]
    assert bare == []


def test_the_wheel_installs_one_top_level_package_with_its_data(tmp_path):
    """What `pip install gambler` puts in site-packages: `gambler/` and its metadata, nothing
    else (no top-level `bot`, `protocol`, ... to clash with other packages)."""
    source = tmp_path / "source"  # a copy: setuptools writes build/ next to the sources
    for name in (*FOLDERS, "gambler"):
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(source)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    [wheel] = tmp_path.glob("gambler-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    version = wheel.name.split("-")[1]
    assert {name.split("/")[0] for name in names} == {"gambler", f"gambler-{version}.dist-info"}
    for expected in ("gambler/__init__.py", "gambler/bot/cli.py", "gambler/protocol/betting.py",
                     "gambler/training/engine.py", "gambler/games/cli.py",
                     "gambler/evaluator/data/hand_tables.npz",
                     "gambler/configs/params/default.yaml",
                     "gambler/configs/games/holdem.nolimit.2p.reverse_blinds.game",
                     "gambler/configs/train/default.yaml"):
        assert expected in names
