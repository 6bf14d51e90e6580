"""One exception root: every error class gambler defines derives from `GamblerError` (so a command
turns it into one line and a non-zero exit), and no module raises a bare built-in error where a
layer's own type belongs."""

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import gambler
from gambler.errors import GamblerError

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("gambler", "bot", "protocol", "evaluator", "training", "games")
PACKAGES = ("gambler", "gambler.bot", "gambler.protocol", "gambler.evaluator",
            "gambler.training", "gambler.games")

#: Bare raises that stay: inside a numba kernel that builds the shipped tables (no Python error
#: type reaches it; `python -m gambler.evaluator.tables` is a developer's tool).
ALLOWED_BARE = {("evaluator/tables.py", "ValueError")}

BUILT_IN = {"ValueError", "RuntimeError", "TypeError", "KeyError", "OSError", "IOError",
            "ArithmeticError", "Exception", "IndexError", "LookupError"}


def _modules():
    for package in PACKAGES:
        yield importlib.import_module(package)
        path = importlib.import_module(package).__path__
        for info in pkgutil.iter_modules(path):
            if info.name in ("__main__",):
                continue
            yield importlib.import_module(f"{package}.{info.name}")


def test_every_public_error_class_derives_from_gambler_error():
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__ and not name.startswith("_")):
                found.append(value)
                assert issubclass(value, GamblerError), f"{module.__name__}.{name}"
    names = {error.__name__ for error in found}
    # The layers' roots and the ones that used to sit outside (a check that the scan sees them).
    assert {"CardError", "ProtocolError", "ProfileError", "ConfigError", "ConnectionClosed",
            "LineTimeout", "MatchFailed", "LinearProgramError", "EngineError"} <= names


def test_no_module_raises_a_bare_built_in_error():
    offenders = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).glob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Raise) and node.exc is not None:
                    call = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                    name = getattr(call, "id", None)
                    where = (f"{folder}/{path.name}", name)
                    if name in BUILT_IN and where not in ALLOWED_BARE:
                        offenders.append(f"{folder}/{path.name}:{node.lineno} raises {name}")
    assert offenders == []


def test_the_root_is_exported_where_the_readme_says():
    assert gambler.errors.GamblerError is GamblerError
