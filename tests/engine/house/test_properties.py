"""Invariants of every house game over random rounds and random legal decisions (hypothesis).

`HOUSE_EXAMPLES=3000` in the environment runs many more examples than the committed default (a local bug hunt).
"""

import json
import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Deck
from engine.common import RuleError, all_moves
from engine.house import GAMES
from engine.house.boxes import HOUSE
from engine.house.common import HouseRound
from engine.house.events import StakesSettled

PLAYERS = ["ann", "bob", "cat", "dan"]
EXAMPLES = int(os.environ.get("HOUSE_EXAMPLES", "0"))


def random_round(game: str, rng: random.Random) -> tuple[HouseRound, list, dict[str, int]]:
    round_ = GAMES[game].new()  # type: ignore[attr-defined]
    events: list = []
    players = PLAYERS[:rng.randint(1, len(PLAYERS))]
    start = {player: rng.choice([30, 100, 1000]) for player in players}
    limits = round_.limits
    for player in players:
        for box in range(1, rng.randint(1, limits.max_boxes) + 1):
            ante = rng.randint(limits.min_ante, min(limits.max_ante, 20))
            side = limits.max_side if limits.max_side and rng.random() < 0.5 else 0
            balance = start[player] if box == 1 else None
            if round_.can_place_bets(player, box, ante, side=side, balance=balance):
                events += round_.place_bets(player, box, ante, side=side, balance=balance)
    if not round_.boxes:
        events += round_.place_bets("ann", 1, limits.min_ante, balance=start["ann"])
    events += round_.deal(Deck(rng))
    return round_, events, start


def random_decision(round_: HouseRound, rng: random.Random) -> list:
    legal = round_.legal_actions()
    option = rng.choice(legal.options)
    box = round_.current_box()
    assert box is not None and legal.player is not None
    cards = rng.sample(box.cards, rng.randint(option.min_cards, option.max_cards)) if option.max_cards else []
    return round_.act(legal.player, option.name, cards)


@settings(max_examples=EXAMPLES or 120, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_chips_are_conserved_and_every_box_settled_once(game: str, seed: int) -> None:
    rng = random.Random(seed)
    round_, events, start = random_round(game, rng)
    while not round_.is_over:
        assert round_.legal_actions().options, "a decision must exist until the round ends"
        assert set(round_.legal_actions().names) <= set(round_.actions), "the game's decisions name them all"
        events += random_decision(round_, rng)
    balances: Counter[str] = Counter()
    for move in all_moves(events):
        assert move.amount > 0
        balances[move.source] -= move.amount
        balances[move.target] += move.amount
    assert sum(balances.values()) == 0
    assert all(amount == 0 for account, amount in balances.items() if account.startswith("box:"))
    nets = round_.result().players
    for player in nets:
        assert balances[f"player:{player}"] == nets[player]
        assert round_.wallets[player] == start[player] + nets[player] >= 0
    assert balances[HOUSE] == -sum(nets.values())
    finals = Counter((e.player, e.box) for e in events if isinstance(e, StakesSettled) and e.final)
    assert sorted(finals) == sorted((box.owner, box.index) for box in round_.boxes)
    assert set(finals.values()) == {1}
    json.dumps([event.to_dict() for event in events])


@settings(max_examples=EXAMPLES or 80, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), steps=st.integers(0, 4))
def test_refused_actions_change_nothing_and_saved_rounds_continue_alike(game: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    round_, _, _ = random_round(game, rng)
    for _ in range(steps):
        if round_.is_over:
            break
        random_decision(round_, rng)
    before = round_.to_dict()
    for player, action, cards in [("zed", "play", []), ("ann", "dance", []), ("ann", "exchange", ["As", "As"]),
                                  (round_.to_act[0] if round_.to_act else "ann", "fold", ["2c"])]:
        try:
            round_.act(player, action, cards)
        except RuleError:
            pass
        else:
            raise AssertionError(f"{action} by {player} should be refused")
        assert round_.to_dict() == before
    copy = type(round_).from_dict(json.loads(json.dumps(before)))
    assert copy.to_dict() == before
    one, two = random.Random(seed + 1), random.Random(seed + 1)
    while not round_.is_over:
        first = [e.to_dict() for e in random_decision(round_, one)]
        second = [e.to_dict() for e in random_decision(copy, two)]
        assert first == second
    assert copy.result() == round_.result()
