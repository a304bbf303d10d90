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
)
from engine.common import Event, IllegalAmount, Move, NotYourTurn, RuleError, allowed
from engine.holdem_showdown import ShowdownPhases
from engine.holdem_state import _Seat
from engine.holdem_types import (
    NEXT_STREET,
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
from engine.preactions import PreAction, cancelled_by, pre_action_play, pre_action_refusal
from engine.reasons import Reason
from engine.runs import RunQuestion
from engine.showdown import ShowdownRules

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


class Hand(ShowdownPhases):
    """A hand of Hold'em or Omaha in progress or finished. Build it with `Hand.start`, drive it with `act`."""

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
        self.street, count = NEXT_STREET[self.street]
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
