"""The bot's random source: the operating system's cryptographically secure one, read a few kilobytes at a time.

`random.SystemRandom` asks the kernel (`os.urandom`) for every draw: a shuffle of 52 cards is 51 draws, 51 system
calls, some 75 µs a deal on this machine against 12 µs for a seeded `random.Random`. `SecureRandom` reads the same
source a block at a time, and shuffles with one read of the block for the whole deck, so a deal costs no more than
the seeded one does and its cards stay as unpredictable as the kernel makes them.
"""

from __future__ import annotations

import os
import random
import threading
from array import array
from collections.abc import Callable, MutableSequence
from typing import Any

BLOCK_BYTES = 4096
"""Bytes read from the kernel at a time: some fifty shuffles of a deck."""
_FLOAT_SCALE = 2.0 ** -53
_WORD = 1 << 32
"""A shuffle draws one 32-bit word a swap."""
_WORDS = next(code for code in "IL" if array(code).itemsize == 4)
"""The array type code of 32-bit unsigned words on this platform."""


class SecureRandom(random.SystemRandom):
    """`random.SystemRandom` with its bytes read from `source` (`os.urandom`) a block at a time, each byte used once.

    Safe to share between threads (a lock guards the block), and after a fork: a child process reads a block of its
    own rather than the bytes its parent had read."""

    def __init__(self, source: Callable[[int], bytes] = os.urandom, block: int = BLOCK_BYTES) -> None:
        super().__init__()
        self._source = source
        self._block = block
        self._bytes = b""
        self._offset = 0
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def _take(self, count: int) -> bytes:
        """The next `count` unused bytes."""
        with self._lock:
            if self._offset + count > len(self._bytes) or self._pid != os.getpid():
                self._bytes = self._source(max(self._block, count))
                self._offset = 0
                self._pid = os.getpid()
            start = self._offset
            self._offset += count
            return self._bytes[start:self._offset]

    def getrandbits(self, k: int) -> int:
        """A number of `k` random bits (what `randrange`, `choice` and `shuffle` draw from)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        count = (k + 7) // 8
        return int.from_bytes(self._take(count), "big") >> (count * 8 - k)

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits, as `random.SystemRandom` makes it."""
        return (int.from_bytes(self._take(7), "big") >> 3) * _FLOAT_SCALE

    def randbytes(self, n: int) -> bytes:
        """`n` random bytes."""
        return self._take(n)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle `x` in place, every order equally likely: Fisher-Yates, as `random.shuffle` does it, each swap's
        position drawn from one 32-bit word of a single read (a word in the few at the top of its range that would
        favour some positions is drawn again)."""
        words = iter(array(_WORDS, self._take(4 * len(x))))
        for last in range(len(x) - 1, 0, -1):
            choices = last + 1
            fair = _WORD - _WORD % choices  # the words below it give each position the same count
            word = next(words)
            while word >= fair:
                word = self.getrandbits(32)
            other = word % choices
            x[last], x[other] = x[other], x[last]
