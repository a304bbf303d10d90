"""Benchmark: complete random Hold'em hands per second (6 players, random legal actions, through the river).

Prints hands/second for the engine and for a baseline that only deals the same cards and evaluates the same
showdowns (the floor any engine pays), their ratio, and the size of a serialised hand in bytes.
Run: `PYTHONPATH=. python benchmarks/holdem.py [hands]`.
"""

from __future__ import annotations

import json
import random
import sys
import time

from engine.betting import FIXED_LIMIT, HOME_LIMIT, NO_LIMIT
from engine.cards import Deck
from engine.hands import strength
from engine.holdem import Action, AllIn, Bet, Call, Check, Fold, Hand, RaiseTo, SeatPlayer

PLAYERS = 6


def _action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    choices: list[Action] = [Check() if legal.can_check else Call()]
    if legal.can_fold:
        choices.append(Fold())
    if legal.can_bet:
        choices.append(Bet(legal.min_to))
    if legal.can_raise:
        choices.append(RaiseTo(legal.min_to))
    if legal.all_in and rng.random() < 0.05:
        choices.append(AllIn())
    weights = [6, 1, 2, 2, 1][: len(choices)]
    return rng.choices(choices, weights)[0]


def play_hands(count: int, seed: int) -> tuple[int, int]:
    """Play `count` hands; return (total serialised bytes at mid-hand, showdowns)."""
    rng = random.Random(seed)
    structures = (HOME_LIMIT, FIXED_LIMIT, NO_LIMIT)
    size = 0
    showdowns = 0
    for number in range(count):
        players = [SeatPlayer(f"player{index}", 1000) for index in range(PLAYERS)]
        hand, _ = Hand.start(players, number % PLAYERS, 20, structures[number % 3], Deck(rng), hand_number=number)
        while not hand.is_over:
            if hand.street == "flop" and not size:
                size = len(json.dumps(hand.to_dict()))
            hand.act(hand.legal_actions().player, _action(hand, rng))
        showdowns += hand.result is not None and hand.result.went_to_showdown
    return size, showdowns


def baseline(count: int, seed: int) -> int:
    """Deal the same number of hands and evaluate every seat's seven cards: no betting logic at all."""
    rng = random.Random(seed)
    total = 0
    for _ in range(count):
        deck = Deck(rng)
        holes = [deck.deal(2) for _ in range(PLAYERS)]
        board = deck.deal(5)
        total += max(strength(hole + board) for hole in holes)
    return total


def main() -> None:
    """Time both loops in the same run and print the numbers."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    started = time.perf_counter()
    size, showdowns = play_hands(count, seed=1)
    engine_seconds = time.perf_counter() - started
    started = time.perf_counter()
    baseline(count, seed=1)
    baseline_seconds = time.perf_counter() - started
    print(f"engine:   {count / engine_seconds:10.0f} hands/s ({PLAYERS} players, {showdowns} showdowns)")
    print(f"baseline: {count / baseline_seconds:10.0f} hands/s (deal + evaluate every seat, no betting)")
    print(f"ratio:    {engine_seconds / baseline_seconds:10.2f}x the baseline's time per hand")
    print(f"serialised hand on the flop: {size} bytes of JSON")


if __name__ == "__main__":
    main()
