"""A Hold'em table's tournament: creating it (with its options), registration and re-entry, the clock and its
announcements, rebuys and add-ons, cash-outs, pawns, bounties at the bust-outs, the end.

Re-entry goes through the usual register command (`/join`, `/tournament register`): a busted player registering again
during late registration re-enters. `/rebuy` and `/addon` (also `/tournament rebuy`, `/tournament addon`) are bought
between hands; the table shows their buttons between hands while they are on offer.

The tournament's engine state lives in the table's snapshot (`state["tournament"]`), so every change to it commits in
the same transaction as the chips it moves; a copy goes to the `tournaments` table for the record.

The clock's time is the wall clock (`clock_moment`), with two guards. It never runs backwards: after the wall clock
steps back (NTP, a resumed VM), the clock holds at the last instant it acted on (its start, its last change, its last
announcement) instead of refusing every command, and each announcement timer carries the instant it was armed for, so
the announcements still come on time (the timers wait on the monotonic clock). And it never posts a backlog: when
several announcements fell due at once (the bot was down, or the wall clock stepped forward), or the only one is
stale, the channel gets the clock's current state once instead.
"""

from __future__ import annotations

import dataclasses
import functools
import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import commands as cmd
from bot.commands import button_payload
from bot.games.context import Action, Refusal
from bot.games.holdem_table import HoldemTable
from bot.output import Button, TableMessage
from bot.render import tournament as render
from bot.scheduler import APPOINTMENT
from engine.common import Event, RuleError, all_moves
from engine.holdem import Hand, ItemPawned, PawnRules
from engine.schedule import PRESETS, ScheduleError, parse_schedule
from engine.tournament import Phase, PlayerEliminated, Tournament, TournamentConfig
from engine.tournament_options import OptionError, split_options

COMMANDS = (cmd.Tournament, cmd.Clock, cmd.CashOut, cmd.Rebuy, cmd.Addon)
"""The commands a tournament table hands to `handle`."""

DEFAULT_TIMEZONE = "UTC"
NO_PAWNS = PawnRules(value=0)
"""Cash tables take no pawns: the rule is the tournament's."""
STALE_ANNOUNCEMENT = timedelta(minutes=1)
"""An announcement posted later than this after its instant would mislead ("Break in 5 min" at 18:58): the clock's
current state is posted instead."""


def moment(act: Action) -> datetime:
    """The action's time as an aware UTC datetime."""
    return datetime.fromtimestamp(act.now, tz=UTC)


def clock_moment(act: Action, tournament: Tournament) -> datetime:
    """The instant the tournament clock reads: the wall clock, but never before the last instant the clock acted on."""
    return clock_reading(moment(act), tournament, act.state.get("tournament"))


def clock_reading(now: datetime, tournament: Tournament, data: dict[str, Any] | None) -> datetime:
    """`clock_moment` from the wall clock's `now` and the table's tournament record (`state["tournament"]`, which
    holds the last announcement's instant), for readers outside an action (the clock page)."""
    latest = [now]
    if tournament.clock.changed_at is not None:
        latest.append(tournament.clock.changed_at)
    announced = (data or {}).get("announced")
    if announced:
        latest.append(datetime.fromisoformat(announced))
    return max(latest)


def _load(act: Action) -> Tournament | None:
    data = act.state.get("tournament")
    return Tournament.from_dict(data["engine"]) if data else None


def _save(act: Action, tournament: Tournament, events: list[Event], ctl: HoldemTable) -> None:
    """Write the events' chips, keep the state in the snapshot and the record, and say what happened."""
    data = act.state["tournament"]
    key = f"t{data['id']}"
    act.apply_moves(all_moves(events), lambda name: ctl._account(act, name), key)
    act.record(key, events)
    for said in render.narrate(act.voice, tournament, events):
        act.say_text(said)
    data["engine"] = tournament.to_dict()
    act.tx.save_tournament(data["id"], act.place.chat_id, act.place.table_id, tournament.phase.value, data["engine"])


def bank_account(act: Action) -> str:
    """The ledger account that issues and takes back the tournament's chips."""
    data = act.state.get("tournament")
    if not data:
        raise RuntimeError("no tournament at this table")
    return f"bank:{act.place.table_id}:t{data['id']}"


def handle(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/tournament …`, `/clock`, `/cashout`, `/rebuy` and `/addon`."""
    if isinstance(command, cmd.Clock):
        _clock(act)
    elif isinstance(command, cmd.CashOut):
        _cash_out(ctl, act)
    elif isinstance(command, cmd.Rebuy):
        _rebuy(ctl, act)
    elif isinstance(command, cmd.Addon):
        _addon(ctl, act)
    else:
        assert isinstance(command, cmd.Tournament)
        action = _SUBCOMMANDS.get(command.action)
        if action is None:
            raise act.refuse("parse.usage", command="tournament", usage=act.t("usage.tournament"))
        action(ctl, act, command.argument)


def _require(act: Action) -> Tournament:
    tournament = _load(act)
    if tournament is None:
        raise act.refuse("tournament.none")
    return tournament


def _apply(act: Action, call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except RuleError as error:
        raise act.rule_refusal(error) from None


def _create(ctl: HoldemTable, act: Action, argument: str) -> None:
    act.require_organizer()
    if act.state.get("tournament"):
        raise act.refuse("tournament.exists")
    if act.state.get("hand") or act.state.get("seats"):
        raise act.refuse("tournament.table_busy")
    zone = table_zone(act)
    config = TournamentConfig()
    try:
        options, text = split_options(argument, config.buy_in)
    except OptionError as error:
        raise act.refuse("tournament.bad_option", reason=render.option_problem(act.voice, error)) from None
    text = text or "home-night"
    try:
        schedule = PRESETS[text](zone) if text in PRESETS else parse_schedule(text, zone)
    except ScheduleError as error:
        raise act.refuse("tournament.bad_schedule", reason=render.schedule_problem(act.voice, error)) from None
    config = dataclasses.replace(config, rebuys=options.rebuys, addons=options.addons, reentry=options.reentry,
                                 bounty=options.bounty)
    tournament = _apply(act, Tournament, config, schedule)
    tournament_id = act.tx.save_tournament(None, act.place.chat_id, act.place.table_id, tournament.phase.value,
                                           tournament.to_dict())
    act.state["tournament"] = {"id": tournament_id, "engine": tournament.to_dict(), "announced": None}
    act.say("tournament.created", number=tournament_id, schedule=render.schedule_text(act.voice, schedule), zone=zone,
            buy_in=render.money(tournament.config.buy_in), chips=tournament.config.chips)
    if options.named:
        act.say_text(render.options_text(act.voice, tournament.config))


def register(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """Buy in (or, busted during late registration, re-enter): the player gets his chips from the bank and a seat.

    The price and the chips are the tournament's: an amount (`/join 500`, as at a cash table) is refused with them,
    as a card room's desk would, rather than taken for a buy-in at other terms than he asked. (An older version
    registered him at the tournament's terms: such a logged registration replays as it was applied.)"""
    tournament = _require(act)
    if ctl.seat(act, act.user) is not None:
        raise act.refuse("holdem.already_seated")
    if len(act.state["seats"]) >= ctl.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    now = clock_moment(act, tournament)
    if cmd.whole_number(argument.strip()) is not None and not act.replaying:
        _apply(act, tournament.verify_register, act.user, now)  # why he may not register at all comes first
        raise act.refuse("tournament.fixed_buy_in", chips=tournament.config.chips,
                         money=render.money(tournament.entry_price(act.user)))
    events = _apply(act, tournament.register, act.user, now)
    ctl.sit(act, act.user, tournament.config.chips)
    _save(act, tournament, events, ctl)
    _deal_soon(ctl, act, tournament)
    act.show_table(ctl.table_message(act))


def leave(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> None:
    """`/leave` at a tournament table: before the start the player unregisters (his chips go back to the bank and the
    buy-in to him); after it he may only cash out."""
    tournament = _require(act)
    if tournament.phase is not Phase.REGISTERING:
        raise act.refuse("holdem.use_cashout")
    events = _apply(act, tournament.unregister, act.user)
    ctl.remove_seat(act, seat)
    _save(act, tournament, events, ctl)
    act.show_table(ctl.table_message(act))


def zone_set(ctl: HoldemTable, act: Action, zone: str) -> None:
    """`/set timezone` at a tournament's table (the setting already changed): a tournament not yet started reads its
    end times in the new zone, said with its schedule; a running one keeps the zone its clock runs on (the times it
    announced stand), and says so, so that nobody takes "until 19:00" for the new zone's 19:00."""
    tournament = _load(act)
    if tournament is None or tournament.phase is Phase.FINISHED:
        return
    number = act.state["tournament"]["id"]
    if not tournament.clock.can_set_zone(zone):
        act.say("tournament.zone_kept", number=number, zone=tournament.clock.schedule.tz)
        return
    events = tournament.clock.set_zone(zone)
    _save(act, tournament, events, ctl)
    act.say("tournament.zone_set", number=number, zone=zone,
            schedule=render.schedule_text(act.voice, tournament.clock.schedule))


def _start(ctl: HoldemTable, act: Action, argument: str) -> None:
    act.require_organizer()
    tournament = _require(act)
    events = _apply(act, tournament.start, moment(act))
    act.state["tournament"]["announced"] = tournament.clock.started_at.isoformat() if tournament.clock.started_at \
        else None
    _save(act, tournament, events, ctl)
    act.say_text(late_start_text(act, tournament))
    _clock(act, tournament)
    _arm_clock(act, tournament)
    ctl.start_hand(act, quiet=True)


def _clock_action(name: str) -> Any:
    def run(ctl: HoldemTable, act: Action, argument: str) -> None:
        act.require_organizer()
        tournament = _require(act)
        if name == "adjust":
            minutes = cmd.whole_number(argument, signed=True)
            if minutes is None:
                raise act.refuse("parse.usage", command="tournament minutes", usage="+5 | -5")
            events = _apply(act, tournament.clock.adjust, clock_moment(act, tournament), minutes)
        else:
            events = _apply(act, getattr(tournament.clock, name), clock_moment(act, tournament))
        _save(act, tournament, events, ctl)
        _clock(act, tournament)
        # The status just said covers the clock's change: the next announcement (a warning, a level) is said as
        # itself, not taken for a backlog of what the change skipped.
        act.state["tournament"]["announced"] = clock_moment(act, tournament).isoformat()
        _arm_clock(act, tournament)
        _play_on(ctl, act, tournament, deal=name in ("resume", "skip"))

    return run


def _close(ctl: HoldemTable, act: Action, argument: str) -> None:
    """The organizer ends the tournament; once it is over, anyone may see its results again."""
    if not act.state.get("tournament"):
        last = act.state.get("last_tournament")
        if not last:
            raise act.refuse("tournament.none")
        _show_results(act, Tournament.from_dict(last["engine"]))
        return
    act.require_organizer()
    tournament = _require(act)
    if act.state.get("hand"):
        raise act.refuse("holdem.hand_in_play")
    _finish(ctl, act, tournament)


def _status(ctl: HoldemTable, act: Action, argument: str) -> None:
    tournament = _require(act)
    act.tell(act.user, "tournament.status", text=render.status(act.voice, tournament, clock_moment(act, tournament)))


def _redeem(ctl: HoldemTable, act: Action, argument: str) -> None:
    """`/tournament redeem N` buys item N back for its chips between hands; without N, lists the player's items."""
    tournament = _require(act)
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise act.refuse("not_seated")
    if not argument.strip():
        items = tournament.held_items(act.user)
        if not items:
            raise act.refuse("tournament.no_items")
        act.tell(act.user, "tournament.items", items=render.items(act.voice, items))
        return
    if act.state.get("hand"):
        raise act.refuse("holdem.hand_in_play")
    number = cmd.whole_number(argument)
    if number is None:
        raise act.refuse("parse.usage", command="tournament redeem", usage=act.t("tournament.redeem_usage"))
    events = _apply(act, tournament.redeem_pawn, act.user, number, stack=seat["stack"])
    seat["stack"] -= sum(move.amount for move in all_moves(events))
    _save(act, tournament, events, ctl)
    act.show_table(ctl.table_message(act))  # his stack, less the price, where the table showed it before


def _rebuy(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """Between hands, during the rebuy period: the starting stack again, on the player's stack or (busted) a seat.
    Whether he may rebuy at all now (offered, the period, one left) is said before "between hands", which would
    promise a rebuy after the hand that is not there; his stack is asked between hands, when it is known."""
    tournament = _require(act)
    now = clock_moment(act, tournament)
    _apply(act, tournament.verify_rebuy, act.user, None, now)
    seat = ctl.seat(act, act.user)
    _between_hands(ctl, act, "tournament.rebuy_between_hands")
    if seat is None and len(act.state["seats"]) >= ctl.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    events = _apply(act, tournament.rebuy, act.user, seat["stack"] if seat else 0, now)
    _add_chips(ctl, act, seat, tournament.config.chips)
    _save(act, tournament, events, ctl)
    _deal_soon(ctl, act, tournament)
    act.show_table(ctl.table_message(act))


def _deal_soon(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """A player seated while the tournament runs (a late entry, a re-entry, a busted player's rebuy) may bring the
    table back to two: the next hand is dealt after the usual pause, as the table says, not at the clock's next word."""
    if tournament.phase is Phase.RUNNING:
        ctl._maybe_schedule_next(act)


def _addon(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """At the first break (or while add-ons missed with it are sold again): the starting stack once more on the
    player's stack. Whether he may take it at all now
    (offered, the break, one left) is said before "between hands", as for a rebuy."""
    tournament = _require(act)
    now = clock_moment(act, tournament)
    _apply(act, tournament.verify_addon, act.user, now)
    _between_hands(ctl, act, "tournament.addon_between_hands")
    events = _apply(act, tournament.addon, act.user, now)
    _add_chips(ctl, act, ctl.seat(act, act.user), tournament.config.chips)
    _save(act, tournament, events, ctl)
    act.show_table(ctl.table_message(act))


def _between_hands(ctl: HoldemTable, act: Action, refusal: str) -> None:
    hand = ctl._hand(act)
    if hand is not None and act.user in hand.players:
        raise act.refuse(refusal)


def _add_chips(ctl: HoldemTable, act: Action, seat: dict[str, Any] | None, chips: int) -> None:
    """Chips bought from the bank go on the player's seat (a new one when he had busted). The Rebuy and Add-on
    buttons drawn before are spent: pressed again (a double click), they buy nothing."""
    if seat is None:
        ctl.sit(act, act.user, chips)
    else:
        seat["stack"] += chips
    ctl.spend_buttons(act)


def _cash_out(ctl: HoldemTable, act: Action) -> None:
    """Between hands (for him): the player's chips go back to the bank at the rate and he leaves the tournament for
    good. The table message drops his seat at once (the tournament's end, when he was the last but one, draws its
    own)."""
    tournament = _require(act)
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise act.refuse("not_seated")
    hand = ctl._hand(act)
    if hand is not None and act.user in hand.players:
        raise act.refuse("tournament.cash_out_between_hands")
    events = _apply(act, tournament.cash_out, act.user, seat["stack"])
    ctl.remove_seat(act, seat)
    _save(act, tournament, events, ctl)
    _maybe_end(ctl, act, tournament)
    if act.state.get("tournament"):
        act.show_table(ctl.table_message(act))


def _clock(act: Action, tournament: Tournament | None = None) -> None:
    tournament = tournament or _require(act)
    act.say_text(render.status(act.voice, tournament, clock_moment(act, tournament)))


_SUBCOMMANDS = {
    "create": _create,
    "register": register,
    "join": register,
    "start": _start,
    "pause": _clock_action("pause"),
    "resume": _clock_action("resume"),
    "skip": _clock_action("skip"),
    "minutes": _clock_action("adjust"),
    "close": _close,
    # Hidden aliases of close, never shown in /help: `settle` was its own documented command (organizers type it), and
    # a table's action log, replayed after a restart, may hold a command typed with either.
    "end": _close,
    "settle": _close,
    "status": _status,
    "clock": lambda ctl, act, argument: _clock(act),
    "cashout": lambda ctl, act, argument: _cash_out(ctl, act),
    "redeem": _redeem,
    "rebuy": _rebuy,
    "addon": _addon,
}


# --- hooks the Hold'em controller calls --------------------------------------------------------------------------


def current_level(ctl: HoldemTable, act: Action) -> int | None:
    """The limit L for the next hand, None during a break; refuses when the tournament is not running."""
    tournament = _require(act)
    if tournament.phase is not Phase.RUNNING:
        raise act.refuse("tournament.not_running")
    status = tournament.clock.level_at(clock_moment(act, tournament))
    if status.is_paused:
        return None
    return status.level.limit


def level_index(ctl: HoldemTable, act: Action) -> int:
    """The index in the schedule of the level the clock is on (the tournament running)."""
    tournament = _require(act)
    return tournament.clock.level_at(clock_moment(act, tournament)).index


def current_level_number(ctl: HoldemTable, act: Action) -> int:
    """The number players know the level on by (counted without the breaks), for the record of the hand it deals."""
    return _require(act).clock.schedule.level_number(level_index(ctl, act))


def break_until(ctl: HoldemTable, act: Action) -> str:
    """When play resumes, as local time text (or "—")."""
    tournament = _require(act)
    return render.local_time(tournament, tournament.clock.level_at(clock_moment(act, tournament)).ends_at)


def no_play_refusal(ctl: HoldemTable, act: Action) -> Refusal:
    """Why no hand is dealt now, for a refusal: the clock is paused, or a break runs until a time."""
    tournament = _require(act)
    return Refusal(render.no_play(act.voice, tournament, clock_moment(act, tournament)))


def is_stopped(ctl: HoldemTable, act: Action) -> bool:
    """Whether the tournament is running but deals no hand now (a break, or the clock paused)."""
    tournament = _load(act)
    if tournament is None or tournament.phase is not Phase.RUNNING:
        return False
    status = tournament.clock.level_at(clock_moment(act, tournament))  # a wall clock stepped back reads no earlier
    return status.is_paused or status.is_break


def comeback_text(ctl: HoldemTable, act: Action) -> str:
    """In a running tournament down to one player with chips, who may still come back and how (a rebuy, a
    re-entry), until the first break; "" otherwise (then the table says what it waits for itself)."""
    tournament = _load(act)
    if tournament is None or tournament.phase is not Phase.RUNNING or sum(
            seat["stack"] > 0 for seat in act.state["seats"]) > 1:
        return ""
    ways = tournament.comebacks(clock_moment(act, tournament))
    return render.comeback(act.voice, *([act.name(player) for player, way in ways.items() if way == wanted]
                                        for wanted in ("rebuy", "reentry")))


def late_start_text(act: Action, tournament: Tournament) -> str:
    """For a tournament started after its first level's scheduled end: at which level it begins and why ("" when
    it begins at the first)."""
    now = moment(act)
    status = tournament.clock.level_at(now)
    if status.index == 0:
        return ""
    return render.late_start(act.voice, tournament, now)


def pawn_rules(ctl: HoldemTable, act: Action) -> PawnRules:
    """Tournament hands accept pawns worth the tournament's pawn value; cash hands accept none."""
    tournament = _load(act)
    return PawnRules(value=tournament.config.pawn_chips) if tournament else NO_PAWNS


def verify_pawn(ctl: HoldemTable, act: Action, item: str) -> None:
    """Refuse a pawn the tournament would not accept (not playing, three items already, a refused kind)."""
    tournament = _load(act)
    if tournament is None:
        raise act.refuse("tournament.no_pawns_here")
    try:
        tournament.verify_pawn(act.user, item, tournament.config.pawn_chips)
    except RuleError as error:
        raise act.rule_refusal(error) from None


def record_pawns(ctl: HoldemTable, act: Action, events: list[Event]) -> None:
    """Record items the hand accepted as pawned in the tournament (the chips already moved with the hand)."""
    pawned = [event for event in events if isinstance(event, ItemPawned)]
    if not pawned:
        return
    tournament = _require(act)
    recorded: list[Event] = []
    for event in pawned:
        recorded += tournament.record_pawn(event.player, event.item, event.value, event.hand_number)
    _save(act, tournament, recorded, ctl)


def after_hand(ctl: HoldemTable, act: Action, hand: Hand) -> None:
    """Players left without chips are eliminated (the engine places them, and their bounties go to the winners of
    the pot that took their last chips); the last one standing wins."""
    tournament = _require(act)
    busted = [seat for seat in act.state["seats"] if seat["stack"] == 0]
    players = list(hand.players)
    left_of_button = players.index(hand.button) + 1
    order = players[left_of_button:] + players[:left_of_button]
    pots = hand.result.pots if hand.result is not None else ()
    events = tournament.eliminate_busted([seat["id"] for seat in busted], hand.starting_stacks, pots=pots,
                                         order=order)
    out = {event.player for event in events if isinstance(event, PlayerEliminated)}
    for seat in busted:
        if seat["id"] in out:
            ctl.remove_seat(act, seat)
    if events:
        _save(act, tournament, events, ctl)
    _maybe_end(ctl, act, tournament)
    if tournament.phase is Phase.RUNNING:
        _offer_comeback(act, tournament, [seat["id"] for seat in busted if seat["id"] in out])


def offer_buttons(act: Action, key: str, decision: str) -> tuple[Button, ...]:
    """Between hands: a Rebuy button during the rebuy period and an Add-on button at the first break (or while add-ons
    missed with it are sold again), when the tournament offers them (whoever presses is checked as for the command)."""
    data = act.state.get("tournament")
    if not data:
        return ()
    tournament = Tournament.from_dict(data["engine"])
    if tournament.phase is not Phase.RUNNING:
        return ()
    now = clock_moment(act, tournament)
    buttons = []
    if tournament.config.rebuys and tournament.is_rebuy_period(now):
        buttons.append(Button(act.t("button.rebuy"), button_payload(key, "rebuy", decision)))
    if tournament.config.addons and tournament.is_addon_time(now):
        buttons.append(Button(act.t("button.addon"), button_payload(key, "addon", decision)))
    return tuple(buttons)


def _offer_comeback(act: Action, tournament: Tournament, players: list[str]) -> None:
    """Tell each busted player who may come back how: a rebuy, else a re-entry."""
    now = clock_moment(act, tournament)
    for player in players:
        way = tournament.comeback(player, now)
        if way is not None:
            act.say("tournament.may_rebuy" if way == "rebuy" else "tournament.may_reenter", player=act.name(player))


def _maybe_end(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """One player left ends the tournament, unless a busted player may still come back (a rebuy or a re-entry): then
    it waits for him, until the rebuy period ends (the clock's announcement of the break, or the organizer's
    `/tournament skip`, `minutes` or `resume` moving the clock past it, calls this again: `_play_on`). Nobody left
    (the last one cashed out) ends it at once: a comeback would have no one to play."""
    if tournament.phase is not Phase.RUNNING or len(act.state["seats"]) > 1:
        return
    if not act.state["seats"] or not tournament.comebacks(clock_moment(act, tournament)):
        _finish(ctl, act, tournament)


def _finish(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """End the tournament: the last stacks cash out, the results are said, the table is cleared.

    Ended between hands (`/tournament close`, the last cash-out, the clock ending the wait for a comeback), the table
    message showed the seats with a Deal (or Rebuy, Add-on) button, which would go on offering a deal: it now says
    the tournament is over, without buttons. Ended by a hand, it keeps that hand's story, already set."""
    drawn_for = ctl.decision(act)
    stacks = {seat["id"]: seat["stack"] for seat in act.state["seats"]}
    events = _apply(act, tournament.finish, moment(act), stacks)
    act.state["seats"], act.state["button"] = [], -1
    _save(act, tournament, events, ctl)
    _show_results(act, tournament)
    if act.reply.table is None and drawn_for is not None:
        act.show_table(TableMessage(drawn_for[0], render.status(act.voice, tournament, moment(act))))
    act.disarm(_clock_key(act))
    act.state["last_tournament"] = act.state["tournament"]
    act.state["tournament"] = None


def _show_results(act: Action, tournament: Tournament) -> None:
    """The finished tournament's winner and places, then who pays whom."""
    act.say_text(render.results(act.voice, *tournament.standings()))
    act.say_text(render.settlement(act.voice, tournament.settle()))


def on_clock(ctl: HoldemTable, act: Action, payload: dict[str, Any]) -> None:
    """Post what the clock announces since the last time (or, for a backlog, its current state), then arm the next
    announcement. `payload["at"]` is the instant the timer was armed for: it is due, whatever the wall clock says.
    A backlog holding the whole first break (the bot was down across it) sells its add-ons again from now
    (`Tournament.reopen_addons`)."""
    tournament = _load(act)
    if tournament is None or tournament.phase is not Phase.RUNNING:
        return
    data = act.state["tournament"]
    now = clock_moment(act, tournament)
    armed_for = payload.get("at")
    if armed_for:
        now = max(now, datetime.fromisoformat(armed_for))
    since = datetime.fromisoformat(data["announced"]) if data.get("announced") else now
    due = tournament.clock.announcements_between(since, now)
    if len(due) == 1 and now - due[0].at <= STALE_ANNOUNCEMENT:
        act.say_text(render.announcement(act.voice, due[0]))
    elif due:
        act.say_text(render.status(act.voice, tournament, now))
    if tournament.can_reopen_addons(since, now):  # down across the whole first break: its add-ons are sold now
        _save(act, tournament, tournament.reopen_addons(since, now), ctl)
    data["announced"] = now.isoformat()
    _arm_clock(act, tournament)
    _play_on(ctl, act, tournament)


def _play_on(ctl: HoldemTable, act: Action, tournament: Tournament, *, deal: bool = True) -> None:
    """After the clock moved (on time, or by the organizer's skip, minutes or resume), between hands: a lone player
    whom nobody may now come back to (the rebuy period is over) has won (`_maybe_end`); otherwise, when `deal`, the
    next hand is dealt (the table refuses it quietly during a break or a pause)."""
    if act.state.get("hand"):
        return
    _maybe_end(ctl, act, tournament)
    if deal and act.state.get("tournament"):
        ctl.start_hand(act, quiet=True)


def _clock_key(act: Action) -> str:
    return f"clock:{act.place.table_id}"


def _arm_clock(act: Action, tournament: Tournament) -> None:
    """Arm the next announcement as an appointment, so many seconds from the clock's now, naming its instant."""
    now = clock_moment(act, tournament)
    due = tournament.clock.next_announcement_at(now)
    if due is None:
        act.disarm(_clock_key(act))
    else:
        act.arm(_clock_key(act), max(0.0, (due - now).total_seconds()), kind="clock", at=due.isoformat(),
                **{APPOINTMENT: True})


def table_zone(act: Action) -> str:
    """The time zone the table's times are read in: its `/set timezone` (or a chat-wide one an older version kept),
    else UTC."""
    zone = str(act.chat_settings.get("timezone") or act.config.get("timezone") or DEFAULT_TIMEZONE)
    return zone if valid_timezone(zone) else DEFAULT_TIMEZONE


def valid_timezone(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine knows."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def timezone_named(typed: str) -> str | None:
    """The IANA time zone a player typed, spelled as the database spells it ("europe/moscow" is Europe/Moscow), or
    None when the machine knows no such zone."""
    return typed if valid_timezone(typed) else _zones_by_folded().get(typed.casefold())


@functools.cache
def _zones_by_folded() -> dict[str, str]:
    """Every time zone this machine knows, by its name casefolded (read once: the list does not change while the
    bot runs)."""
    return {zone.casefold(): zone for zone in zoneinfo.available_timezones()}
