"""A Hold'em table's tournament commands: creating it (with its options), registration and re-entry, the clock's
commands, rebuys and add-ons, cash-outs, redeeming pawns, closing it; and the time zone its times are read in. Its
play (the hooks around a hand, the clock's announcements, the end) is `bot.games.tournament_play`.

Re-entry goes through the usual register command (`/join`, `/tournament register`): a busted player registering again
during late registration re-enters. `/rebuy` and `/addon` (also `/tournament rebuy`, `/tournament addon`) are bought
between hands; the table shows their buttons between hands while they are on offer.

The organizer's pause (`/tournament pause`) stops the clock, and play with it, as a card room does when the clock
stops (RULES.md says only that the organizer pauses and resumes it): the hand in play is finished, no new hand is dealt
until he resumes it (`tournament_play.deal_level`), and between hands players may still rebuy (the clock standing,
the rebuy period stands too), take an add-on at a break, redeem an item or cash out. A table paused because the bot
cannot reach its chat is another pause: it plays nothing at all (`bot.service.pauses`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot import commands as cmd
from bot.command_parser import whole_number
from bot.games import tournament_play as play
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.games.tournament_play import clock_moment, moment
from bot.games.zones import table_zone
from bot.render import tournament as render
from bot.render.clock_options import clock_options_line
from engine.common import all_moves
from engine.schedule import PRESETS, ScheduleError, parse_schedule
from engine.tournament import Phase, Tournament, TournamentConfig
from engine.tournament_options import OptionError, split_options

COMMANDS = (cmd.Tournament, cmd.Clock, cmd.CashOut, cmd.Rebuy, cmd.Addon)
"""The commands a tournament table hands to `handle`."""


def handle(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/tournament …`, `/clock`, `/cashout`, `/rebuy` and `/addon`."""
    if isinstance(command, cmd.Clock):
        _clock(act, options=True)
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
            raise act.usage_refusal("tournament", "usage.tournament")
        action(ctl, act, command.argument)


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
        with act.privately(act.user):  # the problem in the organizer's language, as the sentence around it
            raise act.refuse("tournament.bad_option", reason=render.option_problem(act.voice, error)) from None
    text = text or "home-night"
    try:
        schedule = PRESETS[text](zone) if text in PRESETS else parse_schedule(text, zone)
    except ScheduleError as problem:  # not `error`, the OptionError's name: compiled, a name keeps its first type
        with act.privately(act.user):
            raise act.refuse("tournament.bad_schedule", reason=render.schedule_problem(act.voice, problem)) from None
    config = dataclasses.replace(config, rebuys=options.rebuys, addons=options.addons, reentry=options.reentry,
                                 bounty=options.bounty,
                                 max_pawns=config.max_pawns if options.max_pawns is None else options.max_pawns)
    tournament = play.apply_rule(act, Tournament, config, schedule)
    tournament_id = act.tx.save_tournament(None, act.place.chat_id, act.place.table_id, tournament.phase.value,
                                           tournament.to_dict())
    act.state["tournament"] = {"id": tournament_id, "engine": tournament.to_dict(), "announced": None}
    act.say("tournament.created", number=tournament_id, schedule=render.schedule_text(act.voice, schedule), zone=zone,
            buy_in=render.money(tournament.config.buy_in), chips=tournament.config.chips)
    if options.named:
        act.say_text(render.options_text(act.voice, tournament.config, pawns=options.max_pawns is not None))


def register(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """Buy in (or, busted during late registration, re-enter): the player gets his chips from the bank and a seat.

    The price and the chips are the tournament's: an amount (`/join 500`, as at a cash table) is refused with them,
    as a card room's desk would, rather than taken for a buy-in at other terms than he asked. (An older version
    registered him at the tournament's terms: such a logged registration replays as it was applied.)"""
    tournament = play.require(act)
    if ctl.seat(act, act.user) is not None:
        raise act.refuse("holdem.already_seated")
    if len(act.state["seats"]) >= ctl.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    now = clock_moment(act, tournament)
    if whole_number(argument.strip()) is not None and not act.replaying:
        play.apply_rule(act, tournament.verify_register, act.user, now)  # why he may not register at all comes first
        raise act.refuse("tournament.fixed_buy_in", chips=tournament.config.chips,
                         money=render.money(tournament.entry_price(act.user)))
    events = play.apply_rule(act, tournament.register, act.user, now)
    ctl.sit(act, act.user, tournament.config.chips)
    play.save(act, tournament, events, ctl)
    _deal_soon(ctl, act, tournament)
    act.show_table(ctl.table_message(act))


def leave(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> None:
    """`/leave` at a tournament table: before the start the player unregisters (his chips go back to the bank and the
    buy-in to him); after it he may only cash out."""
    tournament = play.require(act)
    if tournament.phase is not Phase.REGISTERING:
        raise act.refuse("holdem.use_cashout")
    events = play.apply_rule(act, tournament.unregister, act.user)
    ctl.remove_seat(act, seat)
    play.save(act, tournament, events, ctl)
    act.show_table(ctl.table_message(act))


def zone_set(ctl: HoldemTable, act: Action, zone: str) -> None:
    """`/set timezone` at a tournament's table (the setting already changed): a tournament not yet started reads its
    end times in the new zone, said with its schedule; a running one keeps the zone its clock runs on (the times it
    announced stand), and says so, so that nobody takes "until 19:00" for the new zone's 19:00."""
    tournament = play.load(act)
    if tournament is None or tournament.phase is Phase.FINISHED:
        return
    number = act.state["tournament"]["id"]
    if not tournament.clock.can_set_zone(zone):
        act.say("tournament.zone_kept", number=number, zone=tournament.clock.schedule.tz)
        return
    events = tournament.clock.set_zone(zone)
    play.save(act, tournament, events, ctl)
    act.say("tournament.zone_set", number=number, zone=zone,
            schedule=render.schedule_text(act.voice, tournament.clock.schedule))


def _start(ctl: HoldemTable, act: Action, argument: str) -> None:
    act.require_organizer()
    tournament = play.require(act)
    events = play.apply_rule(act, tournament.start, moment(act))
    act.state["tournament"]["announced"] = tournament.clock.started_at.isoformat() if tournament.clock.started_at \
        else None
    play.save(act, tournament, events, ctl)
    act.say_text(late_start_text(act, tournament))
    _clock(act, tournament)
    play.arm_clock(act, tournament)
    ctl.start_hand(act, quiet=True)


def _clock_action(name: str) -> Any:
    def run(ctl: HoldemTable, act: Action, argument: str) -> None:
        act.require_organizer()
        tournament = play.require(act)
        if name == "adjust":
            minutes = whole_number(argument, signed=True)
            if minutes is None:
                raise act.refuse("parse.usage", command="tournament minutes", usage="+5 | -5")
            events = play.apply_rule(act, tournament.clock.adjust, clock_moment(act, tournament), minutes)
        else:
            events = play.apply_rule(act, getattr(tournament.clock, name), clock_moment(act, tournament))
        play.save(act, tournament, events, ctl)
        _clock(act, tournament)
        # The status just said covers the clock's change: the next announcement (a warning, a level) is said as
        # itself, not taken for a backlog of what the change skipped.
        act.state["tournament"]["announced"] = clock_moment(act, tournament).isoformat()
        play.arm_clock(act, tournament)
        play.play_on(ctl, act, tournament, deal=name in ("resume", "skip"))

    return run


def _close(ctl: HoldemTable, act: Action, argument: str) -> None:
    """The organizer ends the tournament; once it is over, anyone may see its results again."""
    if not act.state.get("tournament"):
        last = act.state.get("last_tournament")
        if not last:
            raise act.refuse("tournament.none")
        play.show_results(act, Tournament.from_dict(last["engine"]))
        return
    act.require_organizer()
    tournament = play.require(act)
    if act.state.get("hand"):
        raise act.refuse("holdem.hand_in_play")
    play.finish(ctl, act, tournament)


def _status(ctl: HoldemTable, act: Action, argument: str) -> None:
    """The clock's status told privately and, until the tournament is over, its options when it has any (the
    clock, `/clock`, says only the clock)."""
    tournament = _current_or_last(act)
    with act.privately(act.user):  # the status in his language too, not the chat's inside his sentence
        text = render.status(act.voice, tournament, clock_moment(act, tournament))
        if tournament.phase is not Phase.FINISHED and render.has_options(tournament.config):
            text += "\n" + render.options_text(act.voice, tournament.config)
        act.tell(act.user, "tournament.status", text=text)


def _redeem(ctl: HoldemTable, act: Action, argument: str) -> None:
    """`/tournament redeem N` buys item N back for its chips between hands; without N, lists the player's items. In a
    tournament without pawning, whoever asks and whenever, the reason is that (as `/pawn`'s), not a missing item."""
    tournament = play.require(act)
    play.verify_pawning(act)
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise ctl.not_playing(act)
    if not argument.strip():
        items = tournament.held_items(act.user)
        if not items:
            raise act.refuse("tournament.no_items")
        with act.privately(act.user):
            act.tell(act.user, "tournament.items", items=render.items(act.voice, items))
        return
    if act.state.get("hand"):
        raise act.refuse("holdem.hand_in_play")
    number = whole_number(argument)
    if number is None:
        raise act.usage_refusal("tournament redeem", "tournament.redeem_usage")
    events = play.apply_rule(act, tournament.redeem_pawn, act.user, number, stack=seat["stack"])
    seat["stack"] -= sum(move.amount for move in all_moves(events))
    play.save(act, tournament, events, ctl)
    act.show_table(ctl.table_message(act))  # his stack, less the price, where the table showed it before


def _rebuy(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """Between hands, during the rebuy period: the starting stack again, on the player's stack or (busted) a seat.
    Whether he may rebuy at all now (offered, the period, one left) is said before "between hands", which would
    promise a rebuy after the hand that is not there; his stack is asked between hands, when it is known."""
    tournament = play.require(act)
    now = clock_moment(act, tournament)
    play.apply_rule(act, tournament.verify_rebuy, act.user, None, now)
    seat = ctl.seat(act, act.user)
    _between_hands(ctl, act, "tournament.rebuy_between_hands")
    if seat is None and len(act.state["seats"]) >= ctl.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    events = play.apply_rule(act, tournament.rebuy, act.user, seat["stack"] if seat else 0, now)
    _add_chips(ctl, act, seat, tournament.config.chips)
    play.save(act, tournament, events, ctl)
    _deal_soon(ctl, act, tournament)
    act.show_table(ctl.table_message(act))


def _deal_soon(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """A player seated while the tournament runs (a late entry, a re-entry, a busted player's rebuy) may bring the
    table back to two: the next hand is dealt after the usual pause, as the table says, not at the clock's next word."""
    if tournament.phase is Phase.RUNNING:
        ctl._maybe_schedule_next(act)


def _addon(ctl: HoldemTable, act: Action, argument: str = "") -> None:
    """At the first break (or while add-ons missed with it are sold again): the starting stack once more on the
    player's stack. Whether he may take it at all now (offered, the break, one left) is said before "between hands",
    as for a rebuy."""
    tournament = play.require(act)
    now = clock_moment(act, tournament)
    play.apply_rule(act, tournament.verify_addon, act.user, now)
    _between_hands(ctl, act, "tournament.addon_between_hands")
    events = play.apply_rule(act, tournament.addon, act.user, now)
    _add_chips(ctl, act, ctl.seat(act, act.user), tournament.config.chips)
    play.save(act, tournament, events, ctl)
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
    tournament = play.require(act)
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise ctl.not_playing(act)
    hand = ctl._hand(act)
    if hand is not None and act.user in hand.players:
        raise act.refuse("tournament.cash_out_between_hands")
    events = play.apply_rule(act, tournament.cash_out, act.user, seat["stack"], clock_moment(act, tournament))
    ctl.remove_seat(act, seat)
    play.save(act, tournament, events, ctl)
    play.maybe_end(ctl, act, tournament)
    if act.state.get("tournament"):
        act.show_table(ctl.table_message(act))


def _clock(act: Action, tournament: Tournament | None = None, *, options: bool = False) -> None:
    """The clock's status in the channel; asked for (`/clock`), with the tournament's options in a line, as a card
    room's clock screen names them (the organizer's clock commands say the clock alone)."""
    tournament = tournament or _current_or_last(act)
    now = clock_moment(act, tournament)
    said = render.status(act.voice, tournament, now)
    line = clock_options_line(act.voice, tournament, now) if options else ""
    act.say_text(f"{said}\n{line}" if line else said)


def _current_or_last(act: Action) -> Tournament:
    """The table's tournament or, once it is over, the last one: asked about it then, the clock says it is over and
    where its results are, not that the table never had one."""
    last = act.state.get("last_tournament")
    if not act.state.get("tournament") and last:
        return Tournament.from_dict(last["engine"])
    return play.require(act)


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
    "clock": lambda ctl, act, argument: _clock(act, options=True),
    "cashout": lambda ctl, act, argument: _cash_out(ctl, act),
    "redeem": _redeem,
    "rebuy": _rebuy,
    "addon": _addon,
}


def late_start_text(act: Action, tournament: Tournament) -> str:
    """For a tournament started after its first level's scheduled end: at which level it begins and why ("" when
    it begins at the first)."""
    now = moment(act)
    status = tournament.clock.level_at(now)
    if status.index == 0:
        return ""
    return render.late_start(act.voice, tournament, now)
