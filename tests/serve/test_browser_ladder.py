"""The bot ladder's pages in a real browser (Debian's chromium, driven by Playwright, as in ``test_browser``).

One arena serves the whole module: a bot registered through the ladder page's form plays two Gongzhu games
against the house bot ``random`` with the key the page showed (``paiju connect --ladder``'s ``run_ladder_bot``);
then the ladder page lists it among the house bots, and its page plots its rating, lists its games with their
replays and its results against each opponent. Refused registrations show the server's reason; both pages fit
a phone's screen.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import unquote

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from tests.serve import test_browser
from tests.serve.conftest import LOOSE_CLIENT_LIMITS, running_arena
from tests.serve.test_browser import PHONE, STEP_MS, screenshot

from paiju.agents.bridge import run_ladder_bot
from paiju.serve.settings import ServeSettings

GAME = "gongzhu"
ADMIN = "admin-token-for-tests"
KEY = re.compile(r"pk-[A-Za-z0-9_-]{43}")

browser = test_browser.browser
"""Debian's chromium, once for the module (skipped when missing, as in ``test_browser``)."""


@pytest.fixture(scope="module")
def arena_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real front end; a lone ladder bot is seated with the house bot ``random`` after 0.1 s."""
    settings = ServeSettings(db_path=tmp_path_factory.mktemp("ladder") / "arena.sqlite3", move_timeout=60.0,
                             ladder_fill_after=0.1, ladder_house=("random",), registrations_per_hour=100,
                             admin_token=ADMIN, **LOOSE_CLIENT_LIMITS)
    with running_arena(settings) as url:
        yield url


@contextmanager
def opened(browser: Browser, url: str, viewport: dict[str, int] | None = None) -> Iterator[Page]:
    """A page at ``url`` in a browser context of its own; any script error on it fails the test."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(STEP_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


def register_through_form(page: Page, name: str, game: str = GAME) -> None:
    """Fill in and send the ladder page's registration form."""
    page.get_by_test_id("bot-name").fill(name)
    page.get_by_test_id("bot-owner").fill("owner@example.org")
    page.get_by_test_id("bot-game").select_option(game)
    page.get_by_test_id("register").click()


def shown_key(page: Page) -> str:
    page.get_by_test_id("key-box").wait_for()
    return page.get_by_test_id("bot-key").text_content()


@pytest.fixture(scope="module")
def walnut_games(browser: Browser, arena_url: str) -> list[str]:
    """The record ids, oldest first, of two ladder games of bot Walnut, registered through the form and played with
    the key the page showed."""
    with opened(browser, f"{arena_url}/ladder") as page:
        register_through_form(page, "Walnut")
        key = shown_key(page)
    ladder = f"ws{arena_url.removeprefix('http')}/ws/ladder"
    with ThreadPoolExecutor(1) as worker:  # its own event loop, away from Playwright's
        run = worker.submit(asyncio.run, run_ladder_bot(ladder, key, "random", games=2)).result(timeout=60)
    assert run.bot == "Walnut" and len(run.games) == 2
    return [game.record_id for game in run.games]


def two_places(value: float) -> str:
    """``value`` as the pages write it: rounded to two decimals, no trailing ``.0``."""
    return repr(math.floor(value * 100 + 0.5) / 100).removesuffix(".0")


def rounded(row: dict, *keys: str) -> list[str]:
    return [two_places(row[key]) for key in keys]


def cells(page: Page, row_selector: str) -> list[str]:
    return [text.strip() for text in page.locator(f"{row_selector} td").all_text_contents()]


def test_a_bot_registered_through_the_form_is_shown_its_key_once(browser: Browser, arena_url: str):
    with opened(browser, f"{arena_url}/ladder") as page:
        port = arena_url.rsplit(":", 1)[1]
        expect(page.get_by_test_id("connect-command")).to_have_text(
            f"paiju connect --ladder ws://127.0.0.1:{port}/ws/ladder --key KEY --agent AGENT")
        expect(page.get_by_test_id("key-box")).to_be_hidden()
        register_through_form(page, "Hazel", "doudizhu")
        key = shown_key(page)
        assert KEY.fullmatch(key), key
        box = page.get_by_test_id("key-box")
        expect(box).to_contain_text("Store it now: it is not shown again")
        expect(box).to_contain_text("Bot Hazel is registered")
        expect(page.get_by_test_id("new-bot-link")).to_have_attribute("href", "/ladder/bots/Hazel")
        expect(page.get_by_test_id("new-bot-command")).to_have_text(
            f"paiju connect --ladder ws://127.0.0.1:{port}/ws/ladder --key {key} --agent AGENT")
        expect(page.get_by_test_id("register-error")).to_have_text("")
        screenshot(page, "ladder-registered")
    # the key shown opens this bot (rotating it is the one HTTP call that takes a key)
    reply = httpx.post(f"{arena_url}/api/bots/key", headers={"Authorization": f"Bearer {key}"})
    assert reply.status_code == 200
    assert reply.json()["bot"]["name"] == "Hazel" and reply.json()["bot"]["game"] == "doudizhu"


def test_a_refused_registration_shows_the_server_reason_and_no_key(browser: Browser, arena_url: str):
    with opened(browser, f"{arena_url}/ladder") as page:
        register_through_form(page, "Birch")
        shown_key(page)
        register_through_form(page, "birch")  # names are unique regardless of case: 409
        error = page.get_by_test_id("register-error")
        expect(error).to_have_text("Not registered: bot name 'birch' is taken")
        expect(page.get_by_test_id("key-box")).to_be_hidden()
        register_through_form(page, "house-fox")  # impersonates the arena's own bots: 400
        expect(error).to_have_text(re.compile(r"^Not registered: bot name 'house-fox' is reserved: it names, or could "
                                              r"be taken for, one of the arena's own bots"))
        expect(page.get_by_test_id("key-box")).to_be_hidden()
        register_through_form(page, "Rowan")
        shown_key(page)
        expect(error).to_have_text("")


def test_the_ladder_lists_the_bot_its_games_and_the_house_bots(browser: Browser, arena_url: str,
                                                               walnut_games: list[str]):
    standings = httpx.get(f"{arena_url}/api/ladder").json()["games"][GAME]["standings"]
    row = next(row for row in standings if row["name"] == "Walnut")
    with opened(browser, f"{arena_url}/leaderboard") as page:
        page.get_by_test_id("ladder-link").click()
        game = page.locator(f"[data-testid=ladder-game][data-game={GAME}]")
        expect(game.locator("h2")).to_have_text("Gongzhu")
        expect(game.get_by_test_id("queue")).to_have_text("Waiting in the queue: 0 · playing: 0")
        expect(game.get_by_test_id("house-bots")).to_have_text("House bots: random")
        expect(game.get_by_test_id("standing")).to_have_count(2)
        rank = 1 + [entry["name"] for entry in standings].index("Walnut")
        assert cells(page, f"[data-game={GAME}] [data-testid=standing][data-name=Walnut]") == [
            str(rank), "Walnut", *rounded(row, "rating", "mu", "sigma"), "2", str(row["wins"]),
            *rounded(row, "mean_payoff"), "active"]
        house = game.locator("[data-testid=standing][data-name=random]")
        expect(house).to_have_class("house")
        expect(house.locator(".house-tag")).to_have_text("house")
        expect(house.locator("a")).to_have_count(0)  # a house bot has no page
        assert cells(page, f"[data-game={GAME}] [data-testid=standing][data-name=random]")[5] == "2"  # once a game
        expect(game.locator("[data-name=Walnut] .house-tag")).to_have_count(0)
        expect(page.locator("[data-game=doudizhu]")).to_contain_text("No rated game yet.")
        screenshot(page, "ladder")
        page.get_by_role("link", name="Walnut").click()
        expect(page.get_by_test_id("bot-title")).to_have_text("Walnut")
        assert page.url == f"{arena_url}/ladder/bots/Walnut"


def plotted(page: Page) -> list[float]:
    """The rating each point of the plot stands for, read off the y axis's labels; the points go left to right."""
    plot = page.get_by_test_id("rating-plot")
    grid = plot.locator(".plot-grid").evaluate_all(
        "groups => groups.map((group) => [Number(group.querySelector('text').textContent),"
        " Number(group.querySelector('line').getAttribute('y1'))])")
    assert len(grid) >= 3, "the y axis has labels"
    (top, top_y), (bottom, bottom_y) = grid[-1], grid[0]
    points = plot.get_by_test_id("rating-point").evaluate_all(
        "points => points.map((point) => [Number(point.getAttribute('cx')), Number(point.getAttribute('cy'))])")
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    return [bottom + (y - bottom_y) * (top - bottom) / (top_y - bottom_y) for _, y in points]


def test_the_bot_page_plots_the_rating_and_lists_games_replays_and_opponents(browser: Browser, arena_url: str,
                                                                             walnut_games: list[str]):
    data = httpx.get(f"{arena_url}/api/ladder/bots/Walnut").json()
    with opened(browser, f"{arena_url}/ladder/bots/walnut") as page:  # any case finds the bot
        expect(page.get_by_test_id("bot-title")).to_have_text("Walnut")
        expect(page.get_by_test_id("bot-status")).to_have_text("active")
        expect(page.get_by_test_id("status-text")).to_have_text("Active: it may queue and play.")
        rating = data["rating"]
        assert cells(page, "[data-testid=rating] tbody tr") == [
            *rounded(rating, "rating", "mu", "sigma"), "2", str(rating["wins"]), *rounded(rating, "mean_payoff")]
        points = page.locator("[data-testid=rating-plot] [data-testid=rating-point]")
        expect(points).to_have_count(2)
        for index, point in enumerate(data["history"]):
            expect(points.nth(index).locator("title")).to_contain_text(
                re.compile(rf"^game {index + 1}, .*: rating {re.escape(two_places(point['rating']))} \(μ "))
        drawn = plotted(page)
        assert drawn == pytest.approx([point["rating"] for point in data["history"]], abs=0.01)
        expect(page.locator("[data-testid=rating-plot] .plot-line.rating")).to_have_count(1)

        games = page.get_by_test_id("game")
        expect(games).to_have_count(2)
        newest_first = walnut_games[::-1]
        assert [games.nth(index).get_attribute("data-record") for index in range(2)] == newest_first
        for index, game in enumerate(data["games"]):
            shown = cells(page, f"[data-testid=game][data-record='{game['record_id']}']")
            assert shown[1] == ("+" if game["payoff"] > 0 else "") + two_places(game["payoff"]), shown
            assert shown[3] == str(game["seat"]) and shown[4] == " · ".join(game["seats"]), shown
            expect(games.nth(index).locator("strong")).to_have_text("Walnut")  # its own seat stands out

        opponents = page.get_by_test_id("opponent")
        expect(opponents).to_have_count(1)
        [opponent] = data["opponents"]
        assert cells(page, "[data-testid=opponent]") == [
            "random house", "2", str(opponent["won"]), *rounded(opponent, "mean_payoff")]
        screenshot(page, "ladder-bot")

        replays = page.get_by_test_id("replay-link")
        expect(replays).to_have_count(2)
        assert unquote(replays.first.get_attribute("href")) == f"/#/replay/{newest_first[0]}"
        replays.first.click()
        page.get_by_test_id("replay-view").wait_for()
        expect(page.locator("h1")).to_have_text(f"Gongzhu replay · {newest_first[0]}")
        expect(page.get_by_test_id("board")).to_contain_text("Walnut")


def test_an_unknown_bot_page_says_there_is_no_such_bot(browser: Browser, arena_url: str):
    with opened(browser, f"{arena_url}/ladder/bots/Nobody") as page:
        expect(page.get_by_test_id("bot-error")).to_have_text("No such bot: no ladder bot is named “Nobody”.")
        expect(page.get_by_test_id("rating-plot")).to_have_count(0)


def test_a_paused_or_banned_bot_page_says_so_with_the_reason(browser: Browser, arena_url: str):
    assert httpx.post(f"{arena_url}/api/bots", json={"name": "Maple", "owner": "owner@example.org",
                                                     "game": GAME}).status_code == 201

    def admin(status: str, reason: str) -> None:
        reply = httpx.post(f"{arena_url}/api/admin/bots/Maple", json={"status": status, "reason": reason},
                           headers={"X-Admin-Token": ADMIN})
        assert reply.status_code == 200, reply.text

    admin("paused", "answers too slowly")
    with opened(browser, f"{arena_url}/ladder/bots/Maple") as page:
        expect(page.get_by_test_id("bot-status")).to_have_text("paused")
        expect(page.get_by_test_id("status-text")).to_have_text(
            "Paused until an admin resumes it: answers too slowly")
        expect(page.get_by_test_id("rating-plot")).to_have_count(0)  # no game yet
        expect(page.get_by_test_id("bot-page")).to_contain_text("No rated game yet")
        admin("banned", "cheated")
        page.reload()
        expect(page.get_by_test_id("bot-status")).to_have_text("banned")
        expect(page.get_by_test_id("status-text")).to_have_text("Banned: cheated")


def scroll_width(page: Page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def test_the_ladder_pages_fit_a_phone_screen(browser: Browser, arena_url: str, walnut_games: list[str]):
    with opened(browser, f"{arena_url}/ladder", PHONE) as page:
        expect(page.get_by_test_id("standing")).not_to_have_count(0)
        register_through_form(page, "Poplar")
        shown_key(page)  # the key and the command wrap
        assert scroll_width(page) <= PHONE["width"]
        screenshot(page, "ladder-phone")
    with opened(browser, f"{arena_url}/ladder/bots/Walnut", PHONE) as page:
        expect(page.get_by_test_id("rating-point")).to_have_count(2)
        plot = page.get_by_test_id("rating-plot").bounding_box()
        assert plot["x"] >= 0 and plot["x"] + plot["width"] <= PHONE["width"]
        assert scroll_width(page) <= PHONE["width"]
        screenshot(page, "ladder-bot-phone")


def test_the_lobby_links_to_the_ladder(browser: Browser, arena_url: str):
    with opened(browser, f"{arena_url}/") as page:
        page.get_by_test_id("ladder-link").click()
        page.wait_for_url(f"{arena_url}/ladder")
        expect(page.get_by_test_id("bot-name")).to_be_visible()
