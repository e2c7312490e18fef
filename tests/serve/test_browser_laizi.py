"""癞子 (wild-card) DouDizhu in a real browser (Debian's chromium, driven by Playwright, as in ``test_browser``).

A 癞子 table is made from the lobby and played to its end by clicking against two ``rules`` bots: the wild rank's
badge, the wild cards marked in the hand, a selection of two readings offered in a chooser (the trio of fours with
the wild 8, or the soft bomb of fours) and the chosen one the play the server recorded, drawn on the table with what
its wild card stands for; then its replay. The page's reading of a play is checked against the engine's over many
positions.
"""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect
from tests.serve import test_browser
from tests.serve.test_browser import play_to_the_end, screenshot, shown_payoffs, stored_record, wait_for_turn_or_result

from paiju.games.doudizhu import DouDizhu, DouDizhuRules

browser = test_browser.browser
"""Debian's chromium, once for the module (skipped when missing, as in ``test_browser``)."""
arena_settings = test_browser.arena_settings
page = test_browser.page

SEED = 2
"""Research mode: you lead with 344455678899TTJKKABR and 8 is wild, so 4 4 4 8 reads two ways."""
TRIO, SOFT_BOMB = "4448", "4448=4444"
BOT_DELAY = 1
"""Seconds each bot waits: your play stays on the table at least twice as long, until your next turn."""


def test_a_laizi_game_played_by_clicking_with_a_chooser_of_readings(page: Page, arena_url: str):
    page.get_by_test_id("game-select").select_option("doudizhu")
    page.get_by_test_id("variant").select_option("laizi")
    seat = page.get_by_test_id("seat-1")
    expect(seat).to_have_value("rules")  # a 癞子 table starts with the quick rule bot
    assert seat.locator("option[value=deeprocket]").count() == 0  # an agent that cannot play 癞子 is not offered
    expect(page.get_by_test_id("rule-laizi")).to_have_count(0)  # the variant's own option is not a field
    expect(page.get_by_test_id("rule-wild_ranks")).to_have_value("1")
    page.get_by_test_id("rule-mode").select_option("research")
    page.get_by_test_id("seed").fill(str(SEED))
    page.get_by_test_id("bot-delay").fill(str(BOT_DELAY))  # time to see a play before the next
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("table-view").wait_for()
    assert wait_for_turn_or_result(page)
    expect(page.get_by_test_id("wild-badge")).to_have_text("Wild: 8")
    hand = page.get_by_test_id("hand")
    expect(hand.locator(".card.wild")).to_have_count(2)
    assert hand.locator(".card.wild").evaluate_all("nodes => nodes.map((node) => node.dataset.card)") == ["8", "8"]
    page.get_by_test_id("counter-toggle").click()
    expect(page.get_by_test_id("counter")).to_contain_text("8 ★")
    for card, copy in (("4", 0), ("4", 1), ("4", 2), ("8", 0)):
        hand.locator(f"[data-card='{card}']").nth(copy).click()
    page.get_by_test_id("play").click()
    choices = page.get_by_test_id("choice")
    expect(choices).to_have_text(["trio of 4 + 8", "soft bomb of 4 (8 as 4)"])
    assert choices.evaluate_all("nodes => nodes.map((node) => node.dataset.action)") == [TRIO, SOFT_BOMB]
    expect(page.get_by_test_id("message")).to_have_text("These cards can be played in several ways: choose one.")
    screenshot(page, "doudizhu-laizi-chooser")
    choices.nth(1).click()
    expect(page.locator("[data-testid=log] li", has_text="You: ")).to_have_text(["You: 4 4 4 8 (8→4)"])
    mine = page.locator("[data-testid=seat][data-seat='0'] [data-testid=last-play]")
    expect(mine.get_by_test_id("stands-for")).to_have_text("8→4")
    expect(hand.locator(".card.wild")).to_have_count(1)
    expect(page.get_by_test_id("info-multiplier")).to_have_text("×2")  # a soft bomb doubles
    screenshot(page, "doudizhu-laizi-table")
    play_to_the_end(page)
    page.get_by_test_id("result").wait_for()
    record = stored_record(page, arena_url)
    assert record["rules"]["laizi"] is True and record["deals"][0]["wild"] == "8"
    assert record["actions"][0] == [0, SOFT_BOMB]  # the reading chosen is the play recorded
    assert shown_payoffs(page) == record["result"]["payoffs"]
    page.get_by_test_id("replay-link").click()
    page.get_by_test_id("replay-view").wait_for()
    expect(page.get_by_test_id("replay-action")).to_have_text("The deal")  # the replay has loaded its frames
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-action")).to_contain_text(": 4 4 4 8 (8→4)")
    expect(page.get_by_test_id("board").get_by_test_id("stands-for")).to_have_text("8→4")
    page.get_by_test_id("replay-end").click()
    page.get_by_test_id("result").wait_for()
    page.get_by_test_id("lobby-link").click()
    expect(page.get_by_test_id("record").first).to_contain_text("Dou Dizhu · 癞子 / wild card")


def positions(games: int) -> list[dict]:
    """Every decision of ``games`` 癞子 games of random play (one and two wild ranks, the kicker options), with its
    legal plays and the engine's reading of each: ``[notation, category, rank, length, tier]``."""
    chooser = random.Random(7)
    cases = []
    for seed in range(games):
        rules = DouDizhuRules(laizi=True, wild_ranks=1 + seed % 2, bomb_as_kickers=seed % 3 == 1,
                              rocket_as_kickers=seed % 4 == 1)
        state = DouDizhu().new_state(seed, rules)
        while not state.is_terminal():
            legal = state.legal_actions()
            view = state.observation_json(state.current_player)
            cases.append({"rules": rules.to_json(), "view": {"history": view["history"], "wild": view["wild"]},
                          "legal": [[move.notation, int(move.category), move.rank, move.length, move.tier]
                                    for move in legal if not move.is_pass]})
            substituted = [move for move in legal if move.stands_for]
            state.apply(chooser.choice(substituted if substituted and chooser.random() < 0.5 else legal))
    return cases


def test_the_page_reads_laizi_plays_as_the_engine_does(page: Page):
    cases = positions(12)
    wrong = page.evaluate(
        "async (cases) => { const plays = await import('/static/js/games/doudizhu_plays.js'); const wrong = [];"
        " for (const c of cases) { const wild = plays.wildRanks(c.view);"
        "  const follow = plays.readingToBeat(c.view.history, wild, c.rules);"
        "  for (const [notation, ...expected] of c.legal) { const r = plays.readingOf(notation, follow, wild, c.rules);"
        "   const got = r && [r.category, r.rank, r.length, r.tier];"
        "   if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push([notation, expected, got]); } }"
        " return wrong; }", cases)
    assert sum(len(case["legal"]) for case in cases) > 10_000 and wrong == []
    words = page.evaluate(
        "async (plays) => { const {doudizhu} = await import('/static/js/games/doudizhu.js');"
        " return plays.map(([action, view]) => doudizhu.readingLabel(action, view)); }",
        [["4448", {"wild": "8", "history": []}], ["4448=4444", {"wild": "8", "history": []}],
         ["8888", {"wild": "8", "history": []}], ["333444", {"wild": "8", "history": []}],
         ["34568=34567", {"wild": "8", "history": []}], ["3888=3333", {"wild": "8", "history": []}],
         ["58=55", {"wild": "8", "history": [[1, "44"]]}], ["3338889T=3334449T", {"wild": "8", "history": []}],
         ["6666KK22", {"wild": "8", "history": []}], ["BR", {"wild": "8", "history": []}]])
    assert words == ["trio of 4 + 8", "soft bomb of 4 (8 as 4)", "wild bomb of 8", "plane 3–4",
                     "solo chain 3–7 (8 as 7)", "soft bomb of 3 (8 as 3 ×3)", "pair of 5 (8 as 5)",
                     "plane 3–4 + 9 10 (8 as 4 ×3)", "four of 6 + pairs of K 2", "rocket"]
