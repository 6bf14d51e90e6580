"""Every command's plumbing: the numba cache directory gambler chooses when NUMBA_CACHE_DIR is
unset, start-up without numba, --version and help on every option, output paths checked first,
and `python -m gambler`'s list of the commands."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

PROBE = "import numba, gambler.jit; print(numba.config.CACHE_DIR)"


def cache_dir_with(env_changes: dict) -> str:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "GAMBLER_CACHE", "XDG_CACHE_HOME")}
    env.update(env_changes)
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_per_user_cache_directory(tmp_path):
    chosen = Path(cache_dir_with({"XDG_CACHE_HOME": str(tmp_path)}))
    assert chosen.parent == tmp_path / "gambler" / "numba" and chosen.is_dir()


def test_gambler_cache_wins_over_the_cache_home(tmp_path):
    chosen = Path(cache_dir_with({"GAMBLER_CACHE": str(tmp_path / "root"),
                                  "XDG_CACHE_HOME": str(tmp_path / "xdg")}))
    assert chosen.parent == tmp_path / "root" / "numba" and not (tmp_path / "xdg").exists()


def test_falls_back_to_temp_when_the_cache_home_is_unusable(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    chosen = cache_dir_with({"XDG_CACHE_HOME": str(blocker), "TMPDIR": str(tmp_path)})
    assert Path(chosen).parent == tmp_path / f"gambler-numba-{os.getuid()}"


def test_user_choice_wins(tmp_path):
    chosen = cache_dir_with({"NUMBA_CACHE_DIR": str(tmp_path / "mine")})
    assert chosen == str(tmp_path / "mine")


def test_cards_protocol_and_every_command_load_without_numba():
    """numba costs most of a start-up: only what values hands may import it, so `--help` and bad
    input answer at once from every command."""
    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as file:
        scripts = tomllib.load(file)["project"]["scripts"]
    commands = sorted({target.split(":")[0] for target in scripts.values()})
    assert "gambler.evaluator.cli" in commands and "gambler.adaptive.cli" in commands
    probe = (f"import sys, gambler.evaluator, gambler.protocol, gambler.protocol.client, {', '.join(commands)}; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba'))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


def test_lazy_evaluator_names_resolve_to_the_kernels():
    probe = ("from gambler import evaluator; import gambler.evaluator.rates as rates; "
             "print(evaluator.win_rate is rates.win_rate, 'rank_hands' in dir(evaluator))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True"]


def test_every_command_tells_its_version():
    from gambler import __version__

    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as file:
        scripts = tomllib.load(file)["project"]["scripts"]
    for name, target in sorted(scripts.items()):
        module = target.split(":")[0]
        out = subprocess.run([sys.executable, "-c", f"import sys, {module} as m; sys.argv[0] = "
                              f"{name!r}; m.main(['--version'])"], capture_output=True,
                             text=True)
        assert (out.returncode, out.stdout.strip()) == (0, f"{name} {__version__}"), out.stderr


def test_every_option_of_every_command_has_help():
    import importlib

    import click

    def options_without_help(command, path):
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from options_without_help(sub, f"{path} {name}")
        for param in command.params:
            if isinstance(param, click.Option) and not param.help:
                yield f"{path} {param.opts[0]}"

    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as file:
        scripts = tomllib.load(file)["project"]["scripts"]
    missing = [entry for name, target in sorted(scripts.items())
               for entry in options_without_help(
                   importlib.import_module(target.split(":")[0]).command, name)]
    assert missing == []


@pytest.mark.parametrize("module, argv, option", [
    ("gambler.bot.cli", ["127.0.0.1", "1", "--log", "{missing}/hands.txt"], "--log"),
    ("gambler.training.train_cli", ["--steps", "1", "--run-dir", "{tmp}/run", "--out",
                            "{missing}/best.yaml"], "--out"),
    ("gambler.games.cli", ["onecard", "--generations", "1", "--plot", "{missing}/ga.png"], "--plot"),
])
def test_output_paths_are_checked_before_the_work(tmp_path, module, argv, option):
    # gambler would otherwise connect first (port 1 refuses), gambler-train train first.
    argv = [arg.format(missing=tmp_path / "missing", tmp=tmp_path) for arg in argv]
    result = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert f"Invalid value for {option}: " in result.stderr
    assert f"the folder {tmp_path / 'missing'} does not exist" in result.stderr
    assert not (tmp_path / "run").exists()


def test_a_plot_without_matplotlib_is_refused_before_the_work(tmp_path):
    probe = ("import sys; sys.modules['matplotlib'] = None; from games.cli import main; "
             f"main(['onecard', '--plot', {str(tmp_path / 'ga.png')!r}])")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == ("gambler-games: error: --plot needs matplotlib: pip install "
                                     "'gambler[plot]' (see --help)")


def test_python_m_gambler_lists_every_command_with_its_own_help():
    import importlib
    import inspect

    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as file:
        scripts = tomllib.load(file)["project"]["scripts"]
    result = subprocess.run([sys.executable, "-m", "gambler"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0 and result.stderr == ""
    header, *rows = result.stdout.splitlines()
    assert header.startswith("gambler ") and "commands" in header
    listed = dict(row.strip().split(None, 1) for row in rows)
    assert list(listed) == sorted(scripts) and "gambler-cache" in listed
    for name, target in scripts.items():
        help_text = importlib.import_module(target.split(":")[0]).command.help
        first_paragraph = " ".join(inspect.cleandoc(help_text).split("\n\n")[0].split())
        assert first_paragraph.startswith(listed[name].removesuffix("…")), name
        assert len(listed[name]) >= min(40, len(first_paragraph)), name
