"""A size-bounded transposition table: what a search learned about positions, by position key.

The table is a fixed array of N slots (N a power of two chosen by the caller); a key lives in slot
``hash(key) & (N - 1)``, so memory never grows beyond N entries whatever the search does. When two
keys want the same slot, the *replacement policy* decides which one stays — depth-preferred with
aging, as chess engines do. A new entry replaces the stored one if

* the slot is empty, or
* it is the same key (newer information about the same position), or
* it was searched at least as deep as the stored entry (deeper results cost more to recompute), or
* the stored entry comes from an older search generation (:meth:`TranspositionTable.new_search`),
  so entries of finished searches do not block the current one forever.

Otherwise the store is rejected and the deeper entry of the current search stays.

Which keys share a slot follows Python's ``hash``, and that can change from one process to the next:
strings' hashes with ``PYTHONHASHSEED``, and ``None``'s (CPython 3.11: its address) even with it fixed.
A search whose keys collide may therefore count a few more or fewer nodes in another process (a
RolldownBeta search of 9,483 nodes in 2^18 slots counted 9,470 to 9,759); a table that kept every entry
(no ``overwrites`` and no ``rejected``) gives the same counts in every process.

Each entry records the value's :data:`EXACT`, :data:`LOWER` or :data:`UPPER` bound type, because an
alpha-beta search that cuts off only learns a bound: a LOWER entry says the true value is at least
``value`` (the search failed high), an UPPER entry at most ``value`` (it failed low).

Usage::

    >>> table = TranspositionTable(slots=1024)
    >>> table.new_search()
    >>> table.store("position", depth=3, value=0.75, bound=EXACT, move="d8xd4")
    True
    >>> entry = table.probe("position")
    >>> entry.value, entry.depth, BOUND_NAMES[entry.bound], entry.move
    (0.75, 3, 'exact', 'd8xd4')
    >>> table.probe("another position") is None
    True
    >>> table.stats().hits, table.stats().probes
    (1, 2)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple

EXACT = 0
"""The stored value is the node's value at the stored depth."""
LOWER = 1
"""The node's value is at least the stored value (the search failed high)."""
UPPER = 2
"""The node's value is at most the stored value (the search failed low)."""
BOUND_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}


class TTEntry(NamedTuple):
    """One stored result. A named tuple rather than a dataclass: the search creates one per stored
    node, and a tuple is the cheapest immutable record Python builds."""

    key: Hashable
    depth: int
    value: float
    bound: int
    move: Any
    generation: int


@dataclass(frozen=True, slots=True)
class TTStats:
    """A snapshot of the table's counters (they only grow, until :meth:`TranspositionTable.clear`)."""

    slots: int
    used: int
    generation: int
    probes: int
    hits: int
    stores: int
    overwrites: int
    rejected: int

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0


class TranspositionTable:
    """A fixed array of ``slots`` entries (a power of two) with depth-preferred, aging replacement.

    Counters: ``probes`` (lookups), ``hits`` (lookups that found an entry with the same key),
    ``stores`` (entries written), ``overwrites`` (stores that evicted another key's entry) and
    ``rejected`` (stores refused because the slot holds a deeper entry of the current search).
    """

    __slots__ = ("_entries", "_mask", "generation", "probes", "hits", "stores", "overwrites", "rejected")

    def __init__(self, slots: int = 2**20):
        if slots < 1 or slots & (slots - 1):
            raise ValueError(f"a transposition table needs a power of two of slots, not {slots}")
        self._entries: list[TTEntry | None] = [None] * slots
        self._mask = slots - 1
        self.generation = 0
        self.probes = self.hits = self.stores = self.overwrites = self.rejected = 0

    @property
    def slots(self) -> int:
        return self._mask + 1

    def new_search(self) -> None:
        """Start a new search generation: entries stored so far become replaceable by any store."""
        self.generation += 1

    def probe(self, key: Hashable) -> TTEntry | None:
        """The entry stored for ``key``, or None (counted as a probe, and as a hit if found)."""
        self.probes += 1
        entry = self._entries[hash(key) & self._mask]
        if entry is not None and entry[0] == key:
            self.hits += 1
            return entry
        return None

    def peek(self, key: Hashable) -> TTEntry | None:
        """Like :meth:`probe` but not counted: for reading results after a search (the PV)."""
        entry = self._entries[hash(key) & self._mask]
        return entry if entry is not None and entry[0] == key else None

    def store(self, key: Hashable, depth: int, value: float, bound: int, move: Any = None) -> bool:
        """Store a result unless the replacement policy keeps the slot's entry; True if stored.

        Storing for the same key without a move keeps the move stored before (a fail-low search
        learns no best move, but the old one is still the best guess for move ordering).
        """
        index = hash(key) & self._mask
        old = self._entries[index]
        if old is not None:
            if old[0] == key:
                if move is None:
                    move = old[4]
            elif depth >= old[1] or old[5] != self.generation:
                self.overwrites += 1
            else:
                self.rejected += 1
                return False
        self._entries[index] = TTEntry(key, depth, value, bound, move, self.generation)
        self.stores += 1
        return True

    def clear(self) -> None:
        """Empty every slot and reset the counters and the generation."""
        self._entries = [None] * (self._mask + 1)
        self.generation = 0
        self.probes = self.hits = self.stores = self.overwrites = self.rejected = 0

    def used(self) -> int:
        """How many slots hold an entry (counts the whole array: not for the hot path)."""
        return sum(1 for entry in self._entries if entry is not None)

    def stats(self) -> TTStats:
        return TTStats(
            slots=self.slots, used=self.used(), generation=self.generation, probes=self.probes,
            hits=self.hits, stores=self.stores, overwrites=self.overwrites, rejected=self.rejected,
        )

    def __repr__(self) -> str:
        return f"TranspositionTable(slots={self.slots}, generation={self.generation})"


__all__ = ["BOUND_NAMES", "EXACT", "LOWER", "UPPER", "TTEntry", "TTStats", "TranspositionTable"]
