"""The vocabulary of a Hold'em hand: seated players, actions (commands), legal actions, events, pawn rules, result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.betting import Street
from engine.cards import Card
from engine.common import Event, Move
from engine.pawn import FORBIDDEN_PAWN_KINDS, PawnRules

__all__ = [
    "FORBIDDEN_PAWN_KINDS",
    "Action",
    "AllIn",
    "Bet",
    "BlindPosted",
    "BoardDealt",
    "Call",
    "CardsShown",
    "Check",
    "Fold",
    "HandEnded",
    "HandMucked",
    "HandResult",
    "HandStarted",
    "HandsShown",
    "HoleCardsDealt",
    "ItemPawned",
    "LegalActions",
    "Pawn",
    "PawnRules",
    "PlayerBet",
    "PlayerCalled",
    "PlayerChecked",
    "PlayerFolded",
    "PlayerRaised",
    "PotAward",
    "PotAwarded",
    "RabbitHunted",
    "RaiseTo",
    "RunsChosen",
    "RunsOffered",
    "RunsSettled",
    "SeatPlayer",
    "UncalledBetReturned",
    "Variant",
]


NEXT_STREET = {Street.PREFLOP: (Street.FLOP, 3), Street.FLOP: (Street.TURN, 1), Street.TURN: (Street.RIVER, 1)}
"""The street after each betting street, with how many board cards it deals."""


class Variant(StrEnum):
    """The game a hand deals: Texas Hold'em (two hole cards, any five of seven) or Omaha (RULES.md §1b: four hole
    cards, exactly two of them with exactly three of the board)."""

    HOLDEM = "holdem"
    OMAHA = "omaha"

    @property
    def hole_cards(self) -> int:
        """The hole cards dealt to each player."""
        return 4 if self is Variant.OMAHA else 2

    @property
    def max_players(self) -> int:
        """The most players one deck deals: the hole cards, three burns and five board cards (52 cards)."""
        return (52 - 8) // self.hole_cards


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """A seat at the table as the hand sees it: the player's id, his chips, whether he sits this hand out."""

    id: str
    stack: int
    sitting_out: bool = False

    # written out, not generated: see bot/compiled.py
    def __init__(self, id: str, stack: int, sitting_out: bool = False) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "stack", stack)
        object.__setattr__(self, "sitting_out", sitting_out)


# --- actions (commands) ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand."""


@dataclass(frozen=True, slots=True)
class Check:
    """Pass when nothing is owed."""


@dataclass(frozen=True, slots=True)
class Call:
    """Match the bet to call (all-in for less when short)."""


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting on a street: put `amount` chips in."""

    amount: int

    # written out, not generated: see bot/compiled.py
    def __init__(self, amount: int) -> None:
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Raise the bet to `amount` (the player's total bet on this street)."""

    amount: int

    # written out, not generated: see bot/compiled.py
    def __init__(self, amount: int) -> None:
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class AllIn:
    """Put the whole stack in: a call, bet or raise, whichever it amounts to."""


@dataclass(frozen=True, slots=True)
class Pawn:
    """Pawn an item to the tournament's bank for chips, when short of the call."""

    item: str

    # written out, not generated: see bot/compiled.py
    def __init__(self, item: str) -> None:
        object.__setattr__(self, "item", item)


Action = Fold | Check | Call | Bet | RaiseTo | AllIn | Pawn
"""Anything a player may do in a hand."""


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now, with amounts: adapters draw their buttons from this alone.

    `call_amount` is the chips a call puts in (0 when nothing is owed; less than owed when it is an all-in call).
    `min_to`/`max_to` bound the total "to" amount of a bet or a raise (equal in fixed limit, where facing an all-in
    short of half a bet it is the completion to a full bet; both 0 when neither is allowed). `all_in` is the chips an
    AllIn puts in as a bet or raise (the whole stack), 0 when none is allowed now; an AllIn is then still accepted
    where a call is, and plays as that call (`call_amount`: all of his chips that can be matched), so no All-in
    button is drawn beside the Call that does the same.
    """

    player: str
    can_fold: bool
    can_check: bool
    call_amount: int
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    all_in: int
    can_pawn: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, player: str, can_fold: bool, can_check: bool, call_amount: int, can_bet: bool, can_raise: bool,
                 min_to: int, max_to: int, all_in: int, can_pawn: bool) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "can_fold", can_fold)
        object.__setattr__(self, "can_check", can_check)
        object.__setattr__(self, "call_amount", call_amount)
        object.__setattr__(self, "can_bet", can_bet)
        object.__setattr__(self, "can_raise", can_raise)
        object.__setattr__(self, "min_to", min_to)
        object.__setattr__(self, "max_to", max_to)
        object.__setattr__(self, "all_in", all_in)
        object.__setattr__(self, "can_pawn", can_pawn)

    @property
    def can_call(self) -> bool:
        """Whether a call is possible (something is owed)."""
        return self.call_amount > 0


# --- events ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class HandStarted(Event):
    """A hand began: who plays (table order), the button, the stacks, level, structure and variant; in a
    tournament, `level_number` is the number players know its level by (`Schedule.level_number`), None elsewhere."""

    hand_number: int
    players: tuple[str, ...]
    button: str
    stacks: dict[str, int]
    level: int
    structure: str
    variant: str = Variant.HOLDEM.value
    level_number: int | None = None

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), hand_number: int,
                 players: tuple[str, ...], button: str, stacks: dict[str, int], level: int, structure: str,
                 variant: str = "holdem", level_number: int | None = None) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "structure", structure)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "level_number", level_number)


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindPosted(Event):
    """A player posted the small or big blind (all-in when short)."""

    player: str
    blind: str
    amount: int
    is_all_in: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, blind: str,
                 amount: int, is_all_in: bool) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "blind", blind)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "is_all_in", is_all_in)


@dataclass(frozen=True, kw_only=True, slots=True)
class HoleCardsDealt(Event):
    """A player's hole cards, two or four (visible to him alone)."""

    player: str
    cards: tuple[Card, ...]

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str,
                 cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerFolded(Event):
    """A player folded."""

    player: str

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerChecked(Event):
    """A player checked."""

    player: str

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerCalled(Event):
    """A player called `amount` chips (all-in when short)."""

    player: str
    amount: int
    is_all_in: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, amount: int,
                 is_all_in: bool) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "is_all_in", is_all_in)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerBet(Event):
    """A player opened the betting with `amount` chips."""

    player: str
    amount: int
    is_all_in: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, amount: int,
                 is_all_in: bool) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "is_all_in", is_all_in)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerRaised(Event):
    """A player raised to `to` (his total on the street), putting `amount` more chips in."""

    player: str
    to: int
    amount: int
    is_all_in: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, to: int,
                 amount: int, is_all_in: bool) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "is_all_in", is_all_in)


@dataclass(frozen=True, kw_only=True, slots=True)
class ItemPawned(Event):
    """A player pawned an item to the bank (which holds it) and got `value` chips: a debt for the tournament."""

    player: str
    item: str
    value: int
    hand_number: int
    holder: str = "bank"

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, item: str,
                 value: int, hand_number: int, holder: str = "bank") -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "holder", holder)


@dataclass(frozen=True, kw_only=True, slots=True)
class UncalledBetReturned(Event):
    """The part of a bet nobody matched went back to its owner."""

    player: str
    amount: int

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str,
                 amount: int) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardDealt(Event):
    """Community cards for a street (`cards` the new ones, `board` all of them); `run` is 1 or 2 for the boards of a
    hand run twice, 0 otherwise."""

    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    run: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), street: Street,
                 cards: tuple[Card, ...], board: tuple[Card, ...], run: int = 0) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "street", street)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "run", run)


@dataclass(frozen=True, kw_only=True, slots=True)
class RunsOffered(Event):
    """Everyone still in is all-in (or all but one) with cards to come: `players` are asked "once or twice?"."""

    players: tuple[str, ...]

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (),
                 players: tuple[str, ...]) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "players", players)


@dataclass(frozen=True, kw_only=True, slots=True)
class RunsChosen(Event):
    """A player answered the run-it-twice question."""

    player: str
    twice: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str,
                 twice: bool) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "twice", twice)


@dataclass(frozen=True, kw_only=True, slots=True)
class RunsSettled(Event):
    """The rest of the board is dealt `count` times (2 only when everyone asked agreed in time)."""

    count: int

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), count: int) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "count", count)


@dataclass(frozen=True, kw_only=True, slots=True)
class HandsShown(Event):
    """At showdown players show their cards: cards, hand category name and the ranks that decide between hands of
    that category (most significant first, as `HandValue.ranks`) per player; several events when players show in
    turn; `run` (1 or 2) names the board the categories are read on when the hand was run twice."""

    cards: dict[str, tuple[Card, ...]]
    categories: dict[str, str]
    ranks: dict[str, tuple[int, ...]] = field(default_factory=dict)
    run: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (),
                 cards: dict[str, tuple[Card, ...]], categories: dict[str, str],
                 ranks: dict[str, tuple[int, ...]] | None = None, run: int = 0) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "categories", categories)
        object.__setattr__(self, "ranks", {} if ranks is None else ranks)
        object.__setattr__(self, "run", run)


@dataclass(frozen=True, kw_only=True, slots=True)
class HandMucked(Event):
    """At showdown a player threw his hand away unseen (it could not win); his cards stay secret."""

    player: str

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, kw_only=True, slots=True)
class CardsShown(Event):
    """The winner of an uncontested pot chose to show his cards after the hand."""

    player: str
    cards: tuple[Card, ...]

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str,
                 cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, kw_only=True, slots=True)
class PotAwarded(Event):
    """A pot (0 = main) went to its winners; `category` is the winning hand's, None when won without a showdown;
    `run` (1 or 2) the board its half was won on when the hand was run twice (0 otherwise)."""

    pot_index: int
    amount: int
    eligible: tuple[str, ...]
    winners: dict[str, int]
    category: str | None
    run: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), pot_index: int, amount: int,
                 eligible: tuple[str, ...], winners: dict[str, int], category: str | None, run: int = 0) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "pot_index", pot_index)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "run", run)


@dataclass(frozen=True, kw_only=True, slots=True)
class HandEnded(Event):
    """The hand is over: each player's net change from play (pawned chips excluded) and final stacks."""

    net: dict[str, int]
    stacks: dict[str, int]

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), net: dict[str, int],
                 stacks: dict[str, int]) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "net", net)
        object.__setattr__(self, "stacks", stacks)


@dataclass(frozen=True, kw_only=True, slots=True)
class RabbitHunted(Event):
    """After a hand that ended before the river, a player asked to see the board cards that would have come
    (RULES.md §1a): the hand's number, its board, and the `cards` still to come. Recorded in the hand's history;
    nothing else changes."""

    player: str
    hand_number: int
    board: tuple[Card, ...]
    cards: tuple[Card, ...]

    # written out, not generated: see bot/compiled.py
    def __init__(self, *, visible_to: str | None = None, moves: tuple[Move, ...] = (), player: str, hand_number: int,
                 board: tuple[Card, ...], cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "visible_to", visible_to)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "cards", cards)


# --- result ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot of the result: amount, who could win it, who won how much, the winning category (None: no showdown),
    and the run (1 or 2) it was won on when the hand was run twice (0 otherwise)."""

    amount: int
    eligible: tuple[str, ...]
    winners: dict[str, int]
    category: str | None
    run: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, amount: int, eligible: tuple[str, ...], winners: dict[str, int], category: str | None,
                 run: int = 0) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "run", run)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand.

    `net` is each player's change from play (final stack minus starting stack minus chips got by pawning);
    `shown` the cards shown at showdown (empty when the hand ended by folds; never a mucked hand), `mucked` the
    players who mucked at the showdown, `boards` both boards of a hand run twice (empty otherwise).
    """

    net: dict[str, int]
    pots: tuple[PotAward, ...]
    shown: dict[str, tuple[Card, ...]]
    went_to_showdown: bool
    mucked: tuple[str, ...] = ()
    boards: tuple[tuple[Card, ...], ...] = ()

    # written out, not generated: see bot/compiled.py
    def __init__(self, net: dict[str, int], pots: tuple[PotAward, ...], shown: dict[str, tuple[Card, ...]],
                 went_to_showdown: bool, mucked: tuple[str, ...] = (),
                 boards: tuple[tuple[Card, ...], ...] = ()) -> None:
        object.__setattr__(self, "net", net)
        object.__setattr__(self, "pots", pots)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "went_to_showdown", went_to_showdown)
        object.__setattr__(self, "mucked", mucked)
        object.__setattr__(self, "boards", boards)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "net": dict(self.net),
            "pots": [{"amount": pot.amount, "eligible": list(pot.eligible), "winners": dict(pot.winners),
                      "category": pot.category, "run": pot.run} for pot in self.pots],
            "shown": {player: [str(card) for card in cards] for player, cards in self.shown.items()},
            "went_to_showdown": self.went_to_showdown,
            "mucked": list(self.mucked),
            "boards": [[str(card) for card in board] for board in self.boards],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        """Rebuild from `to_dict`."""
        return cls(
            net=dict(data["net"]),
            pots=tuple(PotAward(pot["amount"], tuple(pot["eligible"]), dict(pot["winners"]), pot["category"],
                                pot.get("run", 0)) for pot in data["pots"]),
            shown={player: tuple(Card.parse(card) for card in cards) for player, cards in data["shown"].items()},
            went_to_showdown=data["went_to_showdown"],
            mucked=tuple(data.get("mucked", ())),
            boards=tuple(tuple(Card.parse(card) for card in board) for board in data.get("boards", ())),
        )
