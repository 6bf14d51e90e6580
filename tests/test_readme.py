"""The README and the documents in docs/ say what is true: their Python examples run as pasted and
print what they say, their links and paths exist, every flag they give a command is one of its
flags, the two-command dealer example plays, and the training-config example parses as pasted."""

import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
DOCS = {path.relative_to(ROOT).as_posix(): path.read_text()
        for path in sorted((ROOT / "docs").glob("*.md"))}
CLI = DOCS["docs/cli.md"]
PROFILES = DOCS["docs/profiles.md"]
DOCUMENTS = {"README.md": README, **DOCS, "experiments/README.md":
             (ROOT / "experiments" / "README.md").read_text()}
BLOCKS = [block for text in (README, *DOCS.values())
          for block in re.findall(r"```python\n(.*?)```", text, flags=re.S)]
COMMANDS = ("gambler", "gambler-dealer", "gambler-match", "gambler-lbr", "gambler-train",
            "gambler-report", "gambler-equity", "gambler-games", "gambler-cache", "gambler-solve",
            "gambler-play")


def test_the_readme_has_its_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_example_runs_as_pasted(index):
    code = BLOCKS[index].replace("hands=20000", "hands=200")  # LBR: the same call, smaller
    namespace: dict = {}
    exec(compile(code, f"README python block {index + 1}", "exec"), namespace)


def test_the_values_the_examples_quote():
    from gambler.evaluator import matchup, parse_cards, rank_hands
    from gambler.evaluator.ranges import range_win_rate
    from gambler.protocol import load_game, parse_matchstate, raise_to
    import numpy as np

    assert parse_cards("AsKc").tolist() == [51, 44]
    values = rank_hands(np.stack([parse_cards("AsKcQh7c2d9s3h"), parse_cards("2c2hQh7c2d9s3h")]))
    assert values[1] > values[0]  # trips beat ace high
    assert round(matchup("AcAd", "KhKs").equity, 4) == 0.8126
    assert round(range_win_rate("AsKc", "Qh7c2d", "QQ+,AKs,AQo").v, 4) == -0.7251
    state = parse_matchstate(load_game(), "MATCHSTATE:0:0:r300:7s5s|")
    assert state.betting.apply(raise_to(900)).betting_string() == "r300r900"


def test_the_explain_example_and_its_decision_line_are_what_the_bot_prints(capsys):
    """docs/cli.md's `gambler --explain` block is the command's output for the shipped default,
    and its `--log` decision line example carries the same decision, field for field."""
    from gambler.bot.cli import main

    block = re.search(r"```\n\$ gambler --explain \"(.*?)\"\n(.*?)```", CLI, flags=re.S)
    state, shown = block.group(1), block.group(2).splitlines()
    with pytest.raises(SystemExit) as exit_:
        main(["--explain", state])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.splitlines() == shown
    line = re.search(r"```\n(decision \d+ \d .*)\n```", CLI).group(1).split()
    hand, position, round_ = line[1:4]
    assert shown[0].startswith(f"default, hand {hand}, position {position}, {round_}:")
    assert dict(field.split("=") for field in line[4:]) == dict(row.split() for row in shown[1:])


def test_the_docs_exist_and_the_readme_links_each():
    assert set(DOCS) >= {"docs/cli.md", "docs/profiles.md", "docs/strength.md",
                         "docs/experiments.md", "docs/internals.md", "docs/performance.md",
                         "docs/games.md"}
    for name in DOCS:
        assert f"]({name})" in README, f"the README does not link {name}"


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_link_and_path_a_document_names_exists(name):
    """Relative links, and every repository path quoted in the text (configs/..., experiments/...,
    docs/..., benchmarks/..., tests/..., the source folders), point at files of the clone."""
    text = DOCUMENTS[name]
    base = (ROOT / name).parent
    for target in re.findall(r"\]\(([^)#]+?)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (base / target).exists(), f"{name}: link {target} is broken"
    folders = "configs|experiments|docs|benchmarks|tests|evaluator|protocol|bot|training|games"
    for path in re.findall(rf"(?<![\w/.-])((?:{folders})/[\w./*-]*[\w*])", text):
        if "*" in path or re.search(r"[A-Z]{3}", path):  # a pattern or a placeholder (ARM)
            continue
        assert (ROOT / path).exists(), f"{name}: {path} does not exist"


def _help_text(command: str, subcommand: str | None = None) -> str:
    args = [command] + ([subcommand] if subcommand else []) + ["--help"]
    result = subprocess.run(args, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _command_lines():
    """(document, command, subcommand, the words after it) of every command line the documents
    show: lines of code blocks and `inline code` that start with one of the commands."""
    for name, text in DOCUMENTS.items():
        snippets = re.findall(r"```\n(.*?)```", text, flags=re.S)
        lines = [line for block in snippets for line in block.splitlines()]
        lines += re.findall(r"`([^`]+)`", text.replace("\n", " "))
        for line in lines:
            line = line.strip().removeprefix("$ ").split("#")[0].split(" & ")[0]
            line = line.split("&&")[-1].strip()
            words = line.split()
            if words and words[0] in COMMANDS:
                sub = words[1] if words[0] in ("gambler-games", "gambler-train") and \
                    len(words) > 1 and not words[1].startswith("-") and \
                    words[1] in ("kuhn", "leduc", "onecard", "rps", "nim", "plot") else None
                yield name, words[0], sub, words


def test_every_flag_a_document_gives_a_command_is_one_of_its_flags():
    helps = {}
    checked = 0
    for name, command, sub, words in _command_lines():
        if (command, sub) not in helps:
            helps[command, sub] = _help_text(command, sub)
        for word in words[1:]:
            flag = word.split("=")[0].strip("[],.;:)(`")
            if re.fullmatch(r"--?[a-z][a-z0-9_-]*", flag):
                assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", helps[command, sub]), \
                    f"{name}: {' '.join(words)}: {flag} is not a flag of {command} {sub or ''}"
                checked += 1
    assert checked > 60


def test_the_flag_tables_name_only_real_flags():
    """Each command section's table of flags (| `--flag` | meaning |) in docs/cli.md against its
    --help, and every command has its section."""
    sections = re.split(r"\n### ", CLI)
    titled = {re.match(r"`([a-z-]+)`", section).group(1) for section in sections
              if re.match(r"`([a-z-]+)`", section)}
    assert set(COMMANDS) <= titled
    for section in sections:
        title = re.match(r"`([a-z-]+)`", section)
        if not title or title.group(1) not in COMMANDS:
            continue
        command = title.group(1)
        help_text = _help_text(command)
        rows = re.findall(r"^\| (`-.*?) \|", section, flags=re.M)
        for row in rows:
            for flag in re.findall(r"`(--?[a-z][a-z0-9_-]*)", row):
                assert flag in help_text, f"docs/cli.md {command}: {flag} is not in --help"


def _free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def test_the_play_against_a_dealer_example_plays(tmp_path):
    """The two commands of "Play the bot against a dealer", as pasted but for free ports and 40
    hands: the dealer's SCORE line names both players and the scores sum to zero, and each bot
    printed its summary line."""
    block = re.search(r"### Play the bot against a dealer.*?```\n(.*?)```", README,
                      flags=re.S).group(1)
    first, second = _free_ports(2)
    script = (block.replace("18791", str(first)).replace("18792", str(second))
              .replace(" 1000 ", " 40 ", 1))
    assert script.count(str(first)) == 2 and script.count(str(second)) == 2
    lines = script.strip().splitlines()
    dealer = subprocess.Popen(shlex.split(lines[0].rstrip("& ")), cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert dealer.stdout.readline().split() == [str(first), str(second)]
        bots = subprocess.run(["bash", "-c", lines[1] + "; wait"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        out, err = dealer.communicate(timeout=60)
    finally:
        dealer.kill()
    assert dealer.returncode == 0, err
    score = re.search(r"SCORE:(-?\d+)\|(-?\d+):default\|seed", out)
    assert score and int(score.group(1)) + int(score.group(2)) == 0
    assert len(re.findall(r"gambler: 40 hands, ", bots.stderr)) == 2, bots.stderr
    assert (tmp_path / "mymatch.log").exists()


def test_the_training_config_example_parses_as_pasted(tmp_path):
    import yaml

    from gambler.training.config import load_config

    block = re.search(r"## Training configs.*?```yaml\n(.*?)```", PROFILES, flags=re.S).group(1)
    (tmp_path / "example.yaml").write_text(block)
    config = load_config(tmp_path / "example.yaml")
    assert config.lbr["actions"] == "C,C,FCPA,FCPA"
    assert config.start == "v2-start" and config.deals == 20000
    assert yaml.safe_load(block)["lbr"]["report_hands"] == 20000


def test_the_exploiter_example_reads_as_its_comments_say():
    """docs/profiles.md's exploiter file parses as pasted, and its rules are the ones its comments
    describe."""
    from gambler.bot.exploiters import ALL_IN_SIZE, NEVER, parse_exploiter

    block = re.search(r"## Exploiters.*?```yaml\n(.*?)```", PROFILES, flags=re.S).group(1)
    exploiter = parse_exploiter(block, "docs/profiles.md")
    preflop, flop = exploiter.block(0, 0), exploiter.block(1, 1)
    assert exploiter.block(0, 0) == exploiter.block(1, 0) and flop == exploiter.block(0, 3)
    assert [rule.up_to for rule in preflop.facing][0] == 4.5
    assert preflop.facing[0].call_from == -NEVER and preflop.facing[1].call_from == 0.4
    assert (flop.bet_from, flop.bet_size, flop.bluff_below, flop.bluff_size) == \
        (0.8, 0.75, -0.5, 0.0)
    small, large = flop.facing
    assert (small.raise_from, small.size, small.call_from) == (-NEVER, ALL_IN_SIZE, 0.6)
    assert (large.raise_from, large.raise_below, large.size) == (0.9, -0.9, 2.0)
