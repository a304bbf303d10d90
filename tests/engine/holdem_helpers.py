"""Helpers for the Hold'em tests: stacked decks in dealing order, scripted actions, a random legal player."""

from __future__ import annotations

import random
from pathlib import Path

import engine.holdem_types
from engine.betting import BettingStructure
from engine.cards import ALL_CARDS, Deck, parse_cards
from engine.common import Event
from engine.holdem import (
    Action,
    AllIn,
    Bet,
    Call,
    Check,
    Fold,
    Hand,
    LegalActions,
    Pawn,
    RaiseTo,
    SeatPlayer,
    Variant,
)

ENGINE_COMPILED = Path(engine.holdem_types.__file__ or "").suffix == ".so"
"""Whether the engine runs compiled by mypyc (a C extension beside each source), which checks each field's type as
an action is made."""


def deck_for(holes: dict[str, str], order: list[str], board: str) -> Deck:
    """A deck that deals `holes` (one card at a time in `order`, from the button's left; two or four each) then burns
    and `board`."""
    used = [card for text in holes.values() for card in parse_cards(text)] + parse_cards(board)
    burns = [card for card in ALL_CARDS if card not in used][:3]
    count = len(parse_cards(holes[order[0]]))
    rounds = [parse_cards(holes[player])[k] for k in range(count) for player in order]
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:5]
    return Deck.stacked([*rounds, burns[0], *flop, burns[1], *turn, burns[2], *river])


def parse_action(words: list[str]) -> Action:
    """`fold`, `check`, `call`, `bet 20`, `raise 40`, `allin`, `pawn a coat`."""
    match words:
        case ["fold"]:
            return Fold()
        case ["check"]:
            return Check()
        case ["call"]:
            return Call()
        case ["bet", amount]:
            return Bet(int(amount))
        case ["raise", amount]:
            return RaiseTo(int(amount))
        case ["allin"]:
            return AllIn()
        case ["pawn", *item]:
            return Pawn(" ".join(item))
    raise ValueError(words)


def start(structure: BettingStructure, stacks: dict[str, int], button: str, holes: dict[str, str], board: str,
          level: int = 10, variant: Variant = Variant.HOLDEM) -> tuple[Hand, list[Event]]:
    """Start a hand with these seats (dict order = clockwise) and a deck dealing the given cards."""
    ids = list(stacks)
    at = ids.index(button)
    order = [ids[(at + step) % len(ids)] for step in range(1, len(ids) + 1)]
    players = [SeatPlayer(player, stack) for player, stack in stacks.items()]
    return Hand.start(players, at, level, structure, deck_for(holes, order, board), hand_number=1, variant=variant)


def run_script(hand: Hand, script: str) -> list[Event]:
    """Apply `A call; B raise 20; …`, checking each actor is the one to act."""
    events: list[Event] = []
    for line in filter(None, (part.strip() for part in script.split(";"))):
        player, *words = line.split()
        assert hand.to_act == player, f"expected {player} to act, got {hand.to_act} at {line!r}"
        events += hand.act(player, parse_action(words))
    return events


def random_action(legal: LegalActions, rng: random.Random, *, fold_weight: float = 0.15) -> Action:
    """A random legal action (no pawning), with a preference for the small raises a real table makes."""
    choices: list[tuple[float, Action]] = []
    if legal.can_fold:
        choices.append((fold_weight, Fold()))
    if legal.can_check:
        choices.append((0.45, Check()))
    if legal.call_amount:
        choices.append((0.45, Call()))
    if legal.can_bet or legal.can_raise:
        span = legal.max_to - legal.min_to
        to = legal.min_to + (int(span * rng.random() ** 3) if span else 0)
        choices.append((0.3, Bet(to) if legal.can_bet else RaiseTo(to)))
    if legal.all_in:
        choices.append((0.05, AllIn()))
    weights = [weight for weight, _ in choices]
    return rng.choices([action for _, action in choices], weights)[0]
