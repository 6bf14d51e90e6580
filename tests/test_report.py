"""`gambler-report`: per-player results and style from ACPC logs, checked on a hand-worked log,
on the real dealer's log (its SCORE line) and on a duplicate pair played by gambler-dealer."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from acpc_support import ACPC, NOLIMIT

MINI = Path(__file__).parent / "data" / "logs" / "mini.log"


def report(*argv):
    result = subprocess.run([sys.executable, "-m", "gambler.training.report_cli", *map(str, argv)],
                            capture_output=True, text=True, timeout=300)
    return result


def players(*logs):
    result = report(*logs, "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    return payload, {player["name"]: player for player in payload["players"]}


def test_a_hand_worked_log():
    # Hand 0: b (small blind) raises, a folds. Hand 1: a limps from the small blind, both check
    # to a showdown that a wins. Hand 2: b raises, a calls, a bets the flop, b folds.
    payload, by_name = players(MINI)
    a, b = by_name["a"], by_name["b"]
    assert (payload["hands"], payload["duplicate"]) == (3, False)
    assert (a["hands"], a["chips"], b["chips"]) == (3, 300, -300)
    assert a["result"]["mbb_per_hand"] == pytest.approx(1000.0)  # 300 chips / 100 / 3 hands
    assert a["showdown_mbb_per_hand"] == pytest.approx(1000 / 3)   # hand 1's 100 chips
    assert a["no_showdown_mbb_per_hand"] == pytest.approx(2000 / 3)
    assert a["style"]["counts"] == {"hands": 3, "vpip": 2, "pfr": 0, "bets_and_raises": 1,
                                    "calls": 2, "faced_a_bet": 3, "folds": 1}
    # b: raises twice preflop (VPIP, PFR), checks its big blind, folds to the flop bet; as the
    # small blind it owes half a blind, which counts as facing a bet.
    assert b["style"]["counts"] == {"hands": 3, "vpip": 2, "pfr": 2, "bets_and_raises": 2,
                                    "calls": 0, "faced_a_bet": 3, "folds": 1}
    assert b["style"]["aggression"] is None and a["style"]["aggression"] == 0.5
    assert set(a["by_position"]) == {"big blind", "small blind"}
    assert a["by_position"]["small blind"]["mbb_per_hand"] == pytest.approx(1000.0)


def test_the_real_dealers_log_adds_up_to_its_score():
    log = ACPC / "example-nolimit.log"
    score = log.read_text().strip().splitlines()[-1]  # SCORE:2794243|-2794243:gambler|example
    values, names = score.split(":")[1:]
    payload, by_name = players(log)
    assert payload["duplicate"] is False  # 2,000 hands, but consecutive hands deal other cards
    for name, value in zip(names.split("|"), values.split("|")):
        player = by_name[name]
        assert player["chips"] == pytest.approx(float(value))
        assert player["hands"] == 2000
        assert player["showdown_mbb_per_hand"] + player["no_showdown_mbb_per_hand"] == \
            pytest.approx(player["result"]["mbb_per_hand"])
        luck = player["allin_luck"]["mbb_per_hand"]
        assert player["result"]["mbb_per_hand"] - player["allin_adjusted"]["mbb_per_hand"] == \
            pytest.approx(luck)


def play_duplicate(tmp_path, first, second, hands=40, seed=3):
    """A real `gambler-dealer --duplicate` match of two `gambler` bots; the log's path."""
    from acpc_support import NOLIMIT

    errors = open(tmp_path / "dealer.err", "w")
    dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "dup", NOLIMIT,
                               str(hands), str(seed), first, second, "--duplicate", "-q"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=errors, text=True)
    ports = dealer.stdout.readline().split()
    bots = [subprocess.Popen([sys.executable, "-m", "gambler.bot.cli", "127.0.0.1", port, "--params",
                              name, "--quiet"], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
            for port, name in zip(ports, (first, second))]
    for bot in bots:
        bot.communicate(timeout=300)
    dealer.communicate(timeout=60)
    errors.close()
    assert dealer.returncode == 0
    return tmp_path / "dup.log"


def test_a_duplicate_match_is_scored_by_deal(tmp_path):
    log = play_duplicate(tmp_path, "seed", "random")
    payload, by_name = players(log)
    seed = by_name["seed"]
    assert payload["duplicate"] is True and seed["result"]["units"] == 20  # 40 hands, 20 deals
    assert seed["result"]["mbb_per_hand"] == pytest.approx(seed["chips"] / 100 / 40 * 1000)
    # The interval is over deals: the spread of the 20 per-deal sums, not of the 40 hands.
    lines = [line.split(":") for line in log.read_text().splitlines()
             if line.startswith("STATE:")]
    per_hand = [float(f[4].split("|")[f[5].split("|").index("seed")]) for f in lines]
    per_deal = [per_hand[i] + per_hand[i + 1] for i in range(0, 40, 2)]
    mean = sum(per_deal) / 20
    sd = (sum((x - mean) ** 2 for x in per_deal) / 19) ** 0.5
    assert seed["result"]["ci95_mbb"] == pytest.approx(1.96 * sd / 20 ** 0.5 / 2 / 100 * 1000)


def test_bad_logs_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text("STATE:0:r300f:AsKd|2c3d:-100|999:a|b\n")
    result = report(bad)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"gambler-report: error: {bad}:1: values '-100|999'")
    empty = tmp_path / "empty.log"
    empty.write_text("# nothing\n")
    result = report(empty)
    assert result.returncode == 2 and "the logs hold no hands" in result.stderr


def test_two_logs_of_the_same_deals_are_a_duplicate_pair(tmp_path):
    # The same log with the names swapped: each player held both seats of every deal, so its
    # per-deal sums are all zero.
    swapped = tmp_path / "swapped.log"
    lines = []
    for line in MINI.read_text().splitlines():
        if line.startswith("STATE:"):
            fields = line.split(":")
            fields[5] = "|".join(reversed(fields[5].split("|")))
            line = ":".join(fields)
        lines.append(line)
    swapped.write_text("\n".join(lines[:-1]) + "\n")
    payload, by_name = players(MINI, swapped)
    assert payload["duplicate"] is True and payload["hands"] == 6
    assert by_name["a"]["result"] == {"mbb_per_hand": 0.0, "ci95_mbb": 0.0, "units": 3}


def browser():
    """Debian's chromium (CI installs it); without it the page test is skipped, unless
    GAMBLER_REQUIRE_BROWSER is set (as `.ci/run` does), where its absence fails."""
    import os
    import shutil

    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("GAMBLER_REQUIRE_BROWSER"):
            pytest.fail("GAMBLER_REQUIRE_BROWSER is set but chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return found


def headless(chromium):
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
            "--v=0"]


def rendered(chromium, page):
    """The page's DOM after headless chromium ran it, with no console message or error."""
    dom = subprocess.run([*headless(chromium), "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0
    assert "CONSOLE" not in dom.stderr and "Uncaught" not in dom.stderr
    return dom.stdout


def test_the_html_page_renders_in_a_real_browser_with_the_logs_numbers(tmp_path):
    chromium = browser()
    page = tmp_path / "report.html"
    log = ACPC / "example-nolimit.log"
    result = report(log, "--html", page)
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no network
    html = rendered(chromium, page)
    _, by_name = players(log)
    for name, player in by_name.items():
        result_text = (f"{player['result']['mbb_per_hand']:+,.1f} ± "
                       f"{player['result']['ci95_mbb']:,.1f}")
        assert f"<th>{name}</th>" in html and result_text in html
        assert f"{player['style']['vpip']:.1%}" in html
    assert html.count("<svg") == 5  # cumulative, by position, by street, actions of each player
    shot = tmp_path / "shot.png"
    subprocess.run([*headless(chromium), f"--screenshot={shot}", "--window-size=900,1400",
                    page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    import matplotlib.image
    pixels = matplotlib.image.imread(shot)[:, :, :3]
    blue = (abs(pixels - [0x1f / 255, 0x77 / 255, 0xb4 / 255]).sum(axis=2) < 0.05).sum()
    assert blue > 2000  # the bars and lines were drawn, not just text


def test_fixed_seats_give_each_player_one_position(tmp_path):
    # As `gambler-dealer -f` logs: a always in position 0 (the big blind), b in position 1.
    fixed = tmp_path / "fixed.log"
    fixed.write_text("".join(line + "\n" for line in MINI.read_text().splitlines()
                             if line.startswith(("STATE:0:", "STATE:2:"))))
    page = tmp_path / "fixed.html"
    result = report(fixed, "--json", "--html", page)
    assert result.returncode == 0, result.stderr
    by_name = {p["name"]: p for p in json.loads(result.stdout)["players"]}
    assert list(by_name["a"]["by_position"]) == ["big blind"]
    assert list(by_name["b"]["by_position"]) == ["small blind"]
    assert page.read_text().count("<svg") == 5


def test_hands_with_other_hole_cards_are_not_a_duplicate_deal(tmp_path):
    # Two preflop folds show no board, so only the hole cards can tell the deals apart.
    log = tmp_path / "two.log"
    log.write_text("STATE:0:r300f:AsKd|2c3d:-100|100:a|b\n"
                   "STATE:1:r300f:QsJd|2c3d:-100|100:b|a\n")
    payload, by_name = players(log)
    assert payload["duplicate"] is False and by_name["a"]["result"]["units"] == 2
    log.write_text("STATE:0:r300f:AsKd|2c3d:-100|100:a|b\n"
                   "STATE:1:r300f:2c3d|AsKd:-100|100:b|a\n")
    payload, by_name = players(log)
    assert payload["duplicate"] is True and by_name["a"]["result"]["units"] == 1


def test_the_bots_own_log_reads_as_the_dealers_log_does(tmp_path):
    """`gambler --log` writes one line per hand after its decision lines; read without --game
    (it names none, its raises carry sizes: no-limit), the bot's side ("gambler") and the
    other seat ("opponent") get the very numbers the dealer's log gives the two seats."""
    from acpc_support import NOLIMIT

    errors = open(tmp_path / "dealer.err", "w")
    dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "m", NOLIMIT,
                               "60", "5", "one", "two", "-q"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=errors, text=True)
    ports = dealer.stdout.readline().split()
    bots = [subprocess.Popen([sys.executable, "-m", "gambler.bot.cli", "127.0.0.1", port,
                              "--params", name, "--quiet", *extra], cwd=tmp_path,
                             stderr=subprocess.PIPE, text=True)
            for port, name, extra in zip(ports, ("seed", "random"), (["--log", "bot.log"], []))]
    for bot in bots:
        bot.communicate(timeout=300)
    dealer.communicate(timeout=60)
    errors.close()
    assert dealer.returncode == 0 and all(bot.returncode == 0 for bot in bots)
    bot_log = tmp_path / "bot.log"
    assert any(line.startswith("decision ") for line in bot_log.read_text().splitlines())
    payload, by_name = players(bot_log)
    dealer_payload, by_seat = players(tmp_path / "m.log")
    assert payload["hands"] == dealer_payload["hands"] == 60
    assert set(by_name) == {"gambler", "opponent"}
    for name, seat in (("gambler", "one"), ("opponent", "two")):
        assert by_name[name] == by_seat[seat] | {"name": name}
    assert report(bot_log).stdout.splitlines()[2].startswith("gambler: 60 hands, ")


def test_the_game_comes_from_the_header_or_else_the_raises(tmp_path):
    limit = ACPC / "example-limit.log"  # its header names holdem.limit.2p.reverse_blinds.game
    score = limit.read_text().strip().splitlines()[-1]  # SCORE:<seat values>:<names>
    totals = dict(zip(score.split(":")[2].split("|"), map(float, score.split(":")[1].split("|"))))
    _, by_name = players(limit)
    assert {name: player["chips"] for name, player in by_name.items()} == totals
    # Without the header its bare `r` raises say limit: the same hands.
    headless = tmp_path / "headless.log"
    headless.write_text("".join(line + "\n" for line in limit.read_text().splitlines()
                                if not line.startswith("#")))
    assert players(headless)[1] == by_name
    # A header naming a game that is nowhere to be found asks for --game.
    lost = tmp_path / "lost.log"
    lost.write_text("# name/game/hands/seed m /nowhere/mine.game 1 5\n"
                    + limit.read_text().splitlines()[4] + "\n")
    result = report(lost)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"gambler-report: error: {lost}: its header names the game "
                                    "'/nowhere/mine.game'") and "pass --game FILE" in result.stderr
    # No raise at all: limit and no-limit cannot be told apart.
    calm = tmp_path / "calm.log"
    calm.write_text("STATE:0:cc/cc/cc/cc:AsKd|2c3d/AhKh9s/7c/4d:100|-100:a|b\n")
    result = report(calm)
    assert result.returncode == 1 and result.stderr == (
        f"gambler-report: error: {calm}: cannot tell the game: no header names one and the "
        "betting shows no raise; pass --game FILE\n")
    nolimit = "holdem.nolimit.2p.reverse_blinds.game"
    assert players(calm, "--game", nolimit)[1]["a"]["chips"] == 100
    # Sized and bare raises in one log; and logs of two games in one report.
    calm.write_text("STATE:0:r300f:AsKd|2c3d:-100|100:a|b\nSTATE:1:rf:AsKd|2c3d:-10|10:a|b\n")
    assert "raises with and without sizes; pass --game FILE" in report(calm).stderr
    result = report(MINI, limit)
    assert result.returncode == 1
    assert "a hand of another game than" in result.stderr and "one game at a time" in result.stderr


def test_the_summary_separates_thousands():
    lines = report(MINI).stdout.splitlines()
    assert lines[2] == "a: 3 hands, +300 chips, +1,000.0 ± 2,263.2 mbb/hand"
    assert lines[3].startswith("  all-in adjusted: +1,000.0 ± 2,263.2 ")


def test_a_portfolios_page_plots_each_members_probability_in_a_real_browser(tmp_path):
    """A bot log with `adapt` lines (hand-made: 40 hands, member b's probability rising from 0.5
    to 0.89): the page gains a section with the members' shares and one chart with a line per
    member, and chromium renders it with no error."""
    chromium = browser()
    lines = ["# hand position cards betting result",
             "# portfolio duo: members a b"]
    for hand in range(40):
        position = hand % 2
        cards = "AsKd|" if position == 0 else "|AsKd"
        lines.append(f"{hand} {position} {cards} f {'+50' if position == 0 else '-50'}")
        p_b = 0.5 + 0.01 * hand
        lines.append(f"adapt {hand} member={'b' if hand % 4 else 'a'} "
                     f"p={1 - p_b:.6f}/{p_b:.6f}")
    log = tmp_path / "bot.log"
    log.write_text("\n".join(lines) + "\n")
    page = tmp_path / "report.html"
    result = report(log, "--html", page, "--game", NOLIMIT)
    assert result.returncode == 0, result.stderr
    html = rendered(chromium, page)
    assert 'id="adaptation"' in html
    assert "Hands played by each member: a 25.0%, b 75.0%" in html
    assert html.count("<svg") == 6  # the five of every page, and the members' probabilities
    assert 'aria-label="portfolio duo: each member\'s probability"' in html
    assert html.count("<polyline") >= 2 + 2  # the cumulative chart's two lines, one per member
    text = report(log, "--game", NOLIMIT).stdout
    assert "portfolio duo: hands played by each member: a 25.0%, b 75.0%; the last hand's " \
        "probabilities: a 0.110, b 0.890" in text
