"""One hand of Texas Hold'em (RULES.md §1) or Pot-Limit Omaha (§1b) as a pure state machine: blinds, four betting
rounds, pots, showdown. Omaha differs only in the deal (four hole cards: `Variant`) and the showdown (exactly two hole
cards with three of the board); its pot limit is a betting structure like the others.

Where the rules are silent, this follows a card room and pokerkit's model:
- dealing: hole cards one at a time from the player left of the button; one card burned before each street;
- a player sitting out, or with no chips, is dealt out; if the button's seat is out, the nearest seat in play at or
  before it (counter-clockwise) holds the button, so the blinds still fall to the seats after it;
- a big blind short of the blind still makes the others call the full blind; the excess comes back as uncalled;
  a player owes nothing beyond the largest bet of the others, so one whose small blind already covers a short all-in
  big blind, with nobody left who could act against it, is not asked to call or fold (RULES.md §1);
- folding is refused when checking is free (`timeout_action()` gives the check-or-fold a time-out should play);
- a player with no decision to make (nothing owed, and no one left who could call a raise) is not asked to act;
- a raise needs a player who could call it, so the all-in of a player who covers every other player left (each
  all-in already) is a call: all of his chips that can be matched;
- a player who already acted may raise again only if the bet grew since by a full raise in no limit, by at least
  half a bet in fixed limit (TDA 47-B) (so several short all-ins that add up to that do reopen the betting);
- fixed limit: an all-in bet or raise of at least half a bet counts as a full one (it reopens the betting, counts
  toward the cap, and the next raise is a full bet over it); below half it counts for nothing but the chips to call,
  and the next bet or raise *completes* it: it goes to a full bet over the last wager that counted (facing an all-in
  bet of 3 in a 10-chip round, to 10), and is the round's bet or raise toward the cap;
- `home-limit`'s one raise per player and round does not count the opening bet (the seed limits raising), a
  completion of a short all-in opening bet included;
- in no limit every bet or raise, a short all-in too, counts toward a round's cap (if one is set); the big blind is
  the first bet preflop; a cap's "heads-up" means only two players in the hand when the round starts;
- pot limit: the largest bet or raise is to the current bet plus the pot after the player's call (the pot, every bet
  in front, and his call), even when the bet to call is a short big blind; otherwise as no limit;
- at showdown every player still in shows, unless the hand's `ShowdownRules` let players muck (`engine.showdown`
  says in what order and when); odd chips go one each to the winners from the button's left;
- run it twice (`engine.runs`): the question is put once betting is over with cards to come (no-limit and pot-limit);
  the first board is completed from the deck (a burn before each street), then the second from the next cards (a burn
  before each street again);
- pawning happens on the player's turn, when short of the call; it does not use up his turn;
- table options (RULES.md §1a): a straddle (no-limit and pot-limit) is a live blind of twice the big blind posted by
  the player left of the big blind: raises are measured from it and he acts last preflop; a returning player who
  posts a big blind out of position posts a live one (he has the option as the big blind does), and one who sits in
  the small blind posts the big blind's size there, not the small blind (RULES.md §1a: he "posts a big blind"), live
  too; an absent player (a tournament's, blinded out) has his hand folded the moment his turn comes, even where
  checking is free; a pre-action (`engine.preactions`) plays the moment its player's turn comes, if it still
  applies.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.betting import (
    FIXED_LIMIT,
    HOME_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    STRUCTURES,
    BettingStructure,
    Limit,
    Street,
    owed_to_call,
    straddle_size,
)
from engine.cards import Card, Deck
from engine.common import Event, IllegalAmount, Move, NotYourTurn, RuleError, allowed
from engine.hands import ranks_of
from engine.holdem_showdown import NEXT_STREET as _NEXT_STREET
from engine.holdem_showdown import ShowdownPhases, category_name
from engine.holdem_types import (
    Action,
    AllIn,
    Bet,
    BlindPosted,
    BoardDealt,
    Call,
    CardsShown,
    Check,
    Fold,
    HandEnded,
    HandMucked,
    HandResult,
    HandsShown,
    HandStarted,
    HoleCardsDealt,
    ItemPawned,
    LegalActions,
    Pawn,
    PawnRules,
    PlayerBet,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    PlayerRaised,
    PotAward,
    PotAwarded,
    RabbitHunted,
    RaiseTo,
    RunsChosen,
    RunsOffered,
    RunsSettled,
    SeatPlayer,
    UncalledBetReturned,
    Variant,
)
from engine.pots import build_pots
from engine.preactions import PreAction, cancelled_by, pre_action_play, pre_action_refusal
from engine.reasons import Reason
from engine.runs import RunQuestion, award_runs
from engine.showdown import Showdown, ShowdownRules

__all__ = [  # the hand and the vocabulary it speaks (re-exported from holdem_types and betting)
    "FIXED_LIMIT", "HOME_LIMIT", "MAX_PLAYERS", "NO_LIMIT", "POT_LIMIT", "STRUCTURES", "Action", "AllIn", "Bet",
    "BettingStructure", "BlindPosted", "BoardDealt", "Call", "CardsShown", "Check", "Fold", "Hand", "HandEnded",
    "HandMucked", "HandResult", "HandStarted", "HandsShown", "HoleCardsDealt", "ItemPawned", "LegalActions", "Limit",
    "Pawn", "PawnRules", "PlayerBet", "PlayerCalled", "PlayerChecked", "PlayerFolded", "PlayerRaised", "PotAward",
    "PotAwarded", "RabbitHunted", "RaiseTo", "RunsChosen", "RunsOffered", "RunsSettled", "SeatPlayer",
    "ShowdownRules", "Street", "UncalledBetReturned", "Variant",
]

MAX_PLAYERS = Variant.HOLDEM.max_players
"""The most players one deck deals a Hold'em hand to: two hole cards each, three burns and five board cards
(2n + 8 <= 52); Omaha deals at most `Variant.OMAHA.max_players` (11)."""


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


class Hand(ShowdownPhases):
    """A hand of Hold'em or Omaha in progress or finished. Build it with `Hand.start`, drive it with `act`."""

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

    # --- starting ------------------------------------------------------------------------------------------

    @classmethod
    def start(cls, players: Sequence[SeatPlayer], button: int, level: int, structure: BettingStructure, deck: Deck,
              hand_number: int, pawn_rules: PawnRules | None = None, *, straddle: bool = False,
              posting: Collection[str] = (), absent: Collection[str] = (),
              variant: Variant = Variant.HOLDEM, rules: ShowdownRules | None = None,
              level_number: int | None = None) -> tuple[Hand, list[Event]]:
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
            level=self.level, structure=self.structure.name, variant=self.variant.value, level_number=level_number)]
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
        while street in _NEXT_STREET:
            street, count = _NEXT_STREET[street]
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

    # --- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """What the player to act may do, with amounts. RuleError when the hand is over.

        Worked out once per turn (the controller, the table's text and its buttons all ask): `act` and `_end_round`,
        through which every change of the betting goes, forget it."""
        if self._to_act is None:
            raise RuleError("hand_over", "the hand is over")
        if self._legal is None:
            self._legal = self._legal_actions(self._seats[self._to_act])
        return self._legal

    def _legal_actions(self, seat: _Seat) -> LegalActions:
        owed = self._owed(seat)
        may_raise = self._raise_refusal(seat) is None
        low, high = self._raise_bounds(seat) if may_raise else (0, 0)
        all_in = seat.stack if seat.stack <= owed or (may_raise and high == seat.bet + seat.stack) else 0
        return LegalActions(
            player=seat.id, can_fold=owed > 0, can_check=owed == 0, call_amount=min(owed, seat.stack),
            can_bet=may_raise and self._current_bet == 0, can_raise=may_raise and self._current_bet > 0,
            min_to=low, max_to=high, all_in=all_in,
            can_pawn=seat.stack < owed and self._pawn_refusal(seat, owed) is None)  # short first: no refusal built

    def timeout_action(self) -> Action:
        """What a player who ran out of time plays: check when free, else fold."""
        return Check() if self.legal_actions().can_check else Fold()

    def _raise_refusal(self, seat: _Seat) -> RuleError | None:
        """Why this player may not bet or raise now, or None when he may."""
        rules = self.structure
        if seat.stack <= self._current_bet - seat.bet:
            return RuleError("raise_short", "you can only call all-in or fold")
        if rules.raises_per_player is not None and self._current_bet > 0 and seat.raises >= rules.raises_per_player:
            return RuleError("raise_limit", "you may raise only once per betting round", limit=rules.raises_per_player)
        if rules.bets_per_round is not None and not self._uncapped and self._bet_count >= rules.bets_per_round:
            return RuleError("raise_cap", "the betting is capped for this round", cap=rules.bets_per_round)
        if seat.acted and not self._reopens(self._current_bet - seat.level):
            return RuleError("not_reopened", "a short all-in does not reopen the betting: call or fold")
        if not self._someone_could_call(seat):
            return RuleError("nobody_to_raise", "no one left could call a raise")
        return None

    def _raise_bounds(self, seat: _Seat) -> tuple[int, int]:
        """The smallest and largest total a bet or raise may go to (an all-in below the minimum counts)."""
        everything = seat.bet + seat.stack
        low = min(self._raise_base + self._raise_increment, everything)
        if self.structure.limit is Limit.FIXED:
            return low, low
        if self.structure.limit is Limit.POT_LIMIT:
            return low, max(low, min(everything, self._pot_limit_to(seat)))
        return low, everything

    def _pot_limit_to(self, seat: _Seat) -> int:
        """The pot-limit raise: to the current bet plus the pot after this player's call."""
        call = self._current_bet - seat.bet
        return self._current_bet + self._pot + call

    def _pawn_refusal(self, seat: _Seat, owed: int) -> RuleError | None:
        """Why this player, who owes `owed` chips, may not pawn now, or None when he may."""
        if self.pawn_rules.value <= 0:
            return RuleError("pawn_disabled", "pawning is not allowed at this table")
        if seat.folded or seat.stack == 0:
            return RuleError("pawn_not_in_hand", "only a player still in the hand with chips may pawn")
        if seat.stack >= owed:
            return RuleError("pawn_not_short", "you can still call: pawn only when short of the call")
        return None

    # --- verify / can / do ---------------------------------------------------------------------------------

    def verify_action(self, player_id: str, action: Action) -> None:
        """Raise a RuleError (NotYourTurn, IllegalAmount…) with a reason unless the action is legal now."""
        self._verified(player_id, action)

    def _verified(self, player_id: str, action: Action) -> tuple[_Seat, int]:
        """`verify_action`, returning the player's seat and the chips he owes (what `act` goes on with)."""
        if self._to_act is None:
            raise RuleError("hand_over", "the hand is over")
        seat = self._seat(player_id)
        if seat is not self._seats[self._to_act]:
            raise NotYourTurn("not_your_turn", f"it is {self.to_act}'s turn", player=player_id, to_act=self.to_act)
        owed = self._owed(seat)
        match action:
            case Fold():
                if owed <= 0 and not seat.absent:  # an absent player's hand is folded (RULES.md §1a, Away)
                    raise RuleError("fold_free", "nothing to call: check instead of folding")
            case Check():
                if owed > 0:
                    raise self._check_refusal(seat, owed)
            case Call():
                if owed <= 0:
                    raise RuleError("nothing_to_call", "nothing to call: check or bet")
            case Bet(amount) | RaiseTo(amount):
                self._verify_raise(seat, amount, is_bet=isinstance(action, Bet))
            case AllIn():
                if not isinstance(self._all_in_as(seat, owed), Call):
                    self._verify_raise(seat, seat.bet + seat.stack, is_bet=self._current_bet == 0)
            case Pawn(item):
                refusal = self._pawn_refusal(seat, owed)
                if refusal is not None:
                    raise refusal
                self.pawn_rules.verify_item(item)
            case _:
                raise RuleError("unknown_action", f"unknown action {action!r}")
        return seat, owed

    def _all_in_as(self, seat: _Seat, owed: int) -> Action:
        """What the player's all-in is: a call when his stack does not cover what he owes, or when he owes chips and
        nobody left could call more (every other player is all-in or has folded: an all-in puts in only what can be
        matched, as a card room takes it, and he owes nothing beyond the largest bet of the others); otherwise a bet
        or raise to his whole stack."""
        if seat.stack <= owed or (owed > 0 and not self._someone_could_call(seat)):
            return Call()
        total = seat.bet + seat.stack
        return Bet(total) if self._current_bet == 0 else RaiseTo(total)

    def _check_refusal(self, seat: _Seat, owed: int) -> RuleError:
        """Why a player who owes chips may not check, naming only what he may do instead."""
        if seat.stack <= owed:
            return RuleError("check_owes_all_in", f"you owe more than your stack: call all-in ({seat.stack}) or fold",
                             owed=seat.stack)
        if self._raise_refusal(seat) is not None:
            return RuleError("check_owes_no_raise", f"you owe {owed}: call or fold", owed=owed)
        return RuleError("check_owes", f"you owe {owed}: call, raise or fold", owed=owed)

    def _verify_raise(self, seat: _Seat, to: int, *, is_bet: bool) -> None:
        if type(to) is not int:  # chips are whole numbers (and True is not one)
            raise IllegalAmount("amount_not_chips", f"{to!r} is not a whole number of chips", amount=str(to))
        if is_bet and self._current_bet > 0:
            raise RuleError("bet_faces_bet", "there is already a bet: call or raise")
        if not is_bet and self._current_bet == 0:
            raise RuleError("raise_without_bet", "nobody has bet: bet instead")
        refusal = self._raise_refusal(seat)
        if refusal is not None:
            raise refusal
        low, high = self._raise_bounds(seat)
        if self.structure.limit is Limit.POT_LIMIT and to > high and high < seat.bet + seat.stack:
            raise IllegalAmount("over_pot_limit", f"pot limit: bet or raise to at most {high}", amount=to, min=low,
                                max=high)
        if not low <= to <= high:
            what = "bet" if is_bet else "raise"
            text = f"the {what} must be {low}" if low == high else f"the {what} must be from {low} to {high}"
            raise IllegalAmount("amount_range", text, amount=to, min=low, max=high)

    def can_act(self, player_id: str, action: Action) -> bool:
        """Whether `verify_action` would accept the action."""
        return allowed(self.verify_action, player_id, action)

    def act(self, player_id: str, action: Action) -> list[Event]:
        """Apply a legal action and everything it sets off (next street, showdown…); return the events."""
        seat, owed = self._verified(player_id, action)
        assert self._to_act is not None
        self._legal = None
        index = self._to_act
        if isinstance(action, AllIn):
            action = self._all_in_as(seat, owed)
        events: list[Event] = []
        match action:
            case Pawn(item):
                value = self.pawn_rules.value
                seat.stack += value
                seat.pawned += value
                move = Move("bank", seat.account, value, Reason.PAWN)
                return [ItemPawned(player=seat.id, item=item.strip(), value=value, hand_number=self.hand_number,
                                   moves=(move,))]
            case Fold():
                seat.folded = True
                events.append(PlayerFolded(player=seat.id))
            case Check():
                events.append(PlayerChecked(player=seat.id))
            case Call():
                amount = min(owed, seat.stack)
                move = self._put_in(seat, amount, Reason.CALL)
                events.append(PlayerCalled(player=seat.id, amount=amount, is_all_in=seat.stack == 0, moves=(move,)))
            case Bet(to) | RaiseTo(to):
                events.append(self._raise_to(seat, to))
        seat.acted = True
        seat.level = self._current_bet
        seat.pre = ""
        street = self.street
        following = self._next_needing(index)  # None too when one player is left: nobody owes him or could call
        if following is None:
            events.extend(self._end_round())
        else:
            self._to_act = following
        new_street = self.street is not street
        for other in self._seats:  # a new street clears every pre-action, a bet each "check" and "call N"
            if other.pre and (new_street or cancelled_by(PreAction(other.pre), action)):
                other.pre = ""
        return events + self._play_automatic()

    # --- pre-actions and absent players ------------------------------------------------------------------------

    def pre_action(self, player_id: str) -> PreAction | None:
        """The player's pre-action for this betting round, if he chose one."""
        seat = self._seat(player_id)
        return PreAction(seat.pre) if seat.pre else None

    def verify_pre_action(self, player_id: str, pre: PreAction, chips: int = 0) -> None:
        """Raise a RuleError unless the player may choose this pre-action now: he is in the hand, not all-in, not
        the player to act (he acts instead), for "check" owes nothing yet and has not acted on this street (see
        `engine.preactions`), and for "call N" owes chips to a bet that is still `chips`."""
        if self._to_act is None:
            raise RuleError("hand_over", "the hand is over")
        seat = self._seat(player_id)
        if seat.folded or seat.stack == 0:
            raise RuleError("pre_not_in_hand", "you have no decision left in this hand")
        if seat is self._seats[self._to_act]:
            raise RuleError("pre_your_turn", "it is your turn: act now")
        refusal = pre_action_refusal(pre, owed=self._owed(seat), bet=self._current_bet, chips=chips, acted=seat.acted)
        if refusal is not None:
            raise refusal

    def set_pre_action(self, player_id: str, pre: PreAction | None, chips: int = 0) -> None:
        """Choose a pre-action (verified, see `verify_pre_action`; `chips`: the bet "call N" calls), or cancel one
        (None)."""
        if pre is not None:
            self.verify_pre_action(player_id, pre, chips)
        seat = self._seat(player_id)
        seat.pre, seat.pre_bet = ("", 0) if pre is None else (pre.value, chips)

    def set_absent(self, player_id: str, absent: bool) -> list[Event]:
        """Mark a player absent (his hand is folded at his turn, at once: now if it is his turn, the events) or back."""
        self._seat(player_id).absent = absent
        return self._play_automatic() if absent else []

    def _play_automatic(self) -> list[Event]:
        """Play the turn of the player to act if it is decided already: he is absent (his hand folded), or his
        pre-action still applies (a "check" facing a bet is dropped and he decides himself)."""
        if self._to_act is None:
            return []
        seat = self._seats[self._to_act]
        if seat.absent:
            return self.act(seat.id, Fold())
        if seat.pre:
            play = pre_action_play(PreAction(seat.pre), self.legal_actions(), bet=self._current_bet,
                                   chips=seat.pre_bet)
            seat.pre = ""
            if play is not None:
                return self.act(seat.id, play)
        return []

    def _raise_to(self, seat: _Seat, to: int) -> Event:
        previous = self._current_bet
        amount = to - seat.bet
        move = self._put_in(seat, amount, Reason.BET if previous == 0 else Reason.RAISE)
        if self.structure.limit is not Limit.FIXED:
            self._raise_increment = max(self._raise_increment, to - previous)
        if self.structure.limit is not Limit.FIXED or self._reopens(to - self._raise_base):
            if self._raise_base > 0:  # a raise of a wager that counted, not the round's opening bet
                seat.raises += 1
            self._bet_count += 1
            self._raise_base = to
        self._current_bet = to
        if self.street is Street.RIVER:
            self._last_aggressor = seat.id
        if previous == 0:
            return PlayerBet(player=seat.id, amount=amount, is_all_in=seat.stack == 0, moves=(move,))
        return PlayerRaised(player=seat.id, to=to, amount=amount, is_all_in=seat.stack == 0, moves=(move,))

    def _reopens(self, growth: int) -> bool:
        """Whether a bet grown by `growth` chips counts as a full bet or raise: in no limit and pot limit it must be a
        full raise, in fixed limit at least half a bet (TDA 47-B; `_raise_increment` is then the street's fixed
        size)."""
        if self.structure.limit is not Limit.FIXED:
            return growth >= self._raise_increment
        return 2 * growth >= self._raise_increment

    def _put_in(self, seat: _Seat, amount: int, reason: Reason) -> Move:
        seat.stack -= amount
        seat.bet += amount
        seat.contributed += amount
        self._pot += amount
        return Move(seat.account, "pot", amount, reason)

    # --- rounds and streets --------------------------------------------------------------------------------

    def _owed(self, seat: _Seat) -> int:
        """The chips the player must put in to stay in: up to the current bet (the full big blind, when the blind
        is short) while someone else has bet more than he has; nothing once he covers every other bet."""
        return owed_to_call(self._current_bet, seat.bet,
                            (other.bet for other in self._seats if not other.folded and other is not seat))

    def _needs_action(self, seat: _Seat) -> bool:
        """Whether the player has a decision to make: he owes chips, or has not acted and a raise could be called."""
        if seat.folded or seat.stack == 0:
            return False
        if self._owed(seat) > 0:
            return True
        return not seat.acted and self._someone_could_call(seat)

    def _someone_could_call(self, seat: _Seat) -> bool:
        """Whether another player in the hand has chips beyond the current bet (so a raise means something)."""
        for other in self._seats:
            if other is not seat and not other.folded and other.stack + other.bet > self._current_bet:
                return True
        return False

    def _next_needing(self, after: int) -> int | None:
        count = len(self._seats)
        for step in range(1, count + 1):
            index = (after + step) % count
            if self._needs_action(self._seats[index]):
                return index
        return None

    def _begin_round(self, after: int) -> list[Event]:
        first = self._next_needing(after)
        if first is None:
            return self._end_round()
        self._to_act = first
        return []

    def _end_round(self) -> list[Event]:
        self._to_act = None
        self._legal = None
        events: list[Event] = []
        top = self._seats[0]  # the first of the highest bets, and the highest of the others
        for seat in self._seats:
            if seat.bet > top.bet:
                top = seat
        second = max([seat.bet for seat in self._seats if seat is not top], default=0)
        if top.bet > second:
            excess = top.bet - second
            top.bet -= excess
            top.contributed -= excess
            top.stack += excess
            self._pot -= excess
            events.append(UncalledBetReturned(player=top.id, amount=excess,
                                              moves=(Move("pot", top.account, excess, Reason.UNCALLED_BET),)))
        live = [seat for seat in self._seats if not seat.folded]
        if len(live) == 1:
            return events + self._award(live, showdown=False)
        if self.street is Street.RIVER:
            return events + self._begin_showdown(live)
        if self._run_count == 0 and self._offers_runs(live):
            if not self._deck_runs_twice():
                self._run_count = 1  # settled now: not asked on a later street either
            else:
                self._runs = RunQuestion(tuple(seat.id for seat in live))
                return [*events, RunsOffered(players=self._runs.asked)]
        if self._run_count == 2:
            return events + self._run_twice(live)
        self.street, count = _NEXT_STREET[self.street]
        self._deck.deal(1)
        cards = self._deck.deal(count)
        self._board.extend(cards)
        events.append(BoardDealt(street=self.street, cards=tuple(cards), board=tuple(self._board)))
        for seat in self._seats:
            seat.bet = seat.level = seat.raises = 0
            seat.acted = False
        self._current_bet = self._raise_base = 0
        self._raise_increment = self.structure.bet_size(self.street, self.level)
        self._bet_count = 0
        self._uncapped = self.structure.uncapped_heads_up and len(live) == 2
        return events + self._begin_round(after=self._button)

    def _award(self, live: list[_Seat], *, showdown: bool) -> list[Event]:
        events: list[Event] = []
        order = [seat for seat in self._order_from_button() if not seat.folded]
        mucked = [] if self._showdown is None else list(self._showdown.mucked)
        contenders = [seat.id for seat in order if seat.id not in mucked]
        pots = build_pots({seat.id: seat.contributed for seat in self._seats}, [seat.id for seat in order])
        boards = [self._board, self._board2] if self._run_count == 2 else [self._board]
        shown = {player: tuple(self._by_id[player].hole) for player in contenders} if showdown else {}
        categories: list[dict[str, str]] = []
        strengths: list[dict[str, int]] = []
        for board in boards if showdown else []:
            values = {player: self._strength(player, board) for player in contenders}
            categories.append({player: category_name(value) for player, value in values.items()})
            strengths.append(values)
            if showdown and self._showdown is None:  # every hand up at once: one event per board
                events.append(HandsShown(cards=shown, categories=categories[-1],
                                         ranks={player: ranks_of(value) for player, value in values.items()},
                                         run=len(categories) if len(boards) > 1 else 0))
        if not showdown:
            strengths = [{live[0].id: 0}]
        awards: list[PotAward] = []
        run_events: list[list[Event]] = [[] for _ in boards]
        for award in award_runs(pots, strengths, contenders if showdown else [live[0].id]):
            category = categories[max(award.run, 1) - 1][next(iter(award.winners))] if showdown else None
            moves = []
            for player, share in award.winners.items():
                if not share:  # more winners than chips: a Move carries at least one chip
                    continue
                self._by_id[player].stack += share
                self._pot -= share
                moves.append(Move("pot", f"stack:{player}", share, Reason.POT_WON))
            awards.append(PotAward(award.amount, award.eligible, award.winners, category, award.run))
            run_events[max(award.run, 1) - 1].append(PotAwarded(
                pot_index=award.pot_index, amount=award.amount, eligible=award.eligible, winners=award.winners,
                category=category, run=award.run, moves=tuple(moves)))
        if len(boards) > 1:  # each board's hands, then its pots
            events = [events[0], *run_events[0], events[1], *run_events[1]]
        else:
            events += run_events[0]
        net = {seat.id: seat.stack - seat.start_stack - seat.pawned for seat in self._seats}
        self.result = HandResult(net=net, pots=tuple(awards), shown=shown, went_to_showdown=showdown,
                                 mucked=tuple(mucked),
                                 boards=tuple(tuple(board) for board in boards) if len(boards) > 1 else ())
        events.append(HandEnded(net=net, stacks=self.stacks))
        return events

    # --- saving --------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as a JSON-able dict (remaining deck included)."""
        return {
            "hand_number": self.hand_number, "variant": self.variant.value, "level": self.level,
            "structure": self.structure.to_dict(),
            "pawn_rules": self.pawn_rules.to_dict(), "button": self._button, "street": self.street.value,
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
    def from_dict(cls, data: Mapping[str, Any]) -> Hand:
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

