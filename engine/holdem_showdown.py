"""The end of a hand (Hold'em or Omaha), the part of `engine.holdem.Hand` between its state (`HandState`, which
owns and saves what this reads and changes) and its betting: the run-it-twice question and its two boards, and the
showdown in turn with show or muck (RULES.md §1a; the rules themselves are in `engine.runs` and `engine.showdown`).
Then the award of the pots, at a showdown or to the last player left. One chain of classes rather than parts mixed
in, since compiled code (`bot.compiled`) takes single inheritance only."""

from __future__ import annotations

from collections.abc import Sequence

from engine.betting import Limit, Street
from engine.cards import Card
from engine.common import Event, Move, NotYourTurn, RuleError, allowed
from engine.hands import HandCategory, category_of, ranks_of, strength
from engine.holdem_state import HandState, _Seat
from engine.holdem_types import (
    NEXT_STREET,
    BoardDealt,
    CardsShown,
    HandEnded,
    HandMucked,
    HandResult,
    HandsShown,
    PotAward,
    PotAwarded,
    RunsChosen,
    RunsSettled,
    Variant,
)
from engine.omaha import strength as omaha_strength
from engine.pots import Pot, build_pots
from engine.reasons import Reason
from engine.runs import award_runs
from engine.showdown import Showdown, cannot_win, showdown_order

__all__ = ["ShowdownPhases", "category_name"]


def _cards_to_river(street: Street) -> int:
    """The cards one run of the board deals from `street` on to the river, a burn before each street included."""
    cards = 0
    while street in NEXT_STREET:
        street, count = NEXT_STREET[street]
        cards += 1 + count
    return cards


class ShowdownPhases(HandState):
    """Run it twice and the showdown in turn, as part of a `Hand` (whose betting ends a round: `_end_round`)."""

    def _end_round(self) -> list[Event]:
        raise NotImplementedError  # Hand's

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second run's board of a hand run twice (empty otherwise)."""
        return tuple(self._board2)

    @property
    def showing(self) -> str | None:
        """The player asked to show or muck at the showdown, None when nobody is."""
        if self._showdown is None or not self._showdown.queue or self.is_over:
            return None
        return self._showdown.queue[0]

    def shown_so_far(self) -> HandsShown | None:
        """The hands turned up at a showdown in turn so far, as one event (what later pot lines describe), None when
        the showdown is not played in turn or nobody has shown yet."""
        if self._showdown is None or not self._showdown.shown:
            return None
        values = {player: self._strength(player, self._board) for player in self._showdown.shown}
        return HandsShown(cards={player: tuple(self._by_id[player].hole) for player in values},
                          categories={player: category_name(value) for player, value in values.items()},
                          ranks={player: ranks_of(value) for player, value in values.items()})

    @property
    def runs_asked(self) -> tuple[str, ...]:
        """The players yet to answer "once or twice?", empty when the question is not open."""
        return () if self._runs is None else self._runs.waiting

    # --- run it twice ----------------------------------------------------------------------------------------

    def _offers_runs(self, live: list[_Seat]) -> bool:
        """Whether "once or twice?" is for this table now: betting is over for good (at most one player still in has
        chips), cards are to come, and the table offers it in a structure that is not fixed limit."""
        return (self.rules.run_it_twice and self.structure.limit is not Limit.FIXED
                and sum(1 for seat in live if seat.stack > 0) <= 1)

    def _deck_runs_twice(self) -> bool:
        """Whether the deck can deal the rest of the board twice. Where RULES.md is silent, a card room's way: when it
        cannot (ten Omaha hands dealt or more, nineteen Hold'em hands), nobody is asked and the board is run once."""
        return self._deck.remaining >= 2 * _cards_to_river(self.street)

    def verify_runs(self, player_id: str, twice: bool) -> None:
        """Raise a RuleError unless the player may answer the run-it-twice question now."""
        if self._runs is None:
            raise RuleError("runs_not_asked", "nobody is asked to run it twice now")
        if player_id not in self._runs.asked:
            raise RuleError("not_in_hand", f"{player_id} is not in this hand", player=player_id)
        if player_id in self._runs.answers:
            raise RuleError("runs_answered", "you have already answered")

    def can_choose_runs(self, player_id: str, twice: bool) -> bool:
        """Whether `verify_runs` would accept the answer."""
        return allowed(self.verify_runs, player_id, twice)

    def choose_runs(self, player_id: str, twice: bool) -> list[Event]:
        """Answer "once or twice?": once settles it at once; twice counts only when everyone asked says twice."""
        self.verify_runs(player_id, twice)
        assert self._runs is not None
        self._runs.answers[player_id] = twice
        events: list[Event] = [RunsChosen(player=player_id, twice=twice)]
        if not twice:
            return events + self._settle_runs(1)
        if not self._runs.waiting:
            return events + self._settle_runs(2)
        return events

    def runs_timeout(self) -> list[Event]:
        """The time to answer ran out: the board is run once."""
        if self._runs is None:
            raise RuleError("runs_not_asked", "nobody is asked to run it twice now")
        return self._settle_runs(1)

    def _settle_runs(self, count: int) -> list[Event]:
        self._runs = None
        self._run_count = count
        return [RunsSettled(count=count), *self._end_round()]

    def _run_twice(self, live: list[_Seat]) -> list[Event]:
        """Complete the first board, then a second one from the next cards (a burn before each street of each)."""
        common, street = list(self._board), self.street
        events = self._deal_rest(self._board, street, run=1)
        self._board2 = common
        events += self._deal_rest(self._board2, street, run=2)
        self.street = Street.RIVER
        for seat in self._seats:
            seat.bet = seat.level = seat.raises = 0
        self._current_bet = self._raise_base = 0
        return events + self._begin_showdown(live)

    def _deal_rest(self, board: list[Card], street: Street, *, run: int) -> list[Event]:
        events: list[Event] = []
        while street is not Street.RIVER:
            street, count = NEXT_STREET[street]
            self._deck.deal(1)
            cards = self._deck.deal(count)
            board.extend(cards)
            events.append(BoardDealt(street=street, cards=tuple(cards), board=tuple(board), run=run))
        return events

    # --- showdown ------------------------------------------------------------------------------------------

    def _begin_showdown(self, live: list[_Seat]) -> list[Event]:
        """Every hand up at once (no mucking at this table, someone all-in, or two boards), else in turn."""
        self.street = Street.SHOWDOWN
        if not self.rules.muck or self._run_count == 2 or any(seat.stack == 0 for seat in live):
            return self._award(live, showdown=True)
        from_button = [seat.id for seat in self._order_from_button() if not seat.folded]
        self._showdown = Showdown(showdown_order(from_button, self._last_aggressor))
        return self._advance_showdown()

    def _strengths(self, board: Sequence[Card]) -> dict[str, int]:
        return {seat.id: self._strength(seat.id, board) for seat in self._seats if not seat.folded}

    def _strength(self, player_id: str, board: Sequence[Card]) -> int:
        """A player's best hand on a board as its ordering integer (`HandValue.strength`: `category_name` and
        `ranks_of` read it), the one place a showdown evaluates a hand: in Omaha exactly two of his hole cards with
        three of the board."""
        hole = self._by_id[player_id].hole
        if self.variant is Variant.OMAHA:
            return omaha_strength(hole, board)
        return strength(hole + list(board))

    def _showdown_pots(self) -> list[Pot]:
        order = [seat.id for seat in self._order_from_button() if not seat.folded]
        return build_pots({seat.id: seat.contributed for seat in self._seats}, order)

    def _cannot_win(self, player_id: str) -> bool:
        assert self._showdown is not None
        return cannot_win(player_id, self._strengths(self._board), self._showdown.shown, self._showdown_pots())

    def _advance_showdown(self) -> list[Event]:
        """Turn up or muck hands in order until a player must choose, or everyone has (then award the pots)."""
        showdown = self._showdown
        assert showdown is not None
        events: list[Event] = []
        while showdown.queue:
            player = showdown.queue[0]
            if showdown.shown and self._cannot_win(player):
                if player not in self.rules.automuck:
                    return events  # he chooses: show or muck
                events.append(self._muck(player))
            else:
                events.append(self._show(player))
        return events + self._award([seat for seat in self._seats if not seat.folded], showdown=True)

    def _show(self, player_id: str) -> Event:
        assert self._showdown is not None
        self._showdown.queue.remove(player_id)
        self._showdown.shown.append(player_id)
        cards = tuple(self._by_id[player_id].hole)
        value = self._strength(player_id, self._board)
        return HandsShown(cards={player_id: cards}, categories={player_id: category_name(value)},
                          ranks={player_id: ranks_of(value)})

    def _muck(self, player_id: str) -> Event:
        assert self._showdown is not None
        self._showdown.queue.remove(player_id)
        self._showdown.mucked.append(player_id)
        return HandMucked(player=player_id)

    def verify_show_or_muck(self, player_id: str, show: bool) -> None:
        """Raise a RuleError unless the player may show (`show`) or muck his hand now."""
        asked = self.showing
        if asked is None:
            raise RuleError("no_showdown", "nobody is asked to show or muck now")
        if player_id != asked:
            raise NotYourTurn("not_your_turn", f"it is {asked}'s turn", player=player_id, to_act=asked)
        if not show and not self._cannot_win(player_id):
            raise RuleError("muck_can_win", "your hand can still win: show it")

    def can_show_or_muck(self, player_id: str, show: bool) -> bool:
        """Whether `verify_show_or_muck` would accept it."""
        return allowed(self.verify_show_or_muck, player_id, show)

    def show_or_muck(self, player_id: str, show: bool) -> list[Event]:
        """Show or muck the asked player's hand, then go on with the showdown."""
        self.verify_show_or_muck(player_id, show)
        return [self._show(player_id) if show else self._muck(player_id), *self._advance_showdown()]

    def showdown_timeout(self) -> list[Event]:
        """The asked player ran out of time: his hand is mucked if it cannot win, shown otherwise."""
        player = self.showing
        if player is None:
            raise RuleError("no_showdown", "nobody is asked to show or muck now")
        return self.show_or_muck(player, not self._cannot_win(player))

    def verify_show_won(self, player_id: str) -> None:
        """Raise a RuleError unless the player won this hand uncontested and has not shown yet (he may show)."""
        seat = self._seat(player_id)
        if self.result is None or self.result.went_to_showdown:
            raise RuleError("show_not_uncontested", "only the winner of an uncontested pot may show, after the hand")
        if seat.folded:
            raise RuleError("show_not_winner", "only the winner of the pot may show")

    def show_won(self, player_id: str) -> list[Event]:
        """The winner of an uncontested pot shows his cards after the hand."""
        self.verify_show_won(player_id)
        return [CardsShown(player=player_id, cards=tuple(self._seat(player_id).hole))]

    # --- the pots ------------------------------------------------------------------------------------------

    def _award(self, live: list[_Seat], *, showdown: bool) -> list[Event]:
        """Award every pot (on each board of a hand run twice) to its winners, at a showdown or to the one player
        left, and end the hand: its result and its last events."""
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


def category_name(strength: int) -> str:
    """The category in words, like `two pair`, of a hand's ordering integer (`HandValue.strength`)."""
    return _CATEGORY_NAMES[category_of(strength)]


_CATEGORY_NAMES = {category: category.name.lower().replace("_", " ") for category in HandCategory}
"""Each hand category in words."""
