"""`gambler-play`: a person's clicks checked against the rules, and whole hands played through the
page in a real browser (Debian's chromium, driven by selenium and chromedriver) against the bot
behind the real dealer, checked against the match log."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from gambler.adaptive.play import PlayError, Table
from gambler.protocol.betting import raise_to
from gambler.protocol.gamedef import load_game
from gambler.protocol.logs import read_log
from gambler.protocol.matchstate import parse_matchstate

GAME = load_game()


def awaiting(line: str) -> Table:
    table = Table("bot", 10, GAME.big_blind)
    table.status = "playing"
    table.state = parse_matchstate(GAME, line)
    table.awaiting = True
    return table


def test_a_legal_click_is_the_action_sent_and_ends_the_turn():
    table = awaiting("MATCHSTATE:1:0::|AsKd")  # the small blind to act preflop
    assert table.view()["legal"] == {"fold": True, "call": 50, "raise_min": 200,
                                     "raise_max": 20000}
    assert table.submit("raise", 600) == raise_to(600)
    assert table.actions.get_nowait() == raise_to(600) and not table.awaiting
    with pytest.raises(PlayError, match="it is not your turn: wait for the bot"):
        table.submit("call")
    assert table.actions.empty()


@pytest.mark.parametrize("line, kind, to, message", [
    ("MATCHSTATE:1:0::|AsKd", "raise", 199, "raise to 199: a raise is to 200 through 20,000"),
    ("MATCHSTATE:1:0::|AsKd", "raise", 20001, "raise to 20001: a raise is to 200 through 20,000"),
    ("MATCHSTATE:1:0::|AsKd", "raise", None, "raise to ?: a raise is to 200"),
    ("MATCHSTATE:0:0:c:AsKd|", "fold", None, "nothing to call: check instead of folding"),
    ("MATCHSTATE:0:0:r20000:AsKd|", "raise", 20000, "no raise is legal now: call or fold"),
    ("MATCHSTATE:0:0:c:AsKd|", "bet", None, "unknown action 'bet'"),
])
def test_a_bad_click_is_a_message_and_changes_nothing(line, kind, to, message):
    table = awaiting(line)
    before = table.view()
    with pytest.raises(PlayError, match=re.escape(message)):
        table.submit(kind, to)
    assert table.awaiting and table.actions.empty() and table.view() == before


def test_after_the_match_every_click_is_refused():
    table = awaiting("MATCHSTATE:0:0:c:AsKd|")
    table.finish("over", "match over")
    with pytest.raises(PlayError, match="the match is over"):
        table.submit("call")


def test_a_hands_result_is_the_persons_payoff():
    table = Table("bot", 10, GAME.big_blind)
    final = parse_matchstate(GAME, "MATCHSTATE:1:3:r300c/cc/cc/cc:9s8h|KdQs/8c4c2d/Kc/Th")
    table.on_hand_end(final)  # position 1 holds KdQs: a pair of kings beats a pair of eights
    assert table.total == 300 and table.results[-1].opponent_cards == ["9s", "8h"]
    folded = parse_matchstate(GAME, "MATCHSTATE:1:4:r300f:|KdQs")
    table.on_hand_end(folded)
    assert table.total == 400 and table.view()["total_bb"] == 4.0


# --- in a real browser --------------------------------------------------------------------------

def browser_driver():
    """A headless chromium driven by selenium; skipped where chromium or its driver is missing
    unless GAMBLER_REQUIRE_BROWSER is set (as `.ci/run` does), where that fails."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        webdriver = None
    if chromium is None or driver is None or webdriver is None:
        if os.environ.get("GAMBLER_REQUIRE_BROWSER"):
            pytest.fail("GAMBLER_REQUIRE_BROWSER is set but chromium, chromium-driver or "
                        "selenium is missing")
        pytest.skip("needs chromium, chromium-driver (apt-get) and selenium (pip)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1200"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture
def session(tmp_path):
    """`gambler-play call` (the always-calling baseline) for 3 hands; yields (url, log path)."""
    log = tmp_path / "play.log"
    process = subprocess.Popen([sys.executable, "-m", "gambler.adaptive.play_cli", "call",
                                "--hands", "3", "--seed", "5", "--port", "0", "--log", str(log)],
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
        assert url, line
        yield url.group(1), log, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def wait_for(condition, seconds=300.0):  # the first bot start may compile kernels
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_hands_played_through_the_page_are_the_match_log(session):
    from selenium.webdriver.common.by import By

    url, log, process = session
    driver = browser_driver()
    try:
        driver.get(url)
        page = lambda element: driver.find_element(By.ID, element)  # noqa: E731
        state = lambda: driver.execute_script(  # noqa: E731
            "return fetch('/state').then(r => r.json())")
        clicks = []  # (hand, action) the page sent

        def decision():
            """The server's next decision for the person, once the page shows it (None once the
            match is over)."""
            view = wait_for(lambda: (lambda v: v if v["your_turn"] or v["status"] in
                                     ("over", "failed") else None)(state()))
            if not view["your_turn"]:
                assert view["status"] == "over", view["message"]
                return None
            key = f"{view['hand']}:{view['betting']}"
            wait_for(lambda: driver.execute_script("return document.body.dataset.turn") == key)
            return view

        def answered(view):
            wait_for(lambda: (lambda v: not v["your_turn"] or (v["hand"], v["betting"]) !=
                              (view["hand"], view["betting"]))(state()))

        # Hand 1: a raise out of range first (refused, nothing moves), then a legal raise.
        before = decision()
        box = page("raise-to")
        box.clear()
        box.send_keys("150")
        page("raise").click()
        wait_for(lambda: "a raise is to" in page("message").text)
        assert state()["betting"] == before["betting"] and state()["your_turn"]
        low = before["legal"]["raise_min"]
        box.clear()
        box.send_keys(str(low))
        page("raise").click()
        clicks.append((before["hand"], f"r{low}"))
        answered(before)
        # Then call or check every decision to the end of the match.
        while (view := decision()) is not None:
            assert page("fold").is_enabled() == view["legal"]["fold"]
            page("call").click()
            clicks.append((view["hand"], "c"))
            answered(view)
        final = wait_for(lambda: (lambda v: v if v["status"] == "over" else None)(state()))
        assert final["hands_played"] == 3
        text = wait_for(lambda: page("total").text if "of 3 hands" in page("total").text
                        and "3 of" in page("total").text else None)
        # An action after the match: a clear message, nothing sent.
        refused = driver.execute_script(
            "return fetch('/action', {method: 'POST', body: JSON.stringify({action: 'call'})})"
            ".then(r => r.json())")
        assert refused == {"error": "the match is over: no more actions"}
    finally:
        driver.quit()
    hands = read_log(None, log)
    assert len(hands) == 3
    you = sum(hand.value_of("you") for hand in hands)
    assert final["total"] == you and f"{you:+,.0f} chips" in text
    sent = []
    for hand in hands:
        position = hand.names.index("you")
        for actions, actors in zip(hand.betting.actions, hand.betting.actors):
            sent += [(hand.hand, action.encode()) for action, actor in zip(actions, actors)
                     if actor == position]
    assert sent == clicks


@pytest.mark.parametrize("argv, message", [
    (["nosuchprofile"], "nosuchprofile"),
    (["call", "--log", "match.txt"], "match.txt: the dealer writes NAME.log: end it in .log"),
    (["call", "--log", "missing/folder/x.log"], "the folder"),
])
def test_bad_arguments_are_one_line_before_anything_starts(tmp_path, argv, message):
    result = subprocess.run([sys.executable, "-m", "gambler.adaptive.play_cli", *argv,
                             "--port", "0"], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path)
    assert result.returncode != 0
    [line] = result.stderr.splitlines()
    assert line.startswith("gambler-play: error: ") and message in line
    assert list(tmp_path.iterdir()) == []  # no log, nothing started
