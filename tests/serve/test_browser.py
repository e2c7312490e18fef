"""The arena's browser page in a real browser: Debian's chromium, driven by Playwright, against the live server.

A DouDizhu game (with bidding) and a Gongzhu game are played to the end by clicking (Hint, then Play; Pass
when nothing beats the table), their result screens checked against the stored records, and the replay
viewer stepped; a few GuanDan moves are clicked too. Screenshots go to ``artifacts/screenshots/``.
Without chromium the tests are skipped, unless ``PAIJU_REQUIRE_BROWSER=1`` asks for them.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from websockets.sync.client import connect

from paiju.games.doudizhu import DouDizhu, DouDizhuRules
from paiju.games.doudizhu.cards import format_cards
from paiju.games.gongzhu import player_score
from paiju.games.guandan import GuanDan
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
    expect(page.get_by_test_id("seat-1")).to_have_value("search")  # the strongest bot that moves quickly
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


PHONE = {"width": 390, "height": 844}
PHONE_TABLES = {"doudizhu": ({"mode": "research"}, DOUDIZHU_SEED, 20), "guandan": (None, GUANDAN_SEED, 27),
                "gongzhu": (None, None, 13)}
"""Each game's table on the phone screen: its rules, seed and the cards of the hand at your first play (the
DouDizhu landlord's 20, the 27 of a GuanDan hand, the 13 of a Gongzhu hand)."""


def wait_for_play_with_cards(page: Page) -> None:
    """Wait until the page offers a play of the play phase (not a bid, a tribute, or the result) from a hand
    that holds cards."""
    page.wait_for_function("document.querySelector('[data-testid=table-view][data-phase=play] "
                           "[data-testid=play]:not([disabled])') && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length > 0")


def off_screen(locator: Locator) -> list[dict]:
    """The boxes of ``locator``'s elements that are not wholly inside the screen as it is (unscrolled)."""
    return locator.evaluate_all("nodes => nodes.map((node) => node.getBoundingClientRect()).filter((box) =>"
                                " box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight)")


@pytest.mark.parametrize("game", ["doudizhu", "guandan", "gongzhu"])
def test_a_phone_screen_shows_the_hand_and_the_buttons_without_scrolling(browser: Browser, arena_url: str, game: str):
    rules, seed, cards = PHONE_TABLES[game]
    with lobby_page(browser, arena_url, **PHONE) as page:
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        create_table(page, game, rules, seed=seed)
        wait_for_play_with_cards(page)
        hand = page.locator("[data-testid=hand] [data-testid=card]")
        expect(hand).to_have_count(cards)
        buttons = page.locator(".controls .buttons button:visible")
        assert buttons.count() >= 3  # Hint, Clear, Play, and Pass where the game has it
        assert page.evaluate("[scrollX, scrollY]") == [0, 0]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        assert off_screen(hand) == [] and off_screen(buttons) == []
        screenshot(page, f"{game}-phone")
        page.locator("[data-testid=hand] .card-hand:not(.dim)").last.click()  # a single card: a legal play here
        page.get_by_test_id("play").click()
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


def test_as_is_translated_only_between_ranks(page: Page):
    to_chinese = "text => import('/static/js/i18n.js').then((i18n) => i18n.toChinese(text))"
    assert page.evaluate(to_chinese, "soft bomb of 5 (8 as 5), 10 as J") == "软炸 5 (8 当 5), 10 当 J"
    assert page.evaluate(to_chinese, "the first bidder plays as landlord") == "the first bidder plays as 地主"


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


TRIBUTE_SEED = 1
"""Four "rules" bots dealt from this seed finish round one 1st and 2nd in one team (double down): both losers
pay tribute in round two, and both receivers return a card."""


def finished_record(arena_url: str, table_id: str, limit: float = 60.0) -> dict:
    """The record of table ``table_id`` once it has finished (the arena holds that one game only)."""
    deadline = time.monotonic() + limit
    while next(table for table in httpx.get(f"{arena_url}/api/tables").json()["tables"]
               if table["table_id"] == table_id)["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table_id} did not finish in {limit} s"
        time.sleep(0.1)
    (summary,) = httpx.get(f"{arena_url}/api/records").json()
    return httpx.get(f"{arena_url}/api/records/{summary['record_id']}").json() | {"id": summary["record_id"]}


def guandan_card_text(card: str) -> str:
    """A GuanDan card as the page writes it: 10♥, the jokers by name."""
    if card in ("SB", "HR"):
        return "small joker" if card == "SB" else "big joker"
    return f"{'10' if card[1] == 'T' else card[1]}{SUIT_SYMBOLS[card[0]]}"


def test_guandan_tribute_and_return_are_drawn_in_the_replay(page: Page, arena_url: str):
    reply = httpx.post(f"{arena_url}/api/tables", json={"game": "guandan", "rules": {"rounds": 2}, "seed": TRIBUTE_SEED,
                                                        "seats": ["rules"] * 4, "bot_delay": 0})
    assert reply.status_code == 201, reply.text
    record = finished_record(arena_url, reply.json()["table_id"])
    gifts = [(step, seat, action) for step, (seat, action) in enumerate(record["actions"], start=1)
             if action[0] in ("tribute", "back")]
    assert [action[0] for _, _, action in gifts] == ["tribute", "tribute", "back", "back"]
    state = GuanDan().opening_state(record)  # who received each gift: the engine's announcement
    for seat, action in record["actions"][:gifts[-1][0]]:
        state.apply(state.action_from_json(action), seat=seat)
    public = state.observation(0).to_json()
    order = public["previous_order"]
    page.goto(f"{arena_url}/#/replay/{record['id']}")
    page.get_by_test_id("replay-view").wait_for()
    panel = page.get_by_test_id("tribute-panel")
    name = {seat: f"Seat {seat} · rules" for seat in range(4)}
    first_gift = gifts[0][0]
    page.get_by_test_id("replay-move").nth(first_gift - 2).click()  # the round's last play: round two is dealt
    expect(panel.get_by_test_id("finish")).to_contain_text(
        [f"{name[seat]} {place}" for seat, place in zip(order, ("1st", "2nd", "3rd", "4th"), strict=True)])
    expect(panel).to_contain_text("Double down")
    rows = panel.get_by_test_id("gift")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-state", "choosing")
    page.get_by_test_id("replay-next").click()  # one tribute chosen: sealed, its card shown to nobody
    expect(rows.first).to_have_attribute("data-state", "sealed")
    expect(rows.first).to_have_attribute("data-card", "")
    expect(rows.first).to_contain_text("sealed")
    expect(rows.nth(1)).to_have_attribute("data-state", "choosing")
    expect(panel).not_to_contain_text("your turn")  # the seat drawn at the bottom of a replay is nobody's own
    assert rows.first.locator(".card.back").count() == 1
    page.get_by_test_id("replay-next").click()  # the second: both change hands, and the returns are awaited
    expect(rows).to_have_count(4)
    screenshot(page, "guandan-tribute")
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-next").click()  # both returned: the round's first play is next
    assert page.get_by_test_id("replay-step").text_content().startswith(f"Step {gifts[-1][0]} of ")
    for kind in ("tribute", "back"):
        shown = panel.locator(f"[data-testid=gift][data-kind={kind}]")
        expect(shown).to_have_count(2)
        for row, (giver, receiver, card) in zip(shown.all(), public[kind], strict=True):
            assert (row.get_attribute("data-giver"), row.get_attribute("data-receiver"),
                    row.get_attribute("data-card"), row.get_attribute("data-state")) == (
                str(giver), str(receiver), card, "given")
            expect(row.locator(".gift-kind")).to_have_text({"tribute": "Tribute", "back": "Return"}[kind])
            expect(row.locator(".gift-giver")).to_have_text(name[giver])
            expect(row.locator(".gift-receiver")).to_have_text(name[receiver])
            expect(row.get_by_test_id("gift-card")).to_have_text(guandan_card_text(card))
        assert sorted((seat, action[2][0]) for _, seat, action in gifts if action[0] == kind) == sorted(
            (giver, card) for giver, _, card in public[kind])  # the cards the stored record's gifts gave
    screenshot(page, "guandan-tribute-returned")
    page.get_by_test_id("replay-next").click()  # the first play clears the step away
    expect(panel).to_have_count(0)
    # An anti-tribute (two payers holding a big joker each) names them, and nobody pays.
    anti = page.evaluate("async (view) => { const {guandan} = await import('/static/js/games/guandan.js');"
                         " const panel = guandan.centrePanel(view, 'play', {me: 0, seatName: (s) => `Seat ${s}`,"
                         " toAct: 1, mine: []}); return [panel.querySelector('[data-testid=anti-tribute]').textContent,"
                         " panel.querySelectorAll('[data-testid=gift]').length]; }",
                         {"previous_order": [1, 3, 0, 2], "anti_tribute": [2, 0], "tribute": [], "back": [],
                          "history": [], "round": 1})
    assert anti == ["Seat 2 and Seat 0 hold both big jokers: no tribute is paid.", 0]


SEALED_SEED = 2
"""Seats 0 and 2 passing whenever they can against two "rules" bots, dealt from this seed: the bots finish round
one 1st and 2nd (seat 3, then seat 1), so that seat 0 pays the first of two tributes and seat 2 the second."""


def play_round_one(arena_url: str, table_id: str, token: str) -> dict:
    """Play a seat of a GuanDan table through round one (pass when legal, else the first legal action) over its
    websocket, then leave; the first update of round two."""
    with connect(f"ws{arena_url.removeprefix('http')}/ws/tables/{table_id}?token={token}", max_size=None) as socket:
        while True:
            message = json.loads(socket.recv(timeout=STEP_MS / 1000))
            if message["type"] == "update" and message["deal"] == 1:
                return message
            if message["type"] == "act":
                legal = message["legal"]
                socket.send(json.dumps({"action": next((action for action in legal if action[0] == "PASS"), legal[0])}))


def open_seat(page: Page, arena_url: str, table_id: str, seat: int, token: str) -> None:
    """Sit the page at ``seat`` of table ``table_id`` with the seat's token, as the lobby does."""
    page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"paiju.token.{table_id}.{seat}", token])
    page.goto(f"{arena_url}/#/table/{table_id}/{seat}")
    expect(page.get_by_test_id("connection")).to_have_text("connected")


def test_a_sealed_tribute_names_its_receiver_and_stays_with_its_giver_after_a_reload(browser: Browser, arena_url: str):
    table = httpx.post(f"{arena_url}/api/tables", json={
        "game": "guandan", "seats": ["human", "rules", "human", "rules"], "rules": {"rounds": 2}, "seed": SEALED_SEED,
        "bot_delay": 0}).json()
    table_id, tokens = table["table_id"], {seat["seat"]: seat.get("token") for seat in table["seats"]}
    with ThreadPoolExecutor(2) as pool:
        updates = list(pool.map(lambda seat: play_round_one(arena_url, table_id, tokens[seat]), (0, 2)))
    assert [(update["phase"], update["to_act"], update["obs"]["previous_order"]) for update in updates] == [
        ("tribute", 0, [3, 1, 2, 0])] * 2
    receivers = "Seat 3 · rules or Seat 1 · rules (the higher of the two tributes goes to Seat 3 · rules)"
    with lobby_page(browser, arena_url) as giver, lobby_page(browser, arena_url) as other:
        open_seat(giver, arena_url, table_id, 0, tokens[0])
        expect(giver.get_by_test_id("prompt")).to_have_text(
            f"Give a tribute card to {receivers}: select your highest card that is not wild, then Play.")
        gift = giver.locator("[data-testid=hand] .card-hand:not(.dim)").first  # the tributes the rules allow
        card = gift.get_attribute("data-card")
        gift.click()
        giver.get_by_test_id("play").click()
        mine = giver.locator("[data-testid=gift][data-giver='0']")
        expect(mine).to_have_attribute("data-state", "sealed")
        expect(mine).to_have_attribute("data-card", card)
        giver.reload()  # seat 2 has not paid yet: the gift is still sealed, and still the giver's to see
        expect(giver.get_by_test_id("connection")).to_have_text("connected")
        expect(mine).to_have_attribute("data-state", "sealed")
        expect(mine).to_have_attribute("data-card", card)
        expect(mine).to_contain_text("sealed: only you see it")
        screenshot(giver, "guandan-sealed-tribute")
        open_seat(other, arena_url, table_id, 2, tokens[2])  # the other payer sees a card face down
        expect(other.get_by_test_id("prompt")).to_contain_text(f"Give a tribute card to {receivers}")
        sealed = other.locator("[data-testid=gift][data-giver='0']")
        expect(sealed).to_have_attribute("data-state", "sealed")
        expect(sealed).to_have_attribute("data-card", "")
        expect(sealed.get_by_test_id("gift-card")).to_have_count(0)
        # One payer pays the 1st alone; a return names the seat that paid its receiver.
        prompts = giver.evaluate(
            "async () => { const {guandan} = await import('/static/js/games/guandan.js');"
            " const seatName = (seat) => `Seat ${seat}`;"
            " return [guandan.prompt('tribute', {previous_order: [1, 0, 3, 2]}, {me: 2, seatName}),"
            " guandan.prompt('back', {tribute: [[0, 3, 'SA'], [2, 1, 'HK']]}, {me: 1, seatName})]; }")
        assert prompts == ["Give a tribute card to Seat 1: select your highest card that is not wild, then Play.",
                           "Return a card (10 or lower) to Seat 2, who paid you tribute, then Play."]


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


WATCH_END_MS = 60_000
"""Milliseconds a watched Gongzhu game of bots (52 moves, 0.3 s each) has to end."""


def frames_shown(page: Page) -> int:
    """The frames the viewer holds, from its "Step N of M" label."""
    return int(re.search(r"of (\d+)", page.get_by_test_id("replay-step").text_content()).group(1)) + 1


def wait_for_more_frames(page: Page, than: int) -> None:
    page.wait_for_function("(n) => Number(/of (\\d+)/.exec(document.querySelector('[data-testid=replay-step]')"
                           "?.textContent)?.[1]) + 1 > n", arg=than)


def seat_to_act(page: Page) -> tuple[int, int]:
    """The step the viewer shows (its newest) and the one seat marked to act there, read together."""
    step, seats, turns = page.evaluate(
        "() => [document.querySelector('[data-testid=replay-step]').textContent,"
        " [...document.querySelectorAll('[data-testid=seat].acting')].map((node) => Number(node.dataset.seat)),"
        " [...document.querySelectorAll('[data-testid=turn]')].map((node) => node.textContent)]")
    shown, newest = map(int, re.fullmatch(r"Step (\d+) of (\d+)", step).groups())
    assert shown == newest and len(seats) == 1 and turns == ["thinking…"], (step, seats, turns)
    return shown, seats[0]


def test_a_table_of_bots_is_watched_live_with_every_hand_then_its_result(page: Page, arena_url: str):
    page.get_by_test_id("game-select").select_option("gongzhu")
    expect(page.get_by_test_id("seat-1")).to_have_value("mr-if")  # no table bot listed: the quick rule bot
    for seat in range(4):
        page.get_by_test_id(f"seat-{seat}").select_option("random")
    expect(page.get_by_test_id("create-table")).to_have_text("Create the table and watch")
    page.get_by_test_id("bot-delay").fill("0.3")
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("replay-view").wait_for()  # a table of bots alone opens in the live viewer
    expect(page).to_have_url(re.compile(r"#/watch/t-"))
    table_id = unquote(page.url.split("#/watch/")[1])
    page.locator("[data-testid=replay-view] .back").click()
    watch = page.locator("[data-testid=table]", has_text=table_id).get_by_test_id("watch-table")
    watch.click()  # the lobby offers it to anyone
    badge = page.get_by_test_id("live-badge")
    expect(badge).to_have_text("Live")
    expect(page.get_by_test_id("shown-hand")).to_have_count(4)  # every hand face up, as in a replay
    step = page.get_by_test_id("replay-step")
    wait_for_more_frames(page, 1)
    following = re.compile(r"^Step (\d+) of \1$")
    expect(step).to_have_text(following)  # the newest move is shown
    shown = frames_shown(page)
    wait_for_more_frames(page, shown)  # the board advances by itself, following the newest move
    expect(step).to_have_text(following)
    assert frames_shown(page) > shown
    acting = seat_to_act(page)  # the seat thinking now is marked, as at a live table
    screenshot(page, "gongzhu-watch")
    page.get_by_test_id("replay-start").click()  # stepping back stops the view following the newest move
    wait_for_more_frames(page, frames_shown(page))
    assert step.text_content().startswith("Step 0 of ")
    deal = page.get_by_test_id("board").inner_html()
    page.get_by_test_id("replay-seat").select_option("3")  # any seat at the bottom
    assert page.get_by_test_id("board").inner_html() != deal
    page.get_by_test_id("replay-end").click()  # back at the newest move: following again
    expect(badge).to_have_text("Finished", timeout=WATCH_END_MS)
    page.get_by_test_id("result").wait_for()
    expect(page).to_have_url(re.compile(r"#/replay/"))
    record_id = unquote(page.url.split("#/replay/")[1])
    record = httpx.get(f"{arena_url}/api/records/{record_id}").json()
    assert frames_shown(page) == len(record["actions"]) + 1
    assert record["actions"][acting[0]][0] == acting[1]  # the seat marked made the next move
    assert step.text_content() == f"Step {len(record['actions'])} of {len(record['actions'])}"
    assert shown_payoffs(page) == record["result"]["payoffs"]
    screenshot(page, "gongzhu-watch-result")
