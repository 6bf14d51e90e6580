"""gambler's caches: one root and its overrides (`gambler.caches`), the tests kept out of the
user's caches (tests/conftest.py), and `gambler-cache` measuring and clearing a folder of known
files."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gambler import caches

OVERRIDES = ("GAMBLER_CACHE", "XDG_CACHE_HOME", "GAMBLER_DEALS", "NUMBA_CACHE_DIR")

#: A cache root of known files: path below the root -> size in bytes. `counted` marks the files
#: gambler-cache owns (kernels, deal sets, holding tables, card abstractions, and temporaries).
KNOWN_FILES = {
    "numba/0123456789abcdef/rates.win_rate-40.py311.nbi": (1_000, True),
    "numba/0123456789abcdef/rates.win_rate-40.py311.1.nbc": (250_000, True),
    "numba/fedcba9876543210/sub/engine.play-12.py311.1.nbc": (50_000, True),
    "numba/fedcba9876543210/sub/engine.play-12.py311.1.nbc.tmp.0f1e2d3c": (7, True),
    "numba/README.txt": (11, False),
    "deals/s1-d0-n100-exact.npz": (300_000, True),
    "deals/.s1-d0-n500-exact.npz.4242.tmp.npz": (3, True),
    "deals/my-notes.txt": (13, False),
    "holdings/s1-d0-n1000.npy": (1_500_000, True),
    "abstractions/holdem-8-8-8/river.npy": (400_000, True),
    "abstractions/holdem-8-8-8/spec.json": (90, True),
    "abstractions/notes.md": (5, False),
}


def build_root(root: Path) -> None:
    for relative, (size, _) in KNOWN_FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as file:
            file.truncate(size)


def expected(name: str) -> tuple[int, int]:
    """(bytes, files) gambler-cache should count in the known root's cache `name`."""
    sizes = [size for relative, (size, counted) in KNOWN_FILES.items()
             if counted and relative.startswith(f"{name}/")]
    return sum(sizes), len(sizes)


def files_under(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}


def gambler_cache(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gambler.cache_cli", *args], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def root_env(tmp_path):
    """A cache root of KNOWN_FILES, and the environment that points gambler at it alone."""
    root = tmp_path / "cache-root"
    build_root(root)
    env = {key: value for key, value in os.environ.items() if key not in OVERRIDES}
    env["GAMBLER_CACHE"] = str(root)
    return root, env


# --- the tests' own caches ------------------------------------------------------------------------

def test_the_tests_never_use_the_users_caches(request):
    """conftest points every cache at pytest's folder before gambler is imported, here and in the
    children tests start."""
    import numba

    import gambler.jit  # noqa: F401  (chooses numba's folder on import)

    from conftest import tests_cache_root

    test_root = tests_cache_root(request.config).resolve()
    assert Path(os.environ["GAMBLER_CACHE"]).resolve() == test_root
    home_cache = Path(os.path.expanduser("~"), ".cache", "gambler").resolve()
    in_process = [caches.root(), caches.numba_dir(), caches.deals_dir(), caches.holdings_dir(),
                  Path(numba.config.CACHE_DIR)]
    probe = ("import numba, gambler.jit; from gambler import caches; "
             "print(numba.config.CACHE_DIR); print(caches.deals_dir()); "
             "print(caches.holdings_dir())")
    in_child = [Path(line) for line in subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
        timeout=120).stdout.splitlines()]
    assert len(in_child) == 3
    for folder in in_process + in_child:
        assert folder.resolve().is_relative_to(test_root), folder
        assert not folder.resolve().is_relative_to(home_cache), folder


# --- where the caches are -------------------------------------------------------------------------

def test_root_prefers_gambler_cache_then_xdg_then_home(tmp_path, monkeypatch):
    for name in OVERRIDES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert caches.root() == tmp_path / "home" / ".cache" / "gambler"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert caches.root() == tmp_path / "xdg" / "gambler"
    monkeypatch.setenv("GAMBLER_CACHE", str(tmp_path / "mine"))
    assert caches.root() == tmp_path / "mine"
    assert [cache.path for cache in caches.caches()] == [
        tmp_path / "mine" / name for name in ("numba", "deals", "holdings", "abstractions")]


def test_overrides_move_one_cache_each(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMBLER_CACHE", str(tmp_path / "root"))
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path / "data" / "deals"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels"))
    assert {cache.name: cache.path for cache in caches.caches()} == {
        "numba": tmp_path / "kernels", "deals": tmp_path / "data" / "deals",
        "holdings": tmp_path / "data" / "holdings",  # beside the deals, as before the root
        "abstractions": tmp_path / "root" / "abstractions"}


def test_training_reads_its_folders_from_the_root(tmp_path, monkeypatch):
    from gambler.training import deals

    monkeypatch.delenv("GAMBLER_DEALS", raising=False)
    monkeypatch.setenv("GAMBLER_CACHE", str(tmp_path / "root"))
    assert deals.deals_cache_dir() == tmp_path / "root" / "deals"
    assert deals.holdings_cache_dir() == tmp_path / "root" / "holdings"


def test_kernels_go_to_the_temp_folder_when_the_root_is_not_writable(tmp_path, monkeypatch):
    import tempfile

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("GAMBLER_CACHE", str(blocker / "gambler"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    assert caches.numba_dir() == tmp_path / "tmp" / f"gambler-numba-{os.getuid()}"
    assert not (tmp_path / "tmp").exists()  # asking does not create
    assert caches.numba_dir(create=True) == caches.numba_fallback_dir()
    monkeypatch.setenv("GAMBLER_CACHE", str(tmp_path / "fine"))
    assert caches.numba_dir() == tmp_path / "fine" / "numba"
    assert not (tmp_path / "fine").exists()


# --- gambler-cache ------------------------------------------------------------------------------

def test_json_counts_exactly_the_cache_files(root_env):
    root, env = root_env
    result = gambler_cache("--json", env=env)
    assert result.returncode == 0 and result.stderr == ""
    report = json.loads(result.stdout)
    caches_expected = [{"name": name, "path": str(root / name), "bytes": expected(name)[0],
                        "files": expected(name)[1]}
                       for name in ("numba", "deals", "holdings", "abstractions")]
    assert report == {"root": str(root), "caches": caches_expected,
                      "total_bytes": 1_000 + 250_000 + 50_000 + 7 + 300_000 + 3 + 1_500_000
                      + 400_000 + 90,
                      "cleared": False}
    assert files_under(root) == set(KNOWN_FILES)  # measuring changes nothing


def test_text_lists_path_megabytes_and_files_and_the_total(root_env):
    root, env = root_env
    result = gambler_cache(env=env)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"cache root: {root}"
    rows = [line.split() for line in lines[1:]]
    assert rows == [
        ["numba", str(root / "numba"), "0.3", "MB", "4", "files"],  # 301,007 bytes
        ["deals", str(root / "deals"), "0.3", "MB", "2", "files"],  # 300,003 bytes
        ["holdings", str(root / "holdings"), "1.5", "MB", "1", "files"],
        ["abstractions", str(root / "abstractions"), "0.4", "MB", "2", "files"],
        ["total", "2.5", "MB", "9", "files"],
    ]


@pytest.mark.parametrize("name", ["numba", "deals", "holdings", "abstractions"])
def test_clear_one_removes_exactly_that_cache(root_env, name):
    root, env = root_env
    result = gambler_cache("--clear", name, "--json", env=env)
    assert result.returncode == 0 and result.stderr == ""
    report = json.loads(result.stdout)
    removed_bytes, removed_files = expected(name)
    assert report["cleared"] is True and report["total_bytes"] == removed_bytes
    assert [(c["name"], c["bytes"], c["files"]) for c in report["caches"]] == [
        (name, removed_bytes, removed_files)]
    kept = {relative for relative, (_, counted) in KNOWN_FILES.items()
            if not (counted and relative.startswith(f"{name}/"))}
    assert files_under(root) == kept
    assert (root / name).is_dir()  # the folder stays, emptied of its cache files
    if name == "numba":  # stale stamp folders go with their kernels
        assert sorted(p.name for p in (root / "numba").iterdir()) == ["README.txt"]


def test_clear_alone_removes_every_cache_and_nothing_else(root_env):
    root, env = root_env
    result = gambler_cache("--clear", env=env)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[-1].split() == ["removed", "2.5", "MB", "9", "files"]
    assert files_under(root) == {"numba/README.txt", "deals/my-notes.txt", "abstractions/notes.md"}
    after = json.loads(gambler_cache("--json", env=env).stdout)
    assert after["total_bytes"] == 0 and [c["files"] for c in after["caches"]] == [0, 0, 0, 0]


def test_clear_follows_the_overrides(root_env, tmp_path):
    root, env = root_env
    elsewhere = tmp_path / "elsewhere" / "deals"
    elsewhere.mkdir(parents=True)
    (elsewhere / "s2-d0-n10-exact.npz").write_bytes(b"12345")
    result = gambler_cache("--clear", "deals", "--json", env={**env, "GAMBLER_DEALS": str(elsewhere)})
    report = json.loads(result.stdout)
    assert report["caches"] == [{"name": "deals", "path": str(elsewhere), "bytes": 5, "files": 1}]
    assert list(elsewhere.iterdir()) == [] and files_under(root) == set(KNOWN_FILES)


def test_a_bad_cache_name_is_a_one_line_error(root_env):
    root, env = root_env
    result = gambler_cache("--clear", "kernels", env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "gambler-cache: error: Invalid value for '--clear': 'kernels' is not one of 'all', "
        "'numba', 'deals', 'holdings', 'abstractions'. (see --help)"]
    assert files_under(root) == set(KNOWN_FILES)
