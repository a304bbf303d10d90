"""The bot's random source: the kernel's bytes, read a block at a time, each used once, every order of a shuffle
equally likely."""

from __future__ import annotations

import itertools
import os
import struct
from collections import Counter
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.randomness import BLOCK_BYTES, SecureRandom
from bot.replay import RecordingRandom, ReplayRandom, state_json
from bot.service import Service
from bot.store import Store
from bot.store.tx import loads
from engine.cards import ALL_CARDS


class Source:
    """A stand-in for `os.urandom` that hands out the given bytes in order and counts its calls."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.calls: list[int] = []

    def __call__(self, count: int) -> bytes:
        self.calls.append(count)
        given, self.data = self.data[:count], self.data[count:]
        assert len(given) == count, "the test source ran dry"
        return given


def words(*values: int) -> bytes:
    """32-bit words as the platform's `array` reads them."""
    return struct.pack(f"={len(values)}I", *values)


def fisher_yates(items: list[int], draws: list[int]) -> list[int]:
    """What `random.shuffle` does with these positions drawn, one a swap from the end."""
    items = list(items)
    for last, other in zip(range(len(items) - 1, 0, -1), draws, strict=True):
        items[last], items[other] = items[other], items[last]
    return items


def test_draws_come_from_the_source_a_block_at_a_time_each_byte_once() -> None:
    source = Source(bytes(range(256)) * 2)
    rng = SecureRandom(source, block=256)
    assert [rng.getrandbits(8) for _ in range(300)] == [*range(256), *range(44)]
    assert source.calls == [256, 256]  # the second block only once the first was used up
    assert rng.getrandbits(16) == (44 << 8) | 45
    assert rng.getrandbits(3) == 46 >> 5  # the top bits of the next byte
    assert rng.randbytes(3) == bytes([47, 48, 49])
    assert rng.random() == (int.from_bytes(bytes(range(50, 57)), "big") >> 3) / 2**53  # 53 bits of the next 7 bytes
    assert rng.getrandbits(0) == 0
    with pytest.raises(ValueError):
        rng.getrandbits(-1)


def test_a_draw_longer_than_a_block_reads_what_it_needs() -> None:
    source = Source(b"\x01" * 20)
    assert SecureRandom(source, block=4).randbytes(20) == b"\x01" * 20
    assert source.calls == [20]


def test_a_shuffle_swaps_as_fisher_yates_with_one_word_a_swap() -> None:
    drawn = [7, 11, 2, 1_000_003, 5, 0]  # the positions: 7 % 7, 11 % 6, 2 % 5, 1_000_003 % 4, 5 % 3, 0 % 2
    source = Source(words(*drawn, 99))  # the seventh word is read with the others and not used
    deck = list(range(7))
    SecureRandom(source, block=28).shuffle(deck)
    assert deck == fisher_yates(list(range(7)), [7 % 7, 11 % 6, 2 % 5, 1_000_003 % 4, 5 % 3, 0 % 2])
    assert source.calls == [28]


def test_a_word_that_would_favour_some_positions_is_drawn_again() -> None:
    unfair = 2**32 - 1  # 2**32 is not a multiple of 3: the words at the top of the range would favour 0
    source = Source(words(unfair, 4, 99) + words(5, 0, 0))  # the shuffle's read, then the block its redraw reads
    deck = [0, 1, 2]
    SecureRandom(source, block=12).shuffle(deck)
    redrawn = int.from_bytes(words(5), "big")  # drawn as `getrandbits(32)` draws
    assert deck == fisher_yates([0, 1, 2], [redrawn % 3, 4 % 2])
    assert source.calls == [12, 12]


def test_every_order_is_about_equally_likely() -> None:
    rng = SecureRandom()
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(48_000):
        deck = [0, 1, 2, 3]
        rng.shuffle(deck)
        counts[tuple(deck)] += 1
    assert set(counts) == set(itertools.permutations(range(4)))
    # 2,000 expected each, a standard deviation of about 44: six of them is one failure in a hundred million runs
    assert all(abs(count - 2000) < 270 for count in counts.values()), counts


def test_a_deal_from_it_is_recorded_for_the_log_and_replayed_card_for_card() -> None:
    data = os.urandom(BLOCK_BYTES)
    alone, recorded = list(ALL_CARDS), list(ALL_CARDS)
    SecureRandom(Source(data)).shuffle(alone)
    recording = RecordingRandom(SecureRandom(Source(data)))  # the action's view of the service's source
    recording.shuffle(recorded)
    assert recorded == alone
    replayed = list(ALL_CARDS)
    ReplayRandom(loads(state_json(recording.draws))).shuffle(replayed)
    assert replayed == alone


def test_a_child_process_reads_its_own_block(monkeypatch: pytest.MonkeyPatch) -> None:
    source = Source(bytes(range(16)))
    rng = SecureRandom(source, block=8)
    assert rng.randbytes(2) == bytes([0, 1])
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as after a fork: the bytes left were the parent's too
    assert rng.randbytes(2) == bytes([8, 9])
    assert source.calls == [8, 8]


async def test_the_service_deals_from_it_unless_given_a_source(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        assert isinstance(Service(store, FakeClock()).rng, SecureRandom)
    finally:
        await store.close()
