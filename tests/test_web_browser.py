"""The page in a real browser: Debian's headless Chromium driven by Selenium through the
page's accessible names (each card a button named as the CLI writes it, the roles
``Dealer`` and ``Pone``, the scores ``Your score`` and ``Their score``, the verdict in
``role="status"``, an error in ``role="alert"``), each answer compared with the API's.

The browser is required: the project installs it (``make browser``, run by ``make
test``); without it these tests fail, they do not skip. A failing test saves a
screenshot (its path is in the failure). ``CRIB_ANALYZE_SCREENSHOT=FILE`` saves the
throw panel's picture there (docs/page.png is made so).

Mutations tried (each fails a test here): the card buttons named by their suit symbols
(5♥); the verdict written outside the status element; the error shown in the status.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crib_analyze.api import advise_play_rows, discard_rows_for, odds_rows, win_probability
from crib_analyze.api.requests import DiscardRequest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WAIT = 60.0  # seconds: the first answers may compile kernels


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    """The app served on a free loopback port by uvicorn in a thread."""
    import uvicorn

    from crib_analyze.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield f"http://localhost:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = [p for p in (CHROMIUM, DRIVER) if not shutil.which(p)]
    if missing:
        pytest.fail(f"no {' or '.join(missing)}: install Debian's chromium and "
                    "chromium-driver (make browser)")  # fmt: skip
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Chromium's singleton socket lives under its temp folder and a socket path has at
    # most 107 bytes: a long TMPDIR makes it exit at start, so it gets a short one
    short = "/tmp" if len(tempfile.gettempdir()) > 40 and os.path.isdir("/tmp") else None
    profile = tempfile.mkdtemp(prefix="cac-", dir=short)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-sync",
                 "--disable-component-update", "--window-size=1100,1400",
                 f"--user-data-dir={profile}"):  # fmt: skip
        options.add_argument(flag)
    service = Service(DRIVER, env={**os.environ, "TMPDIR": profile})
    driver = webdriver.Chrome(service=service, options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any, page_url: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The page, fresh; on failure a screenshot is saved and its path said."""
    browser.get(page_url)
    yield browser
    failed = getattr(request.node, "failed_call", False)
    if failed:
        shot = Path(tempfile.gettempdir()) / f"crib-analyze-{request.node.name}.png"
        browser.save_screenshot(str(shot))
        print(f"screenshot of the failure: {shot}")


def by_name(driver: Any, role: str, name: str, within: Any = None) -> Any:
    """The element of ``role`` whose accessible name is ``name`` (Chromium computes it;
    spaces at its ends are not part of a name)."""
    from selenium.webdriver.common.by import By

    scope = within or driver
    deadline = time.monotonic() + 10  # the page may still be laying itself out
    while True:
        seen = []
        for element in scope.find_elements(By.CSS_SELECTOR, _ROLES[role]):
            seen.append(element.accessible_name.strip())
            if seen[-1] == name and element.is_displayed():
                return element
        if time.monotonic() > deadline:
            raise AssertionError(f"no {role} named {name!r} among {seen}")
        time.sleep(0.2)


_ROLES = {
    "button": "button", "radio": "input[type=radio]",
    "textbox": "input:not([type]),input[type=number]", "combobox": "select",
}  # fmt: skip


def panel(driver: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def answered(driver: Any, element: Any) -> str:
    """The text of ``element`` once the page has its answer."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(
        lambda _: element.text.strip() not in ("", "Working...")
    )  # fmt: skip
    return str(element.text.strip())


def first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def test_click_six_cards_and_a_role_read_the_verdict_of_discard(page: Any) -> None:
    throw = panel(page, "throw")
    for card in ("5H", "6S", "4D", "JC", "QH", "5C"):
        by_name(page, "button", card, throw).click()
    by_name(page, "radio", "Dealer", throw).click()
    by_name(page, "button", "Rank the throws", throw).click()
    said = answered(page, throw.find_element("css selector", "[role=status]"))
    rows = discard_rows_for("5H 6S 4D JC QH 5C", DiscardRequest(role="dealer"))
    assert said == first_upper(rows.attrs["verdict"])
    table = throw.find_element("id", "throw-table")
    assert "JC QH" in table.text.splitlines()[1]  # the best throw first
    chart = throw.find_element("id", "throw-chart")
    answered(page, chart)
    assert "keep 5H 6S 4D 5C" in chart.text
    shot = os.environ.get("CRIB_ANALYZE_SCREENSHOT")
    if shot:
        page.save_screenshot(shot)


def test_the_scores_rank_by_the_chance_of_winning(page: Any) -> None:
    throw = panel(page, "throw")
    typed = throw.find_element("id", "throw-cards")
    typed.send_keys("5H 6S 4D JC QH 5C")
    by_name(page, "radio", "Pone", throw).click()
    by_name(page, "textbox", "Your score", throw).send_keys("110")
    by_name(page, "textbox", "Their score", throw).send_keys("115")
    by_name(page, "button", "Rank the throws", throw).click()
    said = answered(page, throw.find_element("css selector", "[role=status]"))
    rows = discard_rows_for("5H 6S 4D JC QH 5C", DiscardRequest(role="pone", score="110-115"))
    assert said == first_upper(rows.attrs["verdict"])


def test_bad_input_is_the_api_s_line_in_an_alert(page: Any) -> None:
    throw = panel(page, "throw")
    for card in ("5H", "6S", "4D", "JC", "QH"):
        by_name(page, "button", card, throw).click()
    by_name(page, "button", "Rank the throws", throw).click()
    alert = throw.find_element("css selector", "[role=alert]")
    assert answered(page, alert) == "expected 6 cards, got 5"
    assert throw.find_element("css selector", "[role=status]").text == ""


def test_a_play_position(page: Any) -> None:
    from selenium.webdriver.support.ui import Select, WebDriverWait

    by_name(page, "button", "Play").click()
    play = panel(page, "play")
    by_name(page, "radio", "Pone", play).click()
    for target, cards in (("Your cards", "7C 8D 2C"), ("The starter", "5H"), ("The play", "3D TS")):
        by_name(page, "radio", target, play).click()  # then the cards, clicked
        for card in cards.split():
            by_name(page, "button", card, play).click()
    assert by_name(page, "textbox", "Played so far", play).get_attribute("value") == "3D TS"
    by_name(page, "button", "Rank the cards", play).click()
    said = answered(page, play.find_element("css selector", "[role=status]"))
    rows = advise_play_rows("pone", "7C 8D 2C", "5H", played="3D 10S")
    assert said == first_upper(rows.attrs["verdict"])
    text = play.find_element("id", "play-text").text  # the reasons and the assumptions
    assert "solver policy:" in text and "2C: " in text
    play.find_element("tag name", "summary").click()  # another game: three, as the dealer
    Select(play.find_element("id", "play-game")).select_by_value("three")
    by_name(page, "textbox", "Seat (other games)", play).send_keys("dealer")
    for field, text in (("Your cards", "5C 9D KS 2H"), ("Starter", "4D"),
                        ("Played so far", "7H 3S")):  # fmt: skip
        box = by_name(page, "textbox", field, play)
        box.clear()
        box.send_keys(text)
    by_name(page, "button", "Rank the cards", play).click()
    rows = advise_play_rows("dealer", "5C 9D KS 2H", "4D", played="7H 3S", game="three")
    WebDriverWait(page, WAIT).until(
        lambda _: play.find_element("css selector", "[role=status]").text
        == first_upper(rows.attrs["verdict"])
    )  # fmt: skip
    # the standard game with two jokers: the dealer's joker laid as the six that makes 31
    Select(play.find_element("id", "play-game")).select_by_value("standard")
    by_name(page, "textbox", "Seat (other games)", play).clear()
    by_name(page, "radio", "Dealer", play).click()
    Select(by_name(page, "combobox", "Jokers", play)).select_by_visible_text("2")
    for field, text in (("Your cards", "JK 5C QC"), ("Starter", "2C"),
                        ("Played so far", "JK=5H 10S 10D")):  # fmt: skip
        box = by_name(page, "textbox", field, play)
        box.clear()
        box.send_keys(text)
    by_name(page, "button", "Rank the cards", play).click()
    WebDriverWait(page, WAIT).until(
        lambda _: play.find_element("css selector", "[role=status]").text.startswith(
            "As dealer at count 25: play JK as 6"
        )
    )


def test_the_board_and_the_chance_from_a_score(page: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    by_name(page, "button", "Board").click()
    board = panel(page, "board")
    mine = by_name(page, "textbox", "Your score", board)
    mine.clear()
    mine.send_keys("110")
    theirs = by_name(page, "textbox", "Their score", board)
    theirs.clear()
    theirs.send_keys("115")
    by_name(page, "radio", "Pone", board).click()
    by_name(page, "button", "Chance of winning", board).click()
    said = answered(page, board.find_element("css selector", "[role=status]"))
    assert said == first_upper(odds_rows(110, 115, dealer=False).attrs["verdict"])
    board.find_element("tag name", "summary").click()  # another game: three, from its board
    Select(board.find_element("id", "odds-game")).select_by_value("three")
    by_name(page, "textbox", "Scores (one a side, from the dealer's left)", board).send_keys(
        "110 100 95"
    )
    by_name(page, "button", "Chance of winning", board).click()
    expected = first_upper(odds_rows(110, 100, 95, game="three").attrs["verdict"])
    status = board.find_element("css selector", "[role=status]")
    WebDriverWait(page, WAIT).until(lambda _: status.text == expected)
    Select(board.find_element("id", "odds-game")).select_by_value("standard")
    canvas = board.find_element("id", "map-dealer")
    readout = board.find_element("id", "map-readout")
    ActionChains(page).move_to_element(canvas).perform()  # its centre: a square of the map
    WebDriverWait(page, WAIT).until(lambda _: readout.text.startswith("You "))
    found = re.fullmatch(r"You (\d+), they (\d+), you deal: you win ([\d.]+)%", readout.text)
    assert found, readout.text
    mine, theirs, shown = int(found[1]), int(found[2]), float(found[3])
    assert 40 < mine < 80 and 40 < theirs < 80  # the middle of the board
    # one decimal of a percentage sent with five decimals: off by at most 0.0505
    assert shown == pytest.approx(100 * win_probability(mine, theirs, True), abs=0.0505)
    pone_map = board.find_element("id", "map-pone")  # from the keyboard: focus, arrows
    pone_map.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.SHIFT + Keys.ARROW_RIGHT)
    assert readout.text.startswith("You 62, they 70, they deal: you win ")
    shown = float(readout.text.rsplit(" ", 1)[1].rstrip("%"))
    assert shown == pytest.approx(100 * win_probability(62, 70, False), abs=0.0505)


RECORD = """deal
dealer: me
hand: 5H 6S 4D JC QH 5C
throw: 5H 5C
starter: 2D
play: 9C 6S 9D 4D 3C JC
"""


def test_a_review_upload(page: Any, tmp_path: Path) -> None:
    from crib_analyze.api import review_text_record

    by_name(page, "button", "Review").click()
    review = panel(page, "review")
    upload = tmp_path / "game.txt"
    upload.write_text(RECORD)
    review.find_element("id", "review-file").send_keys(str(upload))  # read by the page
    by_name(page, "button", "Grade the game", review).click()
    said = answered(page, review.find_element("css selector", "[role=status]"))
    frame = review_text_record(RECORD)
    assert said == first_upper(frame.attrs["verdict"])
    assert "5H 5C" in review.find_element("id", "review-table").text


def test_a_round_of_each_trainer(page: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    by_name(page, "button", "Trainers").click()
    trainers = panel(page, "trainers")
    by_name(page, "button", "Deal a hand", trainers).click()
    hand = trainers.find_element("id", "quiz-hand")
    WebDriverWait(page, WAIT).until(lambda _: len(hand.find_elements(By.TAG_NAME, "button")) == 6)
    cards = [b.accessible_name.strip() for b in hand.find_elements(By.TAG_NAME, "button")]
    role = trainers.find_element("id", "quiz-hand-role").text.split()[3].rstrip(":")
    for name in cards[:2]:
        by_name(page, "button", name, hand).click()
    said = answered(page, trainers.find_element("id", "quiz-status"))
    rows = discard_rows_for(" ".join(cards), DiscardRequest(role=role))
    thrown = " ".join(cards[:2])
    at = list(rows["discard"]).index(thrown)
    assert said.startswith(f"Your throw {thrown}: ")
    best = bool(rows[f"{role}_best"][at])
    assert ("the best throw" in said) == best
    if not best:
        assert f"{rows['loss'][at]:.3f} points" in said
    assert trainers.find_element("id", "quiz-tally").text.startswith("Tally: ")
    by_name(page, "button", "Deal a position", trainers).click()
    lay = trainers.find_element("id", "pquiz-hand")
    WebDriverWait(page, WAIT).until(lambda _: len(lay.find_elements(By.TAG_NAME, "button")) >= 2)
    first = lay.find_elements(By.TAG_NAME, "button")[0]
    card = first.accessible_name.strip()
    first.click()
    said = answered(page, trainers.find_element("id", "pquiz-status"))
    assert said.startswith(f"Your card {card}: ")
    assert trainers.find_element("id", "pquiz-tally").text.startswith("Tally: ")
