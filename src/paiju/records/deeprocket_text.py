"""DeepRocket's text record of a DouDizhu game (DeepRocket paper, appendix A, Tables 5 and 6).

A record has two parts::

    Cards: 4456777889JKKAA2B;335567899TTJJKAA2;4456689TTJQQQK22S;33Q;
    Game process: 0,33;1,55;2,66;0,77;1,AA;1,6;...

**Cards** lists the landlord's 17 dealt cards, the down peasant's, the up peasant's, then the 3 public
cards. **Game process** lists every play as ``role,cards;`` — role 0 the landlord, 1 the down peasant
(plays right after the landlord), 2 the up peasant. Passes are not written: play goes round in turn, so
a play by a role other than the next one means the roles in between passed.

The record writes the small joker ``S`` and the big joker ``B``; paiju writes them ``B`` and ``R``. The
letters are converted here, at the file boundary, and nowhere else.
"""

from __future__ import annotations

import re
from pathlib import Path

from paiju.core.errors import CardError, IllegalActionError, RecordError
from paiju.games.doudizhu.cards import FULL_DECK, MAX_COPIES, NUM_RANKS, contains, format_cards, pack
from paiju.games.doudizhu.moves import PASS
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.state import Deal, DouDizhuState

DEEPROCKET_RANKS = "3456789TJQKA2SB"
"""DeepRocket's letters, low to high (Table 5): ``S`` small joker, ``B`` big joker."""
_TO_PAIJU = str.maketrans("SB", "BR")
_FROM_PAIJU = str.maketrans("BR", "SB")
ROLES = ("landlord", "down peasant", "up peasant")
"""Role numbers of the game process: 0, 1, 2."""
_PARTS = ("landlord's", "down peasant's", "up peasant's", "public")
_SIZES = (17, 17, 17, 3)
_CARDS_LABEL = re.compile(r"^\s*cards\s*:", re.IGNORECASE)
_PROCESS_LABEL = re.compile(r"game\s*process\s*:", re.IGNORECASE)
FULL_MODE_BID = 3
"""The landlord's bid in a full-mode replay: the record holds no bidding, and DeepRocket's test match
(appendix C) scores every game on a base of 3."""


def deeprocket_counts(text: str) -> list[int]:
    """Counts per rank (paiju's order, ``3`` .. big joker) of cards in DeepRocket's letters (Table 5).

    Raises ``CardError`` on a letter that is not a DeepRocket card or on more copies than a deck holds.
    """
    counts = [0] * NUM_RANKS
    for letter in text:
        index = DEEPROCKET_RANKS.find(letter)
        if index < 0:
            raise CardError(f"unknown card {letter!r} in {text!r}; DeepRocket's cards are {DEEPROCKET_RANKS} "
                            "(S small joker, B big joker)")
        counts[index] += 1
        if counts[index] > MAX_COPIES[index]:
            raise CardError(f"too many {letter} in {text!r}: a deck has {MAX_COPIES[index]}")
    return counts


def paiju_to_deeprocket_cards(counts: tuple[int, ...] | list[int]) -> str:
    """DeepRocket's letters for a set of cards, sorted low to high (paiju ``B``/``R`` -> ``S``/``B``)."""
    return format_cards(counts).translate(_FROM_PAIJU)


def parse_deeprocket(cards_text: str, process_text: str, rules: DouDizhuRules | None = None) -> DouDizhuState:
    """Replay a DeepRocket record: the landlord sits at seat 0, the down peasant at 1, the up peasant at 2.

    Whitespace and line breaks anywhere in the texts are ignored (text extracted from a PDF breaks lines
    inside records). Implied passes are inserted. In research mode (the default) the landlord plays at
    once; in full mode seat 0 bids ``FULL_MODE_BID`` first. The record may stop before the end of the
    game. Raises ``RecordError`` naming the part of the cards, or the play (counted from 0) that is wrong.
    """
    rules = rules or DouDizhuRules()
    state = DouDizhuState(rules, _parse_deal(cards_text))
    if rules.mode == "full":
        state.apply(FULL_MODE_BID)
    for index, (role, cards) in enumerate(_parse_process(process_text)):
        _replay_play(state, index, role, cards)
    return state


def _parse_deal(cards_text: str) -> Deal:
    parts = _fields(cards_text)
    if len(parts) != len(_PARTS):
        raise RecordError(f"DeepRocket cards {cards_text.strip()!r}: expected 4 parts (landlord;down;up;public;), "
                          f"got {len(parts)}")
    hands = []
    for name, size, part in zip(_PARTS, _SIZES, parts, strict=True):
        try:
            counts = tuple(deeprocket_counts(part))
        except CardError as error:
            raise RecordError(f"DeepRocket cards, {name} part {part!r}: {error}") from None
        if sum(counts) != size:
            raise RecordError(f"DeepRocket cards, {name} part {part!r}: {sum(counts)} cards, expected {size}")
        hands.append(counts)
    deck = [sum(column) for column in zip(*hands, strict=True)]
    if tuple(deck) != FULL_DECK:
        extra = paiju_to_deeprocket_cards([max(0, n - full) for n, full in zip(deck, FULL_DECK, strict=True)])
        missing = paiju_to_deeprocket_cards([max(0, full - n) for n, full in zip(deck, FULL_DECK, strict=True)])
        raise RecordError(f"DeepRocket cards {''.join(cards_text.split())!r}: the four parts are not one 54-card "
                          f"deck (extra {extra or 'none'}, missing {missing or 'none'})")
    return Deal((hands[0], hands[1], hands[2]), hands[3], first_bidder=0)


def _parse_process(process_text: str) -> list[tuple[int, str]]:
    plays = []
    for index, entry in enumerate(_fields(process_text)):
        role_text, comma, cards = entry.partition(",")
        if not comma or role_text not in ("0", "1", "2") or not cards:
            raise RecordError(f"DeepRocket play {index} ({entry!r}): expected 'role,cards' with role 0, 1 or 2")
        plays.append((int(role_text), cards))
    return plays


def _fields(text: str) -> list[str]:
    """The ``;``-separated fields of a text with all whitespace removed; a final ``;`` is optional."""
    fields = "".join(text.split()).split(";")
    return fields[:-1] if fields[-1] == "" else fields


def _replay_play(state: DouDizhuState, index: int, role: int, cards: str) -> None:
    """Pass for the roles between the one to move and ``role``, then play ``cards`` for ``role``."""
    paiju_cards = cards.translate(_TO_PAIJU)
    where = f"DeepRocket play {index} ({role},{cards}" + (f" = paiju {paiju_cards})" if paiju_cards != cards else ")")
    if state.is_terminal():
        raise RecordError(f"{where}: the game is already over (seat {state.winner} has no cards left)")
    assert state.landlord is not None
    seat = (state.landlord + role) % 3
    while state.current_player != seat:
        if state.follow is None:
            leader = (state.current_player - state.landlord) % 3
            raise RecordError(f"{where}: the {ROLES[role]} cannot play here: the {ROLES[leader]} "
                              f"(role {leader}) leads and may not pass")
        state.apply(PASS)
    try:
        counts = deeprocket_counts(cards)
        if not contains(pack(state.hands[seat]), pack(counts)):
            raise IllegalActionError(f"the {ROLES[role]} does not hold {cards} "
                                     f"(holds {paiju_to_deeprocket_cards(state.hands[seat])})")
        state.apply(state.action_from_json(format_cards(counts)), seat=seat)
    except (CardError, IllegalActionError) as error:
        raise RecordError(f"{where}: {error}") from None


def to_deeprocket(state: DouDizhuState) -> tuple[str, str]:
    """The (cards, game process) texts of ``state``'s current deal, roles counted from its landlord.

    For a research-mode state with the landlord at seat 0 whose last action is a play (every finished
    game), ``parse_deeprocket`` gives back the same deal and actions; seeds, bids and trailing passes are
    not part of the format.
    """
    landlord = state.landlord
    if landlord is None:
        raise RecordError("a DeepRocket record needs a landlord; this game is still bidding")
    deal = state.deals[-1]
    seats = [(landlord + role) % 3 for role in range(3)]
    parts = [paiju_to_deeprocket_cards(deal.hands[seat]) for seat in seats]
    parts.append(paiju_to_deeprocket_cards(deal.public))
    plays = [f"{(seat - landlord) % 3},{paiju_to_deeprocket_cards(move.counts)};"
             for seat, move in state.history if not move.is_pass]
    return "".join(f"{part};" for part in parts), "".join(plays)


def load_deeprocket_file(path: str | Path, rules: DouDizhuRules | None = None) -> DouDizhuState:
    """Replay a DeepRocket text file: the cards, then the game process, each optionally labelled
    (``Cards:`` / ``Game process:``). Without labels the first non-blank line holds the cards.

    Raises ``RecordError`` naming the file and the problem.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: cannot read the DeepRocket record: {error}") from None
    label = _PROCESS_LABEL.search(text)
    if label is not None:
        cards_text, process_text = text[:label.start()], text[label.end():]
    else:
        cards_text, _, process_text = text.strip().partition("\n")
    try:
        return parse_deeprocket(_CARDS_LABEL.sub("", cards_text), process_text, rules)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
