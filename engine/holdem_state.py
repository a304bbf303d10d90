"""The state of a hand of Hold'em or Omaha: its seats, how it starts (blinds, a straddle, the deal), what the
table reads of it, and its saving; `engine.holdem.Hand` plays the betting rounds on it and `engine.holdem_showdown`
its end."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from engine.betting import (
    BettingStructure,
    Limit,
    Street,
    straddle_size,
)
from engine.cards import Card, Deck
from engine.common import Event, Move, RuleError
from engine.holdem_types import (
    NEXT_STREET,
    BlindPosted,
    HandResult,
    HandStarted,
    HoleCardsDealt,
    LegalActions,
    PawnRules,
    RabbitHunted,
    SeatPlayer,
    Variant,
)
from engine.reasons import Reason
from engine.runs import RunQuestion
from engine.showdown import Showdown, ShowdownRules


@dataclass(slots=True)
class _Seat:
    """A player's state inside the hand (mutable, private)."""

    id: str
    stack: int
    start_stack: int
    hole: list[Card]
    bet: int = 0
    contributed: int = 0
    folded: bool = False
    acted: bool = False
    level: int = 0
    raises: int = 0
    pawned: int = 0
    absent: bool = False
    pre: str = ""  # his pre-action (a PreAction's value) for this betting round, "" when none
    pre_bet: int = 0  # the bet his "call N" pre-action calls

    # written out, not generated: see bot/compiled.py
    def __init__(self, id: str, stack: int, start_stack: int, hole: list[Card], bet: int = 0, contributed: int = 0,
                 folded: bool = False, acted: bool = False, level: int = 0, raises: int = 0, pawned: int = 0,
                 absent: bool = False, pre: str = "", pre_bet: int = 0) -> None:
        self.id = id
        self.stack = stack
        self.start_stack = start_stack
        self.hole = hole
        self.bet = bet
        self.contributed = contributed
        self.folded = folded
        self.acted = acted
        self.level = level
        self.raises = raises
        self.pawned = pawned
        self.absent = absent
        self.pre = pre
        self.pre_bet = pre_bet

    @property
    def account(self) -> str:
        """The local ledger account of his stack."""
        return f"stack:{self.id}"

    def to_dict(self) -> dict[str, Any]:
        """His saved state: every field in order, the hole cards last, as text (written out: every snapshot holds
        each seat)."""
        return {"id": self.id, "stack": self.stack, "start_stack": self.start_stack, "bet": self.bet,
                "contributed": self.contributed, "folded": self.folded, "acted": self.acted, "level": self.level,
                "raises": self.raises, "pawned": self.pawned, "absent": self.absent, "pre": self.pre,
                "pre_bet": self.pre_bet, "hole": [card.text for card in self.hole]}


class HandState:
    """A hand's state, its start, its reading and its saving: the base of `Hand`'s chain, below its end
    (`engine.holdem_showdown.ShowdownPhases`) and its betting rounds (`Hand`)."""

    def __init__(self, *, seats: list[_Seat], button: int, level: int, structure: BettingStructure, deck: Deck,
                 hand_number: int, pawn_rules: PawnRules, variant: Variant = Variant.HOLDEM,
                 rules: ShowdownRules | None = None) -> None:
        self.variant = variant
        self._seats = seats
        self._by_id = {seat.id: seat for seat in seats}
        self._players = tuple(seat.id for seat in seats)
        self._button = button
        self.level = level
        self.structure = structure
        self._deck = deck
        self.hand_number = hand_number
        self.pawn_rules = pawn_rules
        self.street = Street.PREFLOP
        self._board: list[Card] = []
        self._to_act: int | None = None
        self._current_bet = 0
        self._raise_base = 0  # the last wager that counted: the next raise goes a raise size above it
        self._raise_increment = 0
        self._bet_count = 0
        self._uncapped = False
        self._pot = 0
        self.result: HandResult | None = None
        self.rules = rules or ShowdownRules()
        self._last_aggressor: str | None = None  # who bet or raised last on the river: he shows first
        self._showdown: Showdown | None = None
        self._runs: RunQuestion | None = None
        self._run_count = 0  # 0 until the board's runs are settled (or no question was asked), then 1 or 2
        self._board2: list[Card] = []
        self._legal: LegalActions | None = None  # the player to act's choices, until the next action changes them

    def _put_in(self, seat: _Seat, amount: int, reason: Reason) -> Move:
        raise NotImplementedError  # Hand's

    def _begin_round(self, after: int) -> list[Event]:
        raise NotImplementedError  # Hand's

    def _play_automatic(self) -> list[Event]:
        raise NotImplementedError  # Hand's

    # --- starting ------------------------------------------------------------------------------------------

    @classmethod
    def start(cls, players: Sequence[SeatPlayer], button: int, level: int, structure: BettingStructure, deck: Deck,
              hand_number: int, pawn_rules: PawnRules | None = None, *, straddle: bool = False,
              posting: Collection[str] = (), absent: Collection[str] = (),
              variant: Variant = Variant.HOLDEM, rules: ShowdownRules | None = None,
              level_number: int | None = None) -> tuple[Self, list[Event]]:
        """Seat the players (clockwise order; `button` indexes this list), post blinds, deal, and return the hand
        with its events. `straddle`: the player left of the big blind posts a straddle (see `verify_straddle`);
        `posting`: returning players who post a live big blind wherever they sit, the small blind's seat included;
        `absent`: players dealt in whose hands are folded at their turns, at once; `variant`: Hold'em or Omaha;
        `level_number`: a tournament level's number, for the record (`HandStarted`).
        Raises a RuleError (`too_many_players`, a straddle refused) when more players are in play than the variant
        deals to (MAX_PLAYERS in Hold'em), and ValueError for a setup the application should never make (fewer than
        two players in play, repeated ids, a level under 2). Either way nothing has been dealt."""
        if level < 2:
            raise ValueError(f"level {level} is too small: blinds are level // 2 and level")
        if len({player.id for player in players}) != len(players):
            raise ValueError("player ids repeat")
        in_play = [index for index, player in enumerate(players) if not player.sitting_out and player.stack > 0]
        if len(in_play) < 2:
            raise ValueError("a hand needs two players with chips")
        if len(in_play) > variant.max_players:
            raise RuleError("too_many_players", f"one deck deals at most {variant.max_players} players",
                            max=variant.max_players)
        holder = next((button - back) % len(players) for back in range(len(players))
                      if (button - back) % len(players) in in_play)
        seats = [_Seat(players[index].id, players[index].stack, players[index].stack, []) for index in in_play]
        hand = cls(seats=seats, button=in_play.index(holder), level=level, structure=structure, deck=deck,
                   hand_number=hand_number, pawn_rules=pawn_rules or PawnRules(), variant=variant, rules=rules)
        if straddle:
            hand.verify_straddle()
        for seat in seats:
            seat.absent = seat.id in absent
        events = hand._open(straddle=straddle, posting=frozenset(posting), level_number=level_number)
        return hand, events + hand._play_automatic()

    @property
    def straddler(self) -> str | None:
        """The player who may straddle in this deal: the one left of the big blind, with three players or more."""
        count = len(self._seats)
        if count < 3:
            return None
        return self._seats[(self._button + 3) % count].id

    def verify_straddle(self) -> None:
        """Raise a RuleError unless a straddle may be posted: no-limit or pot-limit, three players or more, and the
        straddler has more than the straddle (he must not be all-in before the cards)."""
        if self.structure.limit is Limit.FIXED:
            raise RuleError("straddle_limit", "a straddle is played only in no-limit and pot-limit")
        straddler = self.straddler
        if straddler is None:
            raise RuleError("straddle_heads_up", "a straddle needs three players or more")
        if self._by_id[straddler].stack <= straddle_size(self.level):
            raise RuleError("straddle_short", "the straddler has too few chips", chips=straddle_size(self.level))

    def _open(self, *, straddle: bool = False, posting: frozenset[str] = frozenset(),
              level_number: int | None = None) -> list[Event]:
        count = len(self._seats)
        events: list[Event] = [HandStarted(
            hand_number=self.hand_number, players=tuple(seat.id for seat in self._seats),
            button=self._seats[self._button].id, stacks={seat.id: seat.stack for seat in self._seats},
            level=self.level, structure=self.structure.name, variant=str(self.variant), level_number=level_number)]
        big_index = self._big_blind_index()
        small_index = (big_index - 1) % count
        for index, (name, blind) in zip((small_index, big_index), zip(("small", "big"),
                                        self.structure.blinds(self.level), strict=True), strict=True):
            seat = self._seats[index]
            if seat.id in posting:  # a returning player posts a big blind, even from the small blind's seat
                name, blind = "big", self.level
            amount = min(blind, seat.stack)
            move = self._put_in(seat, amount, Reason.SMALL_BLIND if name == "small" else Reason.BIG_BLIND)
            events.append(BlindPosted(player=seat.id, blind=name, amount=amount, is_all_in=seat.stack == 0,
                                      moves=(move,)))
        last_blind = big_index
        straddle_index = (big_index + 1) % count if straddle else None
        for index, seat in enumerate(self._seats):  # returning players' live big blinds, out of position
            if seat.id in posting and index not in (small_index, big_index, straddle_index) and seat.stack:
                amount = min(self.level, seat.stack)
                move = self._put_in(seat, amount, Reason.BIG_BLIND)
                events.append(BlindPosted(player=seat.id, blind="big", amount=amount, is_all_in=seat.stack == 0,
                                          moves=(move,)))
        if straddle_index is not None:
            seat = self._seats[straddle_index]
            chips = straddle_size(self.level)
            move = self._put_in(seat, chips, Reason.STRADDLE)
            events.append(BlindPosted(player=seat.id, blind="straddle", amount=chips, is_all_in=False, moves=(move,)))
        order = self._order_from_button()
        cards = self._deck.deal(self.variant.hole_cards * len(order))  # one at a time around the table:
        for position, seat in enumerate(order):  # the seat at `position` gets every len(order)-th card from it
            seat.hole.extend(cards[position::len(order)])
        events.extend(HoleCardsDealt(player=seat.id, cards=tuple(seat.hole), visible_to=seat.id) for seat in order)
        self._current_bet = self._raise_base = self.level
        self._raise_increment = self.structure.bet_size(Street.PREFLOP, self.level)
        self._bet_count = 1
        if straddle_index is not None:  # a live blind of twice the big blind: raises are measured from it
            self._current_bet = self._raise_base = self._raise_increment = straddle_size(self.level)
            self._bet_count = 2
            last_blind = straddle_index
        self._uncapped = self.structure.uncapped_heads_up and count == 2
        events.extend(self._begin_round(after=last_blind))
        return events

    # --- reading -------------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (pots awarded)."""
        return self.result is not None

    @property
    def to_act(self) -> str | None:
        """The id of the player to act, None when the hand is over."""
        return None if self._to_act is None else self._seats[self._to_act].id

    @property
    def players(self) -> tuple[str, ...]:
        """The players dealt in, in table order."""
        return self._players

    @property
    def button(self) -> str:
        """The player holding the button."""
        return self._seats[self._button].id

    @property
    def big_blind(self) -> str:
        """The player in the big blind's place: the second after the button, heads-up the one after it."""
        return self._seats[self._big_blind_index()].id

    def _big_blind_index(self) -> int:
        count = len(self._seats)
        return (self._button + (1 if count == 2 else 2)) % count

    @property
    def stacks(self) -> dict[str, int]:
        """Chips behind for each player (not counting what he has in the pot)."""
        return {seat.id: seat.stack for seat in self._seats}

    @property
    def starting_stacks(self) -> dict[str, int]:
        """Each player's chips when the hand was dealt."""
        return {seat.id: seat.start_stack for seat in self._seats}

    @property
    def bets(self) -> dict[str, int]:
        """What each player has bet on the current street."""
        return {seat.id: seat.bet for seat in self._seats}

    @property
    def folded(self) -> frozenset[str]:
        """The players who folded."""
        return frozenset(seat.id for seat in self._seats if seat.folded)

    @property
    def acted(self) -> tuple[str, ...]:
        """The players who have acted on the current street (a new street clears it): his turn comes back to such a
        player only after a bet, so a "check" he chose could never play."""
        return tuple([seat.id for seat in self._seats if seat.acted])  # a list first: faster than a generator

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far."""
        return tuple(self._board)

    @property
    def pot_total(self) -> int:
        """All chips in the pot, this street's bets included."""
        return self._pot

    @property
    def current_bet(self) -> int:
        """The bet to match on this street."""
        return self._current_bet

    def rabbit_cards(self) -> tuple[Card, ...]:
        """The board cards a hand that ended before the river would have dealt (RULES.md §1a "Rabbit hunt"): the next
        cards of its deck in deal order, a burn skipped before each street. Nothing changes. RuleError while the hand
        runs (`rabbit_running`) or when the board is complete (`rabbit_river`)."""
        if self.result is None:
            raise RuleError("rabbit_running", "the hand is still being played")
        if len(self._board) == 5:
            raise RuleError("rabbit_river", "the hand went to the river: no cards are left to see")
        rest = Deck.from_list(self._deck.to_list())
        cards: list[Card] = []
        street: Street = self.street
        while street in NEXT_STREET:
            street, count = NEXT_STREET[street]
            rest.deal(1)
            cards.extend(rest.deal(count))
        return tuple(cards)

    def rabbit_hunt(self, player_id: str) -> list[Event]:
        """The rabbit hunt as the event that records it (`rabbit_cards`, with its refusals)."""
        return [RabbitHunted(player=player_id, hand_number=self.hand_number, board=tuple(self._board),
                             cards=self.rabbit_cards())]

    def hole_cards(self, player_id: str) -> tuple[Card, ...]:
        """A player's hole cards, two or four (private: show them to him only)."""
        return tuple(self._seat(player_id).hole)

    def _seat(self, player_id: str) -> _Seat:
        try:
            return self._by_id[player_id]
        except KeyError:
            raise RuleError("not_in_hand", f"{player_id} is not in this hand", player=player_id) from None

    def _order_from_button(self) -> list[_Seat]:
        count = len(self._seats)
        return [self._seats[(self._button + step) % count] for step in range(1, count + 1)]

    # --- saving --------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as a JSON-able dict (remaining deck included)."""
        # a str enum's text by `str()`, which C reads, not by `.value`, a Python property even in the compiled build
        return {
            "hand_number": self.hand_number, "variant": str(self.variant), "level": self.level,
            "structure": self.structure.to_dict(),
            "pawn_rules": self.pawn_rules.to_dict(), "button": self._button, "street": str(self.street),
            "board": [card.text for card in self._board], "deck": self._deck.to_list(), "to_act": self._to_act,
            "current_bet": self._current_bet, "raise_base": self._raise_base, "raise_increment": self._raise_increment,
            "bet_count": self._bet_count, "uncapped": self._uncapped, "pot": self._pot,
            "seats": [seat.to_dict() for seat in self._seats],
            "result": None if self.result is None else self.result.to_dict(),
            "rules": self.rules.to_dict(), "last_aggressor": self._last_aggressor,
            "showdown": None if self._showdown is None else self._showdown.to_dict(),
            "runs": None if self._runs is None else self._runs.to_dict(), "run_count": self._run_count,
            "board2": [card.text for card in self._board2],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a hand saved by `to_dict`; it continues exactly as the original would."""
        seats = [_Seat(**{**raw, "hole": [Card.parse(card) for card in raw["hole"]]}) for raw in data["seats"]]
        hand = cls(seats=seats, button=data["button"], level=data["level"],
                   structure=BettingStructure.from_dict(data["structure"]), deck=Deck.from_list(data["deck"]),
                   hand_number=data["hand_number"], pawn_rules=PawnRules.from_dict(data["pawn_rules"]),
                   variant=Variant(data.get("variant", Variant.HOLDEM.value)),  # hands saved before Omaha
                   rules=ShowdownRules.from_dict(data.get("rules")))
        hand.street = Street(data["street"])
        hand._board = [Card.parse(card) for card in data["board"]]
        hand._to_act = data["to_act"]
        hand._current_bet = data["current_bet"]
        hand._raise_base = data.get("raise_base", data["current_bet"])  # hands saved before it was kept
        hand._raise_increment = data["raise_increment"]
        hand._bet_count = data["bet_count"]
        hand._uncapped = data["uncapped"]
        hand._pot = data["pot"]
        hand.result = None if data["result"] is None else HandResult.from_dict(data["result"])
        hand._last_aggressor = data.get("last_aggressor")  # hands saved before show-or-muck have none of these
        hand._showdown = Showdown.from_dict(data["showdown"]) if data.get("showdown") else None
        hand._runs = RunQuestion.from_dict(data["runs"]) if data.get("runs") else None
        hand._run_count = data.get("run_count", 0)
        hand._board2 = [Card.parse(card) for card in data.get("board2", ())]
        return hand
