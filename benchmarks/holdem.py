"""Benchmark: complete random Hold'em and Pot-Limit Omaha hands per second (6 players, random legal actions, through
the river).

Prints hands/second for the engine and for a baseline that only deals the same cards and evaluates the same
showdowns (the floor any engine pays), their ratio, and the size of a serialised hand in bytes; then the same for
Omaha (pot limit, four hole cards, the two-plus-three evaluation of `engine.omaha`) against its own baseline that
deals four cards a seat and evaluates every seat the Omaha way.
Run: `PYTHONPATH=. python benchmarks/holdem.py [hands]`.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable

from engine import omaha
from engine.betting import FIXED_LIMIT, HOME_LIMIT, NO_LIMIT, POT_LIMIT
from engine.cards import Deck
from engine.hands import strength
from engine.holdem import Action, AllIn, Bet, Call, Check, Fold, Hand, RaiseTo, SeatPlayer, Variant

PLAYERS = 6


def random_action(hand: Hand, rng: random.Random) -> Action:
    """A random legal action of the player to act, checks and calls most often (bets and raises at their minimum)."""
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


def play_hands(count: int, seed: int, variant: Variant = Variant.HOLDEM) -> tuple[int, int]:
    """Play `count` hands (Hold'em in its three structures, or Pot-Limit Omaha); return (serialised bytes of a hand
    on the flop, showdowns)."""
    rng = random.Random(seed)
    structures = (POT_LIMIT,) if variant is Variant.OMAHA else (HOME_LIMIT, FIXED_LIMIT, NO_LIMIT)
    size = 0
    showdowns = 0
    for number in range(count):
        players = [SeatPlayer(f"player{index}", 1000) for index in range(PLAYERS)]
        hand, _ = Hand.start(players, number % PLAYERS, 20, structures[number % len(structures)], Deck(rng),
                             hand_number=number, variant=variant)
        while not hand.is_over:
            if hand.street == "flop" and not size:
                size = len(json.dumps(hand.to_dict()))
            hand.act(hand.legal_actions().player, random_action(hand, rng))
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


def omaha_baseline(count: int, seed: int) -> int:
    """Deal the same number of Omaha hands and evaluate every seat's best two-plus-three: no betting logic at all."""
    rng = random.Random(seed)
    total = 0
    for _ in range(count):
        deck = Deck(rng)
        holes = [deck.deal(4) for _ in range(PLAYERS)]
        board = deck.deal(5)
        total += max(omaha.strength(hole, board) for hole in holes)
    return total


def _row(name: str, count: int, play: float, floor: float, showdowns: int, size: int, what: str) -> None:
    print(f"{name} engine:   {count / play:10.0f} hands/s ({PLAYERS} players, {showdowns} showdowns)")
    print(f"{name} baseline: {count / floor:10.0f} hands/s ({what})")
    print(f"{name} ratio:    {play / floor:10.2f}x the baseline's time per hand")
    print(f"{name} serialised hand on the flop: {size} bytes of JSON")


def _timed(run: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    value = run()
    return time.perf_counter() - started, value


def main() -> None:
    """Time both loops in the same run and print the numbers."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    play, (size, showdowns) = _timed(lambda: play_hands(count, seed=1))
    floor, _ = _timed(lambda: baseline(count, seed=1))
    _row("Hold'em", count, play, floor, showdowns, size, "deal + evaluate every seat, no betting")
    play, (size, showdowns) = _timed(lambda: play_hands(count, seed=1, variant=Variant.OMAHA))
    floor, _ = _timed(lambda: omaha_baseline(count, seed=1))
    _row("Omaha  ", count, play, floor, showdowns, size, "deal 4 a seat + evaluate every seat's 60 two-plus-threes")


if __name__ == "__main__":
    main()
