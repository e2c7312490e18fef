"""The arena's browser page in a real browser: Debian's chromium, driven by Playwright, against the live server.

A DouDizhu game (with bidding) and a Gongzhu game are played to the end by clicking (Hint, then Play; Pass
when nothing beats the table), their result screens checked against the stored records, and the replay
viewer stepped; a few GuanDan moves are clicked too. Screenshots go to ``artifacts/screenshots/``.
Without chromium the tests are skipped, unless ``PAIJU_REQUIRE_BROWSER=1`` asks for them.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from paiju.games.doudizhu import DouDizhu, DouDizhuRules
from paiju.games.doudizhu.cards import format_cards
from paiju.games.gongzhu import player_score
from paiju.serve.settings import ServeSettings

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DOUDIZHU_SEED = 1
"""A full-mode deal where seat 0 bids first, so the page's bid buttons are always used."""
GUANDAN_SEED = 2
"""A deal where seat 0 leads holding both wild hearts: H2 H2 C3 C3 D3 reads as a bomb or a full house."""
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
STEP_MS = 20_000
"""Milliseconds the page has for any one step (the bots answer in far less)."""
MAX_TURNS = 80
"""More decisions than any one seat makes in a DouDizhu or Gongzhu game."""


def _chromium_or_skip() -> None:
    if CHROMIUM.exists():
        return
    reason = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    if os.environ.get("PAIJU_REQUIRE_BROWSER") == "1":
        pytest.fail(f"PAIJU_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    _chromium_or_skip()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def arena_settings(tmp_path: Path) -> ServeSettings:
    """The real front end (the default static folder), bots without delay, time enough for every click."""
    return ServeSettings(db_path=tmp_path / "arena.sqlite3", move_timeout=60.0)


@contextmanager
def lobby_page(browser: Browser, arena_url: str, width: int = 1400, height: int = 950) -> Iterator[Page]:
    """A page on the lobby in a browser context of its own (its own seat tokens), on a screen of ``width`` ×
    ``height``; any script error on it fails the test."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(STEP_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(arena_url)
    page.get_by_test_id("game-select").wait_for()
    yield page
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser, arena_url: str) -> Iterator[Page]:
    with lobby_page(browser, arena_url) as page:
        yield page


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def create_table(page: Page, game: str, rules: dict[str, str] | None = None, seed: int | None = None,
                 seats: dict[int, str] | None = None) -> None:
    """From the lobby: a table of ``game``, you in seat 0, the default bot in every seat not in ``seats``."""
    page.get_by_test_id("game-select").select_option(game)
    for seat, choice in (seats or {}).items():
        page.get_by_test_id(f"seat-{seat}").select_option(choice)
    for rule, value in (rules or {}).items():
        page.get_by_test_id(f"rule-{rule}").select_option(value)
    if seed is not None:
        page.get_by_test_id("seed").fill(str(seed))
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("table-view").wait_for()


def drag_across(page: Page, first: Locator, last: Locator) -> None:
    """Press on ``first`` and release on ``last``, passing over the cards between."""
    first.hover(position={"x": 8, "y": 40})
    page.mouse.down()
    box = last.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 40, steps=12)
    page.mouse.up()


def wait_for_turn_or_result(page: Page) -> bool:
    """Wait until the page offers a move (True) or shows the result (False)."""
    page.wait_for_selector("[data-testid=play]:not([disabled]), [data-testid=result]")
    return page.get_by_test_id("result").count() == 0


def take_turn(page: Page) -> None:
    """One decision by clicking: the highest bid offered, else Hint then Play (a reading of several: the
    first), else Pass."""
    bids = page.locator("[data-testid^=bid-]")
    if bids.count():
        bids.last.click()
        return
    page.get_by_test_id("hint").click()  # the adviser (the search) answers in a moment
    expect(page.get_by_test_id("message")).to_contain_text(re.compile(r"Hint|pass"), timeout=60_000)
    if page.locator(".card-hand.selected").count() == 0:
        page.get_by_test_id("pass").click()
        return
    page.get_by_test_id("play").click()
    if page.get_by_test_id("choice").count():
        page.get_by_test_id("choice").first.click()


def play_to_the_end(page: Page) -> None:
    for _ in range(MAX_TURNS):
        if not wait_for_turn_or_result(page):
            return
        assert page.get_by_test_id("shown-hand").count() == 0, "a live table showed another seat's hand"
        take_turn(page)
    pytest.fail(f"the game did not end within {MAX_TURNS} decisions")


def shown_payoffs(page: Page) -> list[float]:
    cells = page.locator("[data-testid=result] [data-testid=payoff]")
    return [float(cells.nth(i).get_attribute("data-value")) for i in range(cells.count())]


def stored_record(page: Page, arena_url: str) -> dict:
    """The record the result screen links to, read back over HTTP."""
    href = page.get_by_test_id("replay-link").get_attribute("href")
    record_id = unquote(re.fullmatch(r"#/replay/(.+)", href).group(1))
    return httpx.get(f"{arena_url}/api/records/{record_id}").json()


def check_replay(page: Page, name: str, seats: int) -> None:
    """Open the replay from the result screen; every hand is face up; stepping changes the position."""
    page.get_by_test_id("replay-link").click()
    page.get_by_test_id("replay-view").wait_for()
    step = page.get_by_test_id("replay-step")
    page.wait_for_function("document.querySelector('[data-testid=replay-step]')?.textContent.startsWith('Step 0')")
    assert page.get_by_test_id("shown-hand").count() == seats
    board = page.get_by_test_id("board")
    deal = board.inner_html()
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-next").click()
    assert step.text_content().startswith("Step 2 of ")
    assert board.inner_html() != deal
    assert page.get_by_test_id("replay-action").text_content().startswith("Seat ")
    page.get_by_test_id("replay-prev").click()
    page.get_by_test_id("replay-start").click()
    assert step.text_content().startswith("Step 0 of ")
    assert board.inner_html() == deal
    page.get_by_test_id("replay-move").nth(4).click()  # the move list jumps
    expect(step).to_contain_text("Step 5 of ")
    expect(page.locator("[data-testid=replay-move].current")).to_have_count(1)
    page.get_by_test_id("replay-seat").select_option("1")  # seat 1 at the bottom: the same position, turned
    assert board.inner_html() != deal
    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    expect(step).not_to_contain_text("Step 5 of ")  # autoplay moves on by itself
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_text("▶ Play")
    page.get_by_test_id("replay-end").click()
    page.get_by_test_id("result").wait_for()
    screenshot(page, f"{name}-replay")


def test_doudizhu_game_played_by_clicking_bids_plays_and_replays(page: Page, arena_url: str):
    create_table(page, "doudizhu", {"mode": "full"}, seed=DOUDIZHU_SEED)
    assert wait_for_turn_or_result(page)
    page.get_by_test_id("bid-3").click()
    assert wait_for_turn_or_result(page)
    expect(page.get_by_test_id("info-landlord")).to_have_text("You")
    page.get_by_test_id("counter-toggle").click()
    unseen = page.locator("[data-testid=counter-value]").all_text_contents()
    assert sum(int(count) for count in unseen) == 54 - 20, "the landlord has seen its 20 cards, nothing else"
    screenshot(page, "doudizhu-table")
    play_to_the_end(page)
    page.get_by_test_id("result").wait_for()
    screenshot(page, "doudizhu-result")
    record = stored_record(page, arena_url)
    assert record["game"] == "doudizhu" and record["rules"]["mode"] == "full" and record["seed"] == DOUDIZHU_SEED
    assert record["actions"][0] == [0, 3]
    assert shown_payoffs(page) == record["result"]["payoffs"]
    revealed = page.get_by_test_id("revealed-hand")
    expect(revealed).to_have_count(3)  # the game is over: every hand as dealt, face up
    for seat, hand in enumerate(record["deals"][-1]["hands"]):
        cards = revealed.nth(seat).get_by_test_id("card")
        assert sorted(cards.evaluate_all("nodes => nodes.map((node) => node.dataset.card)")) == sorted(hand)
    check_replay(page, "doudizhu", seats=3)
    page.get_by_test_id("lobby-link").click()
    expect(page.get_by_test_id("record")).to_have_count(1)
    screenshot(page, "lobby")


def cannot_join(card: str) -> list[str]:
    """The cards of seat 0's hand (research mode, the deal of ``DOUDIZHU_SEED``) that no legal lead holds together
    with one ``card``: those the page dims once ``card`` is selected."""
    state = DouDizhu().new_state(DOUDIZHU_SEED, DouDizhuRules())
    plays = [Counter(move.cards) for move in state.legal_actions() if move.cards]
    hand = Counter(format_cards(state.hands[0]))
    dimmed = []
    for other, count in hand.items():
        wanted = Counter({card: 1}) + Counter({other: 1})
        if not any(all(play[c] >= n for c, n in wanted.items()) for play in plays):
            dimmed += [other] * (count - (other == card))
    return sorted(dimmed)


def test_doudizhu_from_the_keyboard_with_the_advisers_hint(page: Page):
    page.get_by_test_id("game-select").select_option("doudizhu")
    expect(page.get_by_test_id("rule-mode")).to_have_value("full")  # people bid unless they ask otherwise
    expect(page.get_by_test_id("rule-redeal_limit")).to_have_value("3")  # and passing cannot stall the table
    expect(page.get_by_test_id("seat-1").locator("option[value=rules]")).to_have_text("rules — hand-written heuristics")
    create_table(page, "doudizhu", {"mode": "research"}, seed=DOUDIZHU_SEED)
    assert wait_for_turn_or_result(page)  # research mode: seat 0 is the landlord and leads
    page.evaluate("document.activeElement && document.activeElement.blur()")
    hand = page.locator("[data-testid=hand] [data-testid=card]")
    assert hand.count() == 20
    expect(page.get_by_test_id("prompt")).to_have_text("You lead: play any combination.")
    dimmed = page.locator("[data-testid=hand] .card-hand.dim")
    expect(dimmed).to_have_count(0)  # any card leads, alone
    rank = hand.first.get_attribute("data-card")
    copies = page.locator(f"[data-testid=hand] [data-card='{rank}']").count()
    selected = page.locator(".card-hand.selected")
    page.keyboard.press(rank)
    expect(selected).to_have_count(1)
    assert sorted(dimmed.evaluate_all("nodes => nodes.map((node) => node.dataset.card)")) == cannot_join(rank)
    for count in range(2, copies + 1):
        page.keyboard.press(rank)
        expect(selected).to_have_count(count)
    page.keyboard.press(rank)  # every card of the rank is selected: the key clears them
    expect(selected).to_have_count(0)
    page.keyboard.press("h")
    expect(page.get_by_test_id("message")).to_contain_text("Hint from search", timeout=60_000)
    chosen = selected.count()
    assert chosen > 0, "a leader cannot pass: the hint is a play"
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=log] li", has_text="You: ")).to_have_count(1)
    expect(hand).to_have_count(20 - chosen)
    play_to_the_end(page)
    expect(page.get_by_test_id("revealed-hand")).to_have_count(3)
    finished = page.url
    page.get_by_test_id("play-again").click()  # a new table: you in seat 0, the same two bots, a new deal
    expect(page).not_to_have_url(finished)
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    assert wait_for_turn_or_result(page)
    expect(page.get_by_test_id("hand").get_by_test_id("card")).to_have_count(20)  # research mode again: landlord


def right_edges(page: Page, selector: str) -> list[float]:
    return page.locator(selector).evaluate_all("nodes => nodes.map((node) => node.getBoundingClientRect().right)")


@pytest.mark.parametrize("game", ["guandan", "doudizhu"])
def test_a_phone_screen_shows_everything_without_sideways_scrolling(browser: Browser, arena_url: str, game: str):
    with lobby_page(browser, arena_url, width=390, height=844) as page:
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        create_table(page, game, seed=GUANDAN_SEED if game == "guandan" else DOUDIZHU_SEED)
        assert wait_for_turn_or_result(page)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert max(right_edges(page, "[data-testid=hand] [data-testid=card]")) <= 390  # the hand wraps
        assert max(right_edges(page, "[data-testid=controls] button, .controls button")) <= 390
        screenshot(page, f"{game}-phone")
        take_turn(page)
        expect(page.locator("[data-testid=log] li", has_text="You: ")).to_have_count(1)


def test_the_page_switches_to_chinese_and_back(page: Page):
    page.get_by_test_id("language").click()
    expect(page.get_by_test_id("create-table")).to_have_text("开桌入座")
    create_table(page, "doudizhu", {"mode": "full"}, seed=DOUDIZHU_SEED)
    assert wait_for_turn_or_result(page)
    expect(page.get_by_test_id("hint")).to_have_text("提示")
    expect(page.get_by_test_id("play")).to_have_text("出牌")
    expect(page.get_by_test_id("bid-0")).to_have_text("不叫")
    page.get_by_test_id("bid-3").click()
    expect(page.locator(".tag-landlord")).to_have_text("地主")  # the game's terms too
    page.reload()  # the choice is remembered
    expect(page.get_by_test_id("play")).to_have_text("出牌")
    page.get_by_test_id("language").click()
    expect(page.get_by_test_id("play")).to_have_text("Play")
    expect(page.locator(".tag-landlord")).to_have_text("Landlord")


def test_gongzhu_game_counter_ai_panel_and_refused_selection(page: Page, arena_url: str):
    create_table(page, "gongzhu")
    assert wait_for_turn_or_result(page)
    hand = page.locator("[data-testid=hand] [data-testid=card]")
    assert hand.count() == 13
    page.get_by_test_id("counter-toggle").click()
    unseen = page.locator("[data-testid=counter-value]").all_text_contents()
    assert sum(len(ranks.split()) for ranks in unseen if ranks != "—") == 52 - 13
    drag_across(page, hand.nth(0), hand.nth(2))
    expect(page.locator(".card-hand.selected")).to_have_count(3)
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("message")).to_contain_text("is not a legal play here")
    assert hand.count() == 13
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("info-pig")).to_have_text("not taken yet")  # the pig ♠Q, sheep ♦J, doubler ♣10
    expect(page.get_by_test_id("info")).to_contain_text("Sheep J♦")
    page.get_by_test_id("ai-agent").select_option("mr-if")
    page.get_by_test_id("ai-ask").click()
    first = page.get_by_test_id("candidate").first
    first.wait_for()
    expect(page.get_by_test_id("ai-scale")).to_have_text("mr-if's values: 1 for the move the agent chooses, 0 for "
                                                          "the others")
    first.click()
    chosen = page.locator(".card-hand.selected")
    assert chosen.count() == 1
    card = chosen.get_attribute("data-card")
    screenshot(page, "gongzhu-table")
    page.get_by_test_id("play").click()
    mine = page.locator("[data-testid=log] li", has_text="You: ")
    expect(mine).to_have_text([f"You: {card[1:]}{SUIT_SYMBOLS[card[0]]}"])
    play_to_the_end(page)
    page.get_by_test_id("result").wait_for()
    screenshot(page, "gongzhu-result")
    record = stored_record(page, arena_url)
    assert record["actions"][0] == [0, card]
    assert shown_payoffs(page) == record["result"]["payoffs"]
    check_replay(page, "gongzhu", seats=4)


def test_guandan_wild_cards_offer_every_reading_then_moves_by_clicking(page: Page):
    create_table(page, "guandan", seed=GUANDAN_SEED)
    assert wait_for_turn_or_result(page)
    for card, copy in (("H2", 0), ("H2", 1), ("C3", 0), ("C3", 1), ("D3", 0)):
        page.locator(f"[data-testid=hand] [data-card={card}]").nth(copy).click()
    page.get_by_test_id("play").click()
    choices = page.get_by_test_id("choice")
    expect(choices).to_have_text(["Bomb 3", "Three with two 3"])
    screenshot(page, "guandan-table")
    choices.first.click()
    mine = page.locator("[data-testid=log] li", has_text="You: ")
    expect(mine).to_have_text(["You: Bomb 3: 2♥ 2♥ 3♣ 3♣ 3♦"])  # the log names the cards
    page.reload()
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    expect(page.get_by_test_id("hand").get_by_test_id("card")).to_have_count(27 - 5)
    mine = page.locator("[data-testid=log] li", has_text="You: ")
    for turn in range(3):
        assert wait_for_turn_or_result(page)
        take_turn(page)
        expect(mine).to_have_count(turn + 1)
    expect(page.get_by_test_id("info-level")).to_contain_text("2 (wild: ♥2)")
    expect(page.get_by_test_id("info-rank-order")).to_have_text("3 4 5 6 7 8 9 10 J Q K A 2, small joker, big joker")


def test_a_guandan_round_played_to_the_end_by_clicking_then_replayed(page: Page, arena_url: str):
    page.get_by_test_id("game-select").select_option("guandan")
    expect(page.get_by_test_id("rule-rounds")).to_have_value("1")  # people get one round unless they ask
    page.get_by_test_id("seed").fill(str(GUANDAN_SEED))
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("table-view").wait_for()
    play_to_the_end(page)
    page.get_by_test_id("result").wait_for()
    screenshot(page, "guandan-result")
    record = stored_record(page, arena_url)
    assert record["game"] == "guandan" and record["rules"]["rounds"] == 1 and record["seed"] == GUANDAN_SEED
    assert shown_payoffs(page) == record["result"]["payoffs"]
    check_replay(page, "guandan", seats=4)


def test_an_open_seat_is_taken_from_the_lobby_in_another_browser(browser: Browser, page: Page, arena_url: str):
    create_table(page, "gongzhu", seats={1: "open"})
    page.get_by_test_id("waiting").wait_for()
    with lobby_page(browser, arena_url) as guest:
        guest.get_by_test_id("join-seat").wait_for()
        screenshot(guest, "lobby-open-seat")
        guest.get_by_test_id("join-seat").click()
        guest.get_by_test_id("table-view").wait_for()
        for player in (page, guest):
            assert wait_for_turn_or_result(player)
            take_turn(player)
        for player, other in ((page, "Seat 1 · open: "), (guest, "Seat 0 · person: ")):
            expect(player.locator("[data-testid=log] li", has_text="You: ")).to_have_count(1)
            expect(player.locator("[data-testid=log] li", has_text=other)).to_have_count(1)


def test_a_refused_table_shows_the_server_reason(page: Page):
    page.get_by_test_id("game-select").select_option("guandan")
    page.get_by_test_id("rule-a_attempts").fill("0")
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("lobby-error")).to_contain_text("a_attempts")
    expect(page.get_by_test_id("lobby")).to_be_visible()


ALL_HEARTS = [f"H{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def test_the_page_scores_gongzhu_cards_as_the_engine_does(page: Page):
    cases = [[], ["H2"], ["SQ", "C10"], ["C10"], ["C10", "H2"], ["DJ", "HA", "HK"], ALL_HEARTS,
             [*ALL_HEARTS, "C10", "SQ"]]
    shown = page.evaluate("async (cases) => { const {playerScore} = await import('/static/js/games/gongzhu.js');"
                          " return cases.map(playerScore); }", cases)
    assert shown == [player_score(taken) for taken in cases]
