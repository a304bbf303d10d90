"""A tournament's entries: registration and the start, re-entry, rebuys and add-ons (each given back after downtime
that cut its time short), and the comebacks of busted players.

Tournament options (RULES.md §1c, all off by default): rebuys (a count per player) while his stack is at or below the
starting stack during the rebuy period, which runs until the first break; add-ons (a count per player) during the first
break; re-entry for a busted player while late registration is open; a bounty (money units out of each first buy-in) on
every entrant's head. A rebuy, an add-on and a re-entry each buy the starting stack at the rate, which is the buy-in
less the bounty (rebuys and re-entries carry no bounty, RULES.md §1c). Each is a payment to the bank like the buy-in.

Add-ons missed with the first break (RULES.md §1c is silent): when the application was down across the whole first break
(it acted on nothing of the clock from before the break began until after it ended), nobody could buy the add-on the
rules promise at that break. As a card room whose clock failed would, the add-on is sold once play is back: from the
restart, for as long as the missed break lasted (an hour for `home-night`'s 19:00-20:00), between hands as at the break
(`reopen_addons`). The organizer's pause of the clock across the whole first break is the same loss, by the same rule
(`missed_break`): a paused clock starts no break, and on resuming, the break's end time being past, it is passed over
(`engine.clock`), so nobody could buy the add-on; it is sold from the resume for as long as the break lasted before the
pause (`Clock.span_before_pause`), as after downtime, with no event (it follows from the clock). Likewise a rebuy period
whose end (the first break) passed while the application was down runs again from the restart, once, for as long as the
downtime cut it short (`reopen_rebuys`): a busted player may still come back, a short one top up; late registration and
re-entry, which end with it, follow it. The organizer's pause takes none of the rebuy period: it stands open with the
clock (rebuys, re-entry and late registration are taken between hands all through the pause) and ends when play resumes
past its end time.

A first break the clock started in (RULES.md §1c is silent): a tournament started during its first break (or after
its scheduled end) has played no hand before it, so the break sells no add-on, which would only be a bigger buy-in
(`is_break_before_play`); its rebuy period, before that break, had no time either.

Late registration (a setting, on by default; the rules are silent) is open until the first player leaves (by
elimination or cash-out); when the tournament has rebuys or re-entry it is open during the rebuy period instead (as in
a card room, late registration ends with the rebuy period), and a busted player may come back by a rebuy (one of his
count) or a re-entry. Whoever comes back or joins late ranks above everyone out, whose places move down to keep them
consistent; after a re-entry or a rebuy from zero he carries no bounty.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction

from engine.clock import Clock
from engine.clock_time import Span, to_utc
from engine.common import Event, IllegalAmount, Move, RuleError, allowed
from engine.reasons import Reason
from engine.tournament_events import (
    AddonsReopened,
    PlayerAddedOn,
    PlayerRebought,
    PlayerReentered,
    PlayerRegistered,
    PlayerUnregistered,
    RebuysReopened,
    TournamentStarted,
)
from engine.tournament_state import TournamentState, holds
from engine.tournament_types import BANK, Entrant, EntrantStatus, Phase, first_break, is_in

__all__ = ["Entries", "missed_break"]

Window = tuple[datetime, datetime]
"""A span of time with both ends known (UTC): from when until when something is sold again."""


class Entries(TournamentState):
    """Registration, the start, re-entry, rebuys and add-ons, as part of a `Tournament`."""

    # --- registration and start ------------------------------------------------------------------------------------

    def verify_register(self, player: str, now: datetime | None = None) -> None:
        """Raise unless `player` may buy in now, or re-enter (busted, during late registration, when the tournament
        allows it). While the tournament runs, `now` says whether a late registration period by the clock is open."""
        if self.phase is Phase.FINISHED:
            raise RuleError("tournament_finished", "the tournament is over")
        entrant = self.entrants.get(player)
        if entrant is not None:
            if entrant.status is EntrantStatus.CASHED_OUT:
                raise RuleError("cashed_out", "you cashed out of this tournament: that was for good", player=player)
            if entrant.status is not EntrantStatus.ELIMINATED:
                raise RuleError("already_registered", "you are already in this tournament", player=player)
            if not self.config.reentry:
                raise RuleError("no_reentry", "re-entry is not allowed in this tournament", player=player)
        if self.phase is Phase.RUNNING and not self._late_registration_open(now):
            raise RuleError("registration_closed", "registration is closed")

    def can_register(self, player: str, now: datetime | None = None) -> bool:
        """Whether `register(player, now)` is allowed."""
        return allowed(self.verify_register, player, now)

    def entry_price(self, player: str) -> Fraction:
        """What `register` charges the player: the buy-in, or for a busted player re-entering the starting stack's
        price (no bounty)."""
        return self.config.stack_price if player in self.entrants else self.config.buy_in

    def register(self, player: str, now: datetime | None = None) -> list[Event]:
        """Buy in: the player pays the buy-in and gets the starting chips (playing at once when late); a busted player
        re-entering pays the starting stack's price (no bounty) and plays on (`entry_price`)."""
        self.verify_register(player, now)
        price = self.entry_price(player)
        entrant = self.entrants.get(player)
        if entrant is not None:
            entrant.reentries += 1
            entrant.buy_ins += 1
            self._come_back(entrant)
            return [PlayerReentered(player=player, money=price, chips=self.config.chips,
                                    moves=(self._issue(player, self.config.chips, Reason.RE_ENTRY),))]
        status = EntrantStatus.PLAYING if self.phase is Phase.RUNNING else EntrantStatus.REGISTERED
        self.entrants[player] = Entrant(player, status, bounty=self.config.bounty)
        self._renumber_places()
        return [PlayerRegistered(player=player, money=price, chips=self.config.chips,
                                 moves=(self._issue(player, self.config.chips, Reason.BUY_IN),))]

    def verify_unregister(self, player: str) -> None:
        """Raise unless `player` is registered and play has not begun (after the start he may only cash out)."""
        if self.phase is not Phase.REGISTERING:
            raise RuleError("tournament_started", "the tournament has already started")
        if player not in self.entrants:
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)

    def can_unregister(self, player: str) -> bool:
        """Whether `unregister(player)` is allowed."""
        return allowed(self.verify_unregister, player)

    def unregister(self, player: str) -> list[Event]:
        """Withdraw before the start: the chips go back to the bank, the buy-in back to the player, as if he had never
        registered."""
        self.verify_unregister(player)
        entrant = self.entrants.pop(player)
        chips = entrant.buy_ins * self.config.chips
        self.chips_in_play -= chips
        return [PlayerUnregistered(player=player, money=entrant.paid_in(self.config), chips=chips,
                                   moves=(Move(f"stack:{player}", BANK, chips, Reason.UNREGISTER),))]

    def verify_start(self, now: datetime) -> None:
        """Raise unless play can begin (registering, enough players)."""
        to_utc(now)
        if self.phase is not Phase.REGISTERING:
            raise RuleError("tournament_started", "the tournament has already started")
        if len(self.entrants) < self.config.min_players:
            raise RuleError("too_few_players", f"at least {self.config.min_players} players are needed",
                            needed=self.config.min_players)

    def can_start(self, now: datetime) -> bool:
        """Whether `start(now)` is allowed."""
        return allowed(self.verify_start, now)

    def start(self, now: datetime) -> list[Event]:
        """Begin play and start the clock."""
        self.verify_start(now)
        events = self.clock.start(now)
        self.phase = Phase.RUNNING
        for entrant in self.entrants.values():
            entrant.status = EntrantStatus.PLAYING
        return [TournamentStarted(at=to_utc(now), players=tuple(self.entrants)), *events]

    # --- rebuys, add-ons ------------------------------------------------------------------------------------------

    def is_addon_time(self, now: datetime) -> bool:
        """Whether add-ons are sold at `now`: the tournament is running and its first break is on, after play (not a
        break the clock started in: `is_break_before_play`), or add-ons missed with it are sold again
        (`reopen_addons`)."""
        first = first_break(self.clock.schedule)
        if self.phase is not Phase.RUNNING or first is None:
            return False
        if holds(self.addons_reopened, now) or holds(self._addons_missed_in_pause(self.clock), now):
            return True
        return self.clock.level_at(now).index == first and not self.is_break_before_play()

    def addon_time_ends_at(self, now: datetime) -> datetime | None:
        """When the add-ons sold at `now` stop being sold (UTC): the end of their time sold again after downtime or a
        pause (`reopen_addons`, `missed_break`), else the end of the first break; None while a pause keeps that end
        unknown."""
        for window in (self.addons_reopened, self._addons_missed_in_pause(self.clock)):
            if window is not None and holds(window, now):
                return window[1]
        return self.clock.level_at(now).ends_at

    def addon_time_after_resume(self, now: datetime) -> timedelta | None:
        """While the clock is paused at `now`: how long add-ons would be sold if play resumed now, the whole first
        break having passed in this pause (`missed_break`); None otherwise (the break is still to come, or was
        played, or passed in an earlier pause, whose time given back runs on its own hours; or the clock runs)."""
        if not self.config.addons or self.phase is not Phase.RUNNING or not self.clock.can_resume(now):
            return None
        resumed = self.clock.resumed_at(now)
        window = self._addons_missed_in_pause(resumed)
        if window is None or window[0] != resumed.pauses[-1][1]:
            return None
        return window[1] - window[0]

    def is_break_before_play(self) -> bool:
        """Whether the first break began when the clock started, before any hand (a start during it, or after its
        scheduled end, passed over): no add-on is sold at it, as its rebuy period, before it, had no time either."""
        if self.clock.started_at is None:
            return False
        span = self._first_break_span()
        return span is not None and span[0] <= self.clock.started_at

    def verify_reopen_addons(self, unseen_since: datetime, now: datetime) -> None:
        """Raise unless add-ons are to be sold again from `now`, the application having acted on nothing of the clock
        since `unseen_since` (it was down): add-ons are offered, the tournament runs, they were not sold again before,
        and the first break was played (not passed over by a late start) wholly after `unseen_since`, ending by
        `now`."""
        if not self.config.addons:
            raise RuleError("no_addons", "add-ons are not offered in this tournament")
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        if self.addons_reopened is not None:
            raise RuleError("addons_reopened", "the add-ons missed with the first break were already sold again")
        if missed_break(self._first_break_span(), self._unseen_from(unseen_since), to_utc(now)) is None:
            raise RuleError("break_not_missed", "the first break was not missed")

    def can_reopen_addons(self, unseen_since: datetime, now: datetime) -> bool:
        """Whether `reopen_addons(unseen_since, now)` is allowed."""
        return allowed(self.verify_reopen_addons, unseen_since, now)

    def reopen_addons(self, unseen_since: datetime, now: datetime) -> list[Event]:
        """Sell add-ons again from `now` for as long as the missed first break lasted (see the module's docstring)."""
        self.verify_reopen_addons(unseen_since, now)
        window = missed_break(self._first_break_span(), self._unseen_from(unseen_since), to_utc(now))
        assert window is not None
        self.addons_reopened = window
        return [AddonsReopened(at=window[0], until=window[1])]

    def verify_reopen_rebuys(self, unseen_since: datetime, now: datetime) -> None:
        """Raise unless the rebuy period is to run again from `now`, the application having acted on nothing of the
        tournament since `unseen_since` (it was down): rebuys or re-entry are offered (late registration ends with the
        period then), the tournament runs, the period did not run again before, it ended (the first break began)
        after `unseen_since` and by `now`, and no place was said final since (`fix_places`: a table paused while its
        buttons still work plays on through the period's end)."""
        if not (self.config.rebuys or self.config.reentry):
            raise RuleError("no_rebuy_period", "this tournament has no rebuy period: neither rebuys nor re-entry")
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        if self.rebuys_reopened is not None:
            raise RuleError("rebuys_reopened", "the rebuy period cut short already runs again")
        if self.places_fixed:
            raise RuleError("places_fixed", "places were said final since the rebuy period ended")
        span = self._first_break_span()
        if span is None or not self._unseen_from(unseen_since) < span[0] <= to_utc(now):
            raise RuleError("rebuys_not_cut_short", "the rebuy period was not cut short")

    def can_reopen_rebuys(self, unseen_since: datetime, now: datetime) -> bool:
        """Whether `reopen_rebuys(unseen_since, now)` is allowed."""
        return allowed(self.verify_reopen_rebuys, unseen_since, now)

    def reopen_rebuys(self, unseen_since: datetime, now: datetime) -> list[Event]:
        """Run the rebuy period again from `now` for as long as downtime cut it short: from `unseen_since` to the
        first break (see the module's docstring). Late registration and re-entry, which end with it, run again too."""
        self.verify_reopen_rebuys(unseen_since, now)
        span = self._first_break_span()
        assert span is not None
        at = to_utc(now)
        self.rebuys_reopened = (at, at + (span[0] - self._unseen_from(unseen_since)))
        return [RebuysReopened(at=at, until=self.rebuys_reopened[1])]

    def rebuy_period_ends_at(self, now: datetime) -> datetime | None:
        """When the rebuy period running at `now` ends (UTC): the end of the period run again after downtime, else
        the start of the first break; None when no period runs, or while a pause that has not ended keeps its end
        unknown (the clock's timeline stops at such a pause: `Clock.span`)."""
        if not self.is_rebuy_period(now):
            return None
        span = self._first_break_span()
        return self.rebuys_given_back_until(now) or (None if span is None else span[0])

    def rebuys_given_back_until(self, now: datetime) -> datetime | None:
        """When the rebuy period run again after downtime ends, while it runs at `now` (`reopen_rebuys`); None
        otherwise (the period runs until the first break, or is over)."""
        reopened = self.rebuys_reopened
        return reopened[1] if reopened is not None and holds(reopened, now) else None

    def verify_rebuy(self, player: str, stack: int | None, now: datetime) -> None:
        """Raise unless `player`, with `stack` chips (0 when busted), may rebuy at `now`: rebuys are offered, he has
        one left, the rebuy period runs and his stack is at or below the starting stack (not asked when `stack` is
        None: not known yet, while his hand is in play)."""
        if not self.config.rebuys:
            raise RuleError("no_rebuys", "rebuys are not allowed in this tournament")
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status not in (EntrantStatus.PLAYING, EntrantStatus.ELIMINATED):
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)
        if not self.is_rebuy_period(now):
            raise RuleError("rebuy_period_over", "the rebuy period is over (it ends at the first break)")
        if entrant.rebuys >= self.config.rebuys:
            raise RuleError("no_rebuys_left", f"you have used all your rebuys ({self.config.rebuys})",
                            limit=self.config.rebuys)
        if entrant.status is EntrantStatus.PLAYING and stack is not None and stack > self.config.chips:
            raise IllegalAmount("stack_over_start", f"a rebuy is for {self.config.chips} chips or fewer; you have "
                                f"{stack}", chips=stack, limit=self.config.chips)

    def comeback(self, player: str, now: datetime) -> str | None:
        """How a busted player may come back into play at `now`: `rebuy` when he may rebuy, else `reentry` when he
        may register again, else None (a player who is not busted has no comeback to make)."""
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status is not EntrantStatus.ELIMINATED:
            return None
        if self.can_rebuy(player, 0, now):
            return "rebuy"
        return "reentry" if self.can_register(player, now) else None

    def comebacks(self, now: datetime) -> dict[str, str]:
        """Every busted player who may come back at `now`, and how (`comeback`): while any may, a tournament down to
        one player waits for them."""
        ways = {player: self.comeback(player, now) for player in self.entrants}
        return {player: way for player, way in ways.items() if way is not None}

    def can_rebuy(self, player: str, stack: int, now: datetime) -> bool:
        """Whether `rebuy(player, stack, now)` is allowed."""
        return allowed(self.verify_rebuy, player, stack, now)

    def rebuy(self, player: str, stack: int, now: datetime) -> list[Event]:
        """The player pays the starting stack's price and gets the starting stack again (back in play when busted).

        Between hands only: the application calls it when he has no cards in a hand at his table."""
        self.verify_rebuy(player, stack, now)
        entrant = self.entrants[player]
        entrant.rebuys += 1
        entrant.buy_ins += 1
        self._come_back(entrant)
        return [PlayerRebought(player=player, money=self.config.stack_price, chips=self.config.chips,
                               rebuys=entrant.rebuys, moves=(self._issue(player, self.config.chips, Reason.REBUY),))]

    def verify_addon(self, player: str, now: datetime) -> None:
        """Raise unless `player` (still in) may buy an add-on at `now`: offered, during the first break, one left."""
        if not self.config.addons:
            raise RuleError("no_addons", "add-ons are not offered in this tournament")
        self._verify_playing(player)
        if not self.is_addon_time(now):
            if self.is_break_before_play():
                raise RuleError("addons_before_play", "this tournament started at its first break, before any hand: "
                                "it sells no add-ons")
            raise RuleError("not_addon_time", "add-ons are sold during the first break")
        if not self.has_addon_left(player):
            raise RuleError("no_addons_left", f"you have bought all your add-ons ({self.config.addons})",
                            limit=self.config.addons)

    def has_addon_left(self, player: str) -> bool:
        """Whether `player` is still in with an add-on of the tournament's left to buy, whenever they are sold (what
        `verify_addon` asks beyond the time)."""
        entrant = self.entrants.get(player)
        return entrant is not None and is_in(entrant) and entrant.addons < self.config.addons

    def can_addon(self, player: str, now: datetime) -> bool:
        """Whether `addon(player, now)` is allowed."""
        return allowed(self.verify_addon, player, now)

    def addon(self, player: str, now: datetime) -> list[Event]:
        """At the first break (or while add-ons missed with it are sold again): the player pays the starting stack's
        price and gets the starting stack once more."""
        self.verify_addon(player, now)
        entrant = self.entrants[player]
        entrant.addons += 1
        entrant.buy_ins += 1
        return [PlayerAddedOn(player=player, money=self.config.stack_price, chips=self.config.chips,
                              moves=(self._issue(player, self.config.chips, Reason.ADD_ON),))]

    # --- helpers ---------------------------------------------------------------------------------------------------

    def _issue(self, player: str, chips: int, reason: Reason) -> Move:
        """The bank issues `chips` to the player's stack: they are in play from now on."""
        self.chips_in_play += chips
        return Move(BANK, f"stack:{player}", chips, reason)

    def _come_back(self, entrant: Entrant) -> None:
        """A busted player is back in (a re-entry or a rebuy): unplaced, the others' places kept consistent. His
        comeback carries no new bounty; one nobody collected when he busted (no pot named who took his chips) is still
        his, on his head as before, where clearing it took it from the prize money (`engine.tournament_end`)."""
        if entrant.status is EntrantStatus.ELIMINATED:
            entrant.status, entrant.place = EntrantStatus.PLAYING, None
            self._renumber_places()

    def _late_registration_open(self, now: datetime | None) -> bool:
        """Late registration: until the first player leaves, or with rebuys or re-entry during the rebuy period."""
        if not self.config.late_registration:
            return False
        if self.config.rebuys or self.config.reentry:
            if now is None:
                raise ValueError("late registration by the clock needs the time")
            return self.is_rebuy_period(now)
        return not self._anyone_left()

    def _unseen_from(self, unseen_since: datetime) -> datetime:
        """When the downtime began for this tournament (UTC): not before its clock started, since no time of its
        rebuy period or first break could be lost before then (a break it started in had no play before it)."""
        started = self.clock.started_at
        unseen = to_utc(unseen_since)
        return unseen if started is None else max(unseen, started)

    def _addons_missed_in_pause(self, clock: Clock) -> Window | None:
        """When add-ons are sold again on `clock` (this tournament's, or a copy) after a pause of it across the whole
        first break (`missed_break`, the pause as the time unseen; None when none was): the break passed over when
        play resumed, and, with the clock run on through that pause, it lay wholly inside it."""
        first = first_break(clock.schedule)
        if not self.config.addons or first is None or not clock.pauses or self.addons_reopened is not None:
            return None
        span = clock.span(first)
        if span is None or span[0] != span[1]:  # played, or a pause goes on before it
            return None
        for number, (began, ended) in enumerate(clock.pauses):
            if ended is not None and began < span[0] <= ended:
                return missed_break(clock.span_before_pause(first, number), began, ended)
        return None

    def _first_break_span(self) -> tuple[datetime, datetime | None] | None:
        """When the first break begins and ends on the clock's timeline (see `Clock.span`), None without one."""
        first = first_break(self.clock.schedule)
        return None if first is None else self.clock.span(first)

    def _anyone_left(self) -> bool:
        """Whether any player has left the tournament (cashed out or eliminated)."""
        return any(entrant.status in (EntrantStatus.CASHED_OUT, EntrantStatus.ELIMINATED)
                   for entrant in self.entrants.values())


def missed_break(span: Span | None, unseen_since: datetime, back: datetime) -> Window | None:
    """When add-ons missed with the first break are sold again (UTC, from `back` for as long as the break lasted),
    when the break, on the clock's timeline `span` (from its start to its end), lay wholly in a time nobody could buy
    one, from `unseen_since` to `back` (downtime, or the organizer's pause); None when it did not."""
    if span is None or span[1] is None or not unseen_since < span[0] < span[1] <= back:
        return None
    return back, back + (span[1] - span[0])
