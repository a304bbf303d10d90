"""Fast hand strength for showdowns and simulations: the same ordering integers as `hands.evaluate`.

Every card has an additive key. Its high part is a rank key: the sum of the rank keys of up to seven cards, with at most
four cards of a rank, is different for every multiset of ranks (the keys `{0, 1, 5, 22, 98, ...}` of Kenneth
Shackleton's SKPokerEval), plus one `_COUNT_UNIT` per card so that 5-, 6- and 7-card multisets never share a sum. Its
low 16 bits count suits, one nibble per suit, started at 3 so that a nibble reaches 8 exactly when it holds five cards.
A hand's key is the sum of its cards' keys: without a flush, one dictionary lookup of the rank part gives the strength;
with a flush (at most one suit can hold five of seven cards, and then no full house or quads is possible) the 13-bit
rank mask of the flush suit indexes a flush table.

The tables are built from `hands.evaluate` itself (`python tools/build_fast_eval.py` rewrites
`engine/data/fast_eval.bin`) and loaded on first use in about 15 ms.  `strength_batch` does the same with numpy over
many hands at once, through a perfect hash of the rank keys (hash and displace); numpy is imported on its first call.
"""

from __future__ import annotations

import array
import itertools
import sys
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import Card, Suit

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CARD_KEYS",
    "RANK_KEYS",
    "best_split",
    "build_tables",
    "load_tables",
    "strength_batch",
    "strength_of_cards",
    "strength_of_indices",
]

RANK_KEYS: tuple[int, ...] = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""Additive keys of the ranks 2..A: sums of up to seven keys, at most four alike, are all different."""

_COUNT_UNIT = 1 << 23  # above the largest seven-card sum of rank keys (7,825,759)
_SUIT_BITS = 16
_SUIT_START = 0x3333
_FLUSH_BITS = 0x8888
_RANK_MASK_BITS = 13

DATA_PATH = Path(__file__).with_name("data") / "fast_eval.bin"
_MAGIC = b"PKFE2\n"
_HASH_SHIFT = 9  # low bits of a rank key kept as they are by the perfect hash


def _card_key(index: int) -> int:
    return ((RANK_KEYS[index >> 2] + _COUNT_UNIT) << _SUIT_BITS) + (1 << 4 * (index & 3))


CARD_KEYS: tuple[int, ...] = tuple(_card_key(index) for index in range(52))
"""The additive key of each card, by `Card.index`."""

_CARD_KEY_LIST = list(CARD_KEYS)
_RANK_PART = [0, 0] + [(key + _COUNT_UNIT) << _SUIT_BITS for key in RANK_KEYS]  # by rank 2..14
_SUIT_PART = {suit: 1 << 4 * "cdhs".index(suit) for suit in Suit}
_SUIT_LETTERS = "cdhs"


# --- building the tables ---------------------------------------------------------------------------------


def _rank_multisets(size: int) -> Iterable[tuple[int, ...]]:
    """Count vectors over the 13 ranks (2..A) summing to `size`, at most four of a rank."""

    def extend(prefix: tuple[int, ...], left: int) -> Iterable[tuple[int, ...]]:
        if len(prefix) == 12:
            if left <= 4:
                yield (*prefix, left)
            return
        for count in range(min(4, left) + 1):
            yield from extend((*prefix, count), left - count)

    return extend((), size)


def _rank_sum(counts: Sequence[int]) -> int:
    return sum(count * (key + _COUNT_UNIT) for count, key in zip(counts, RANK_KEYS, strict=True))


def build_tables() -> tuple[list[int], list[int], list[int]]:
    """Compute (sorted rank-sum keys, their strengths, flush strengths by rank mask) from `hands.evaluate`."""
    from engine.hands import evaluate

    by_key: dict[int, int] = {}
    for size in (5, 6, 7):
        for counts in _rank_multisets(size):
            cards: list[Card] = []
            for rank_index, count in enumerate(counts):
                for _ in range(count):
                    # consecutive suits: copies of a rank differ, and no suit gets more than two of seven cards
                    cards.append(Card(rank_index + 2, Suit(_SUIT_LETTERS[len(cards) % 4])))
            key = _rank_sum(counts)
            if key in by_key:
                raise AssertionError(f"rank keys collide on {counts}")
            by_key[key] = evaluate(cards).strength
    flush = [0] * (1 << _RANK_MASK_BITS)
    for mask in range(1 << _RANK_MASK_BITS):
        if 5 <= mask.bit_count() <= 7:
            flush[mask] = evaluate([Card(bit + 2, Suit.CLUBS) for bit in range(13) if mask >> bit & 1]).strength
    keys = sorted(by_key)
    return keys, [by_key[key] for key in keys], flush


def _perfect_hash(keys: Sequence[int], shift: int) -> list[int]:
    """Row offsets for `slot = (key & (2**shift - 1)) + offsets[key >> shift]`, distinct slots for all keys.

    Hash and displace: the fullest rows are placed first, each at the first offset where all its slots are free.
    """
    import numpy as np

    low = (1 << shift) - 1
    rows: dict[int, list[int]] = {}
    for key in keys:
        rows.setdefault(key >> shift, []).append(key & low)
    offsets = [0] * ((max(keys) >> shift) + 1)
    window = 4096
    used = np.zeros(2 * len(keys) + 2 * window + (1 << shift), dtype=bool)
    first_free = 0
    for row, row_lows in sorted(rows.items(), key=lambda item: (-len(item[1]), item[0])):
        lows = np.array(row_lows, dtype=np.int64)
        while used[first_free]:
            first_free += 1
        start = first_free - int(lows.min())
        while True:
            if start + window + (1 << shift) >= len(used):
                used = np.concatenate([used, np.zeros(len(used), dtype=bool)])
            candidates = np.arange(start, start + window)
            free = ~used[lows[:, None] + candidates[None, :]].any(axis=0)
            if free.any():
                offset = int(candidates[int(free.argmax())])
                break
            start += window
        used[lows + offset] = True
        offsets[row] = offset
    return offsets


def table_bytes() -> bytes:
    """The shipped table file's contents, built from `hands.evaluate` (written by `tools/build_fast_eval.py`)."""
    keys, values, flush = build_tables()
    offsets = _perfect_hash(keys, _HASH_SHIFT)
    parts = [array.array("I", [len(keys), len(offsets), _HASH_SHIFT])]
    deltas = [keys[0]] + [after - before for before, after in itertools.pairwise(keys)]  # sorted keys compress well
    parts += [array.array("I", deltas), array.array("I", values), array.array("I", flush), array.array("i", offsets)]
    for part in parts:
        if sys.byteorder != "little":
            part.byteswap()
    payload = b"".join(part.tobytes() for part in parts)
    return _MAGIC + zlib.compress(payload, 9)


def _read(data: bytes) -> tuple[array.array[int], array.array[int], array.array[int], array.array[int], int]:
    if not data.startswith(_MAGIC):
        raise ValueError("not a fast_eval table file")
    payload = zlib.decompress(data[len(_MAGIC):])
    header = array.array("I", payload[:12])
    if sys.byteorder != "little":
        header.byteswap()
    key_count, row_count, shift = header
    out: list[array.array[int]] = []
    position = 12
    for code, count in (("I", key_count), ("I", key_count), ("I", 1 << _RANK_MASK_BITS), ("i", row_count)):
        part = array.array(code)
        part.frombytes(payload[position:position + count * part.itemsize])
        if sys.byteorder != "little":
            part.byteswap()
        position += count * part.itemsize
        out.append(part)
    keys = array.array("I", itertools.accumulate(out[0]))
    return keys, out[1], out[2], out[3], shift


# --- loading ----------------------------------------------------------------------------------------------

_NON_FLUSH: dict[int, int] = {}  # rank-sum key -> strength, filled by `load_tables`
_FLUSH: list[int] = []  # flush suit's rank mask -> strength
_RAW: dict[str, Any] = {}


def load_tables() -> None:
    """Read the shipped tables (about 15 ms); done on first use, so importing the module costs nothing."""
    if _NON_FLUSH:
        return
    if not DATA_PATH.exists():
        raise FileNotFoundError(f"{DATA_PATH} is missing: rebuild it with `python tools/build_fast_eval.py`")
    keys, values, flush, offsets, shift = _read(DATA_PATH.read_bytes())
    _RAW.update(keys=keys, values=values, flush=flush, offsets=offsets, shift=shift)
    _FLUSH[:] = flush.tolist()
    _NON_FLUSH.update(zip(keys, values, strict=True))


# --- one hand ---------------------------------------------------------------------------------------------


def strength_of_indices(indices: Sequence[int], _keys: list[int] = _CARD_KEY_LIST,
                        _table: dict[int, int] = _NON_FLUSH) -> int:
    """The `HandValue.strength` of 5-7 distinct cards given by `Card.index` (distinctness is not checked)."""
    total = _SUIT_START
    for index in indices:
        total += _keys[index]
    if total & _FLUSH_BITS:
        return _flush_of_indices(indices, total)
    try:
        return _table[total >> _SUIT_BITS]
    except KeyError:
        if _table:
            raise ValueError(f"need 5 to 7 distinct cards, got {list(indices)}") from None
    load_tables()
    return strength_of_indices(indices)


def _flush_of_indices(indices: Sequence[int], total: int) -> int:
    load_tables()
    suit = ((total & _FLUSH_BITS).bit_length() - 4) >> 2
    mask = 0
    for index in indices:
        if index & 3 == suit:
            mask |= 1 << (index >> 2)
    return _flush_value(mask)


def _flush_value(mask: int) -> int:
    value = _FLUSH[mask] if mask < len(_FLUSH) else 0
    if not value:
        raise ValueError("need 5 to 7 distinct cards")
    return value


def strength_of_cards(cards: Sequence[Card], _ranks: list[int] = _RANK_PART,
                      _suits: dict[Suit, int] = _SUIT_PART, _table: dict[int, int] = _NON_FLUSH) -> int:
    """The `HandValue.strength` of 5-7 distinct cards (distinctness is not checked)."""
    total = _SUIT_START
    for card in cards:
        total += _ranks[card.rank] + _suits[card.suit]
    if total & _FLUSH_BITS:
        suit = _SUIT_LETTERS[((total & _FLUSH_BITS).bit_length() - 4) >> 2]
        mask = 0
        for card in cards:
            if card.suit == suit:
                mask |= 1 << (card.rank - 2)
        load_tables()
        return _flush_value(mask)
    try:
        return _table[total >> _SUIT_BITS]
    except KeyError:
        if _table:
            raise ValueError("need 5 to 7 distinct cards") from None
    load_tables()
    return strength_of_cards(cards)


def best_split(hole: Sequence[int], board: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best five cards made of exactly two of `hole` and three of `board` (Omaha), as (strength, the five
    `Card.index` values). Every two-card and three-card key sum is added once, so each of the 60 five-card hands of
    an Omaha showdown costs one addition and one lookup."""
    if not _NON_FLUSH:
        load_tables()
    keys, table = _CARD_KEY_LIST, _NON_FLUSH
    pairs = [(keys[a] + keys[b] + _SUIT_START, (a, b)) for a, b in itertools.combinations(hole, 2)]
    triples = [(keys[a] + keys[b] + keys[c], (a, b, c)) for a, b, c in itertools.combinations(board, 3)]
    best = -1
    cards: tuple[int, ...] = ()
    for pair_sum, pair in pairs:
        for triple_sum, triple in triples:
            total = pair_sum + triple_sum
            value = _flush_of_indices((*pair, *triple), total) if total & _FLUSH_BITS else table[total >> _SUIT_BITS]
            if value > best:
                best, cards = value, (*pair, *triple)
    return best, cards


# --- many hands at once -----------------------------------------------------------------------------------

_np_tables: dict[str, Any] = {}


def _numpy_tables() -> dict[str, Any]:
    if not _np_tables:
        import numpy as np

        load_tables()
        shift = _RAW["shift"]
        keys = np.frombuffer(_RAW["keys"], dtype=np.uint32).astype(np.int64)
        offsets = np.frombuffer(_RAW["offsets"], dtype=np.int32).astype(np.int64)
        slots = (keys & ((1 << shift) - 1)) + offsets[keys >> shift]
        size = int(slots.max()) + 1
        slot_keys = np.full(size, -1, dtype=np.int64)
        slot_keys[slots] = keys
        slot_values = np.zeros(size, dtype=np.int64)
        slot_values[slots] = np.frombuffer(_RAW["values"], dtype=np.uint32)
        index = np.arange(52)
        _np_tables.update(
            card_keys=np.array(CARD_KEYS, dtype=np.int64),
            card_bits=(np.int64(1) << (16 * (index & 3) + (index >> 2))).astype(np.int64),
            offsets=offsets,
            shift=shift,
            slot_keys=slot_keys,
            slot_values=slot_values,
            flush=np.frombuffer(_RAW["flush"], dtype=np.uint32).astype(np.int64),
        )
    return _np_tables


def strength_batch(hands: npt.ArrayLike) -> np.ndarray[Any, np.dtype[np.int64]]:
    """`HandValue.strength` of every row of an (N, 5|6|7) integer array of `Card.index` values, as int64.

    Rows must hold distinct cards; out-of-range indices and impossible rank counts raise ValueError, but a repeated
    card that still reads as a possible hand is not detected.
    """
    import numpy as np

    tables = _numpy_tables()
    cards = np.asarray(hands)
    if cards.ndim != 2 or not 5 <= cards.shape[1] <= 7 or not np.issubdtype(cards.dtype, np.integer):
        raise ValueError(f"need an integer array of shape (N, 5..7), got {cards.dtype} {cards.shape}")
    if cards.size and (int(cards.min()) < 0 or int(cards.max()) > 51):
        raise ValueError("card indices must be 0..51")
    if cards.dtype.itemsize > 1:
        cards = cards.astype(np.int8)  # smaller columns gather faster; 0..51 fits
    card_keys = tables["card_keys"]
    total = np.take(card_keys, cards[:, 0])
    total += _SUIT_START
    for column in range(1, cards.shape[1]):
        total += np.take(card_keys, cards[:, column])
    keys = total >> _SUIT_BITS
    shift = tables["shift"]
    suited = total & _FLUSH_BITS
    flushes = np.flatnonzero(suited)
    try:
        slots = (keys & ((1 << shift) - 1)) + tables["offsets"][keys >> shift]
        out: np.ndarray[Any, np.dtype[np.int64]] = tables["slot_values"][slots]
        bad = tables["slot_keys"][slots] != keys
    except IndexError:
        raise ValueError("some row is not a hand of distinct cards") from None
    bad[flushes] = False
    if bad.any():
        raise ValueError(f"row {int(np.flatnonzero(bad)[0])} is not a hand of distinct cards")
    if flushes.size:
        suited_rows = cards[flushes]
        card_bits = tables["card_bits"]
        bits = np.take(card_bits, suited_rows[:, 0])
        for column in range(1, cards.shape[1]):
            bits += np.take(card_bits, suited_rows[:, column])
        nibbles = suited[flushes]
        suit = np.where(nibbles & 0x8, 0, np.where(nibbles & 0x80, 1, np.where(nibbles & 0x800, 2, 3)))
        flush_values = tables["flush"][(bits >> (16 * suit)) & 0x1FFF]
        if not flush_values.all():
            raise ValueError("some row is not a hand of distinct cards")
        out[flushes] = flush_values
    return out
