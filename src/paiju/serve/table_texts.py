"""The text of a table's observations, made cheaply move after move: each seat's observation
(``State.observation_json``) is encoded once per position, for its ``update``, its ``act`` and a reconnect alike, and
only in part.

Each seat keeps, for every list of arrays or objects in its observation (a history), the list it encoded last and the
text of its items; a new list whose first items are those very objects (``is``) reuses their text (their text joined
too, when the list only grew), so a history that grows by one play costs the encoding of one play. Identity, not
equality, is the test: an immutable entry (the tuples ``State.observation_json`` shares) always spells the same JSON,
whereas equal values may be spelled apart (``1``, ``1.0`` and ``true``; objects in another key order). The other
fields are encoded together (``protocol.encode``); the text is the same as ``protocol.encode`` makes of the
observation.
"""

from __future__ import annotations

from itertools import compress, count
from operator import is_not

from paiju.core.game import JSON, State
from paiju.serve.protocol import Encoded, Message, encode, encode_value


class ObservationEncoder:
    """One seat's successive observations as JSON text, reusing the text of each history's unchanged first items."""

    def __init__(self) -> None:
        self._lists: dict[str, tuple[list[JSON], list[str], str]] = {}
        """Key → the list of arrays or objects encoded last under it, the text of its items, and their text joined."""

    def encode(self, obs: Message) -> Encoded:
        """``obs`` (this seat's latest observation) as JSON text."""
        return Encoded(encode({key: self._list(key, value) if _of_containers(value) else value
                               for key, value in obs.items()}))

    def _list(self, key: str, items: list[JSON]) -> Encoded:
        last, texts, joined = self._lists.get(key, ([], [], ""))
        kept = next(compress(count(), map(is_not, last, items)), min(len(last), len(items)))
        added = [encode_value(item) for item in items[kept:]]
        if kept == len(texts):  # the list grew (or stayed): its joined text grows by the new items
            texts.extend(added)
            joined = ",".join((joined, *added)) if joined else ",".join(added)
        else:
            texts = texts[:kept] + added
            joined = ",".join(texts)
        self._lists[key] = (items, texts, joined)
        return Encoded("[" + joined + "]")


def _of_containers(value: JSON) -> bool:
    """Whether ``value`` is a list whose first item is an array (a list or a tuple) or an object."""
    return type(value) is list and bool(value) and type(value[0]) in (tuple, list, dict)


class TableTexts:
    """The observation texts of a table's current position: ``moved`` after every action forgets them, ``forget``
    once the game is over drops what the encoders keep too (an ended table stays in memory a while; a reconnect to it
    is encoded from scratch)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._encoders = [ObservationEncoder() for _ in range(state.num_players)]
        self._texts: dict[int, Encoded] = {}

    def moved(self) -> None:
        """The state changed: every seat's observation is to be encoded anew."""
        self._texts.clear()

    def forget(self) -> None:
        """Drop every text and what every seat's encoder keeps."""
        self._encoders = [ObservationEncoder() for _ in self._encoders]
        self._texts.clear()

    def observation(self, seat: int) -> Encoded:
        """``seat``'s observation of the current position, as JSON text."""
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = self._encoders[seat].encode(self.state.observation_json(seat))
        return text
