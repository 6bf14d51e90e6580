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
FOLDERS = ("bot", "protocol", "evaluator", "training", "games", "adaptive", "solver", "configs")


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


def test_arrows_point_one_way():
    """Every import, at the top of a module or inside a function: `protocol` and `evaluator`
    know nothing of `bot`, `training` or `adaptive`; `bot` nothing of `training` or `adaptive`;
    `training` nothing of `adaptive` (the README's layout)."""
    above = {"protocol": ("bot", "training", "adaptive"),
             "evaluator": ("bot", "training", "adaptive"),
             "solver": ("bot", "training", "adaptive"),
             "bot": ("training", "adaptive"), "training": ("adaptive",)}
    wrong = [f"{path.relative_to(ROOT)}: import {name}"
             for folder, forbidden in above.items()
             for path in sorted((ROOT / folder).rglob("*.py"))
             for name in imported_names(path)
             if name.startswith("gambler.") and name.split(".")[1] in forbidden]
    assert wrong == []
    assert any(name.startswith("gambler.training") for path in (ROOT / "adaptive").rglob("*.py")
               for name in imported_names(path))


def test_the_wheel_installs_one_top_level_package_with_its_data(tmp_path):
    """What `pip install gambler` puts in site-packages: `gambler/` and its metadata, nothing
    else (no top-level `bot`, `protocol`, ... to clash with other packages)."""
    source = tmp_path / "source"  # a copy: setuptools writes build/ next to the sources
    for name in (*FOLDERS, "gambler", "experiments"):
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
    for expected in ("gambler/__init__.py", "gambler/bot/cli.py", "gambler/adaptive/cli.py",
                     "gambler/protocol/betting.py",
                     "gambler/training/engine.py", "gambler/games/cli.py",
                     "gambler/evaluator/data/hand_tables.npz",
                     "gambler/configs/params/default.yaml",
                     "gambler/configs/games/holdem.nolimit.2p.reverse_blinds.game",
                     "gambler/configs/train/default.yaml"):
        assert expected in names
    # configs/ ships what a user runs and nothing else: the game files, the shipped profiles and
    # exploiters and the default training config; experiment arms and the configs behind them stay in the clone.
    shipped = {name for name in names if name.startswith("gambler/configs/")
               and not name.endswith((".py", ".pyc"))}
    expected_configs = {f"gambler/{path.relative_to(ROOT).as_posix()}"
                        for folder, pattern in (("games", "*.game"), ("params", "*.yaml"),
                                                ("exploiters", "*.yaml"), ("charts", "*.yaml"),
                                                ("solve", "*.yaml"))
                        for path in (ROOT / "configs" / folder).glob(pattern)}
    assert shipped == expected_configs | {"gambler/configs/train/default.yaml"}
    assert not [name for name in names if "experiments" in name or "ablations" in name]


def test_configs_hold_what_a_user_runs_and_experiments_the_rest():
    """configs/ has no experiment folder; every profile in configs/params, exploiter in
    configs/exploiters, chart in configs/charts and solve config in configs/solve loads; the default
    training config is the only one in configs/train; every training config under experiments/
    parses and starts from a profile that exists, run from the repository's root; every
    portfolio under experiments/ loads (its members and counter starts still name single
    strategies: `default` became a portfolio in 0.6.0)."""
    import os
    import re

    from gambler.bot.chart import load_chart
    from gambler.bot.params import file_kind
    from gambler.bot.strategies import resolve_strategy
    from gambler.training.config import load_config

    assert sorted(path.name for path in (ROOT / "configs").iterdir()
                  if path.is_dir() and path.name != "__pycache__") == ["charts", "exploiters", "games",
                                                                     "params", "solve", "train"]
    assert [path.name for path in (ROOT / "configs" / "train").glob("*.yaml")] == ["default.yaml"]
    for path in (ROOT / "configs" / "params").glob("*.yaml"):
        resolve_strategy(str(path))
    for path in (ROOT / "configs" / "exploiters").glob("*.yaml"):
        assert resolve_strategy(str(path)).name == path.stem
    from gambler.solver.config import load_config as load_solve_config

    for path in (ROOT / "configs" / "solve").glob("*.yaml"):
        assert load_solve_config(str(path)).game is not None
    for path in (ROOT / "configs" / "charts").glob("*.yaml"):
        assert load_chart(path).name == path.stem
    configs = [path for path in (ROOT / "experiments").rglob("*.yaml")
               if "start:" in path.read_text() and "thresholds" not in path.read_text()]
    assert len(configs) >= 6
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for path in configs:
            config = load_config(path.relative_to(ROOT))
            if not config.start.startswith("runs/"):  # a later pass starts from a run's best
                resolve_strategy(config.start)
        portfolios = [path for path in (ROOT / "experiments").rglob("*.yaml")
                      if re.search(r"kind: (portfolio|switch)", path.read_text()[:300])
                      and file_kind(path) in ("portfolio", "switch")]  # no chart parsed
        assert len(portfolios) >= 1
        for path in portfolios:
            resolve_strategy(str(path.relative_to(ROOT)))
    finally:
        os.chdir(here)


def test_every_shipped_profile_names_how_it_was_made():
    """Each file in configs/params and configs/exploiters has a description of at most five
    lines and a provenance that names the CHANGELOG version that shipped it; a trained one names
    gambler-train, a searched one its search command; every config, profile, document or test
    it names exists in the clone."""
    import re

    import yaml

    versions = set(re.findall(r"^## (\d+\.\d+\.\d+)\s*$", (ROOT / "CHANGELOG.md").read_text(),
                              flags=re.MULTILINE))

    for path in sorted([*(ROOT / "configs" / "params").glob("*.yaml"),
                        *(ROOT / "configs" / "exploiters").glob("*.yaml")]):
        profile = yaml.safe_load(path.read_text())
        provenance = profile.get("provenance") or ""
        assert provenance, f"{path.name}: no provenance"
        shipped_in = re.search(r"Shipped in (\d+\.\d+\.\d+)", provenance)
        assert shipped_in and shipped_in.group(1) in versions, f"{path.name}: {provenance}"
        text = path.read_text()
        assert text[text.index("description:"):text.index("provenance:")].count("\n") <= 5, \
            path.name
        if profile.get("training"):
            assert "gambler-train" in provenance, path.name
        if profile.get("kind") == "exploiter" and profile.get("search"):  # found by a search
            assert "gambler-exploit" in provenance or "gambler-train" in provenance, path.name
        elif "search" in (profile.get("description") or ""):
            assert "python -m gambler.training.search" in provenance, path.name
        for named in re.findall(r"(?:configs|experiments|docs|tests)/[\w./-]+\.(?:yaml|md|py)",
                                provenance):
            assert (ROOT / named).exists(), f"{path.name}: {named} does not exist"
