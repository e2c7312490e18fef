"""``GrowingEntries``: the JSON entries of a list that only grows, each built once (``State.observation_json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core.game import JSON


class GrowingEntries:
    """The JSON form of each item of ``source``, a list that only grows (a round's history), built once per item as an
    immutable value (tuples for arrays) and shared by every answer: ``entries`` gives a new list of the same entry
    objects. A state keeps one per such list, and a new one (``following``) once the list is replaced: by a new
    round, or in a clone, whose lists are copies."""

    __slots__ = ("_entries", "_entry", "source")

    def __init__(self, source: list[Any], entry: Callable[[Any], JSON]) -> None:
        self.source = source
        self._entry = entry
        self._entries: list[JSON] = []

    def following(self, source: list[Any]) -> GrowingEntries:
        """This, or a new one for ``source`` if that is another list than this one's."""
        return self if source is self.source else GrowingEntries(source, self._entry)

    def entries(self) -> list[JSON]:
        """A new list of the entries of ``source`` as it is now."""
        self._entries.extend(map(self._entry, self.source[len(self._entries):]))
        return self._entries.copy()
