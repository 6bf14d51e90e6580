"""One version: `gambler.__version__`, pyproject.toml's and the CHANGELOG's first entry agree, and
every console script prints it with `--version`."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import gambler

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_package_pyproject_and_changelog_name_the_same_version():
    assert gambler.__version__ == PROJECT["version"]
    headings = re.findall(r"^## (\d+\.\d+\.\d+)\s*$", (ROOT / "CHANGELOG.md").read_text(),
                          flags=re.MULTILINE)
    assert headings[0] == gambler.__version__
    assert len(set(headings)) == len(headings)


@pytest.mark.parametrize("script", sorted(PROJECT["scripts"]))
def test_every_command_prints_the_version(script):
    module, function = PROJECT["scripts"][script].split(":")
    code = (f"import sys; sys.argv = [{script!r}, '--version']; "
            f"from {module} import {function}; {function}()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{script} {gambler.__version__}"
