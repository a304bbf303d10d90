"""A tournament's play at a Hold'em table: its state in the table's snapshot, the clock's instant, the hooks the
Hold'em controller calls around a hand (the level, a break, pawns, bust-outs, the buttons between hands), the clock's
announcements, and the end. The commands that change it (creating it, registration, rebuys, add-ons, cash-outs) are
`bot.games.tournament`.

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

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.command_parser import button_payload
from bot.games import practice as bots
from bot.games.context import Action, Refusal
from bot.games.holdem_table import HoldemTable
from bot.output import Button, TableMessage
from bot.render import tournament as render
from bot.scheduler import APPOINTMENT, BY_PAUSE, DOWN_SINCE
from engine.common import Event, RuleError, all_moves
from engine.holdem import Hand, ItemPawned, PawnRules
from engine.tournament import Phase, PlayerEliminated, Tournament, TournamentConfig

NO_PAWNS = PawnRules(value=0)
"""The pawn rules of a hand that takes no pawn (the engine refuses one, `pawn_disabled`, and offers none): a cash
table's, since the rule is the tournament's, and a tournament's created with `pawns 0`."""
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


def load(act: Action) -> Tournament | None:
    """The table's tournament, read from its snapshot (`state["tournament"]`), None when there is none."""
    data = act.state.get("tournament")
    return Tournament.from_dict(data["engine"]) if data else None


def save(act: Action, tournament: Tournament, events: list[Event], ctl: HoldemTable, *, paused: bool = False) -> None:
    """Write the events' chips, keep the state in the snapshot and the record, and say what happened (`paused`: what
    a downtime gave back is said as taken by a pause of the table, `render.narrate`)."""
    data = act.state["tournament"]
    key = f"t{data['id']}"
    act.apply_moves(all_moves(events), lambda name: ctl._account(act, name), key)
    act.record(key, events)
    for said in render.narrate(act.voice, tournament, events, paused=paused, now=clock_moment(act, tournament)):
        act.say_text(said)
    keep(act, tournament)


def keep(act: Action, tournament: Tournament) -> None:
    """Keep the tournament's state in the table's snapshot and in the tournament's record."""
    data = act.state["tournament"]
    data["engine"] = tournament.to_dict()
    act.tx.save_tournament(data["id"], act.place.chat_id, act.place.table_id, tournament.phase.value, data["engine"])


def pawn_line(act: Action, hand: Hand) -> str | None:
    """The line under a tournament hand's table when the player to act is short of the call and may pawn an item to
    play on (RULES.md §1): how, for how many chips and what is refused; None otherwise (a cash table or a tournament
    without pawning, whose hands take no pawn; a computer player, a player who covers the call or has pawned all he
    may, and anyone in a `pawns 0` tournament's hand that an older version dealt with pawn rules)."""
    player = hand.to_act
    data = act.state.get("tournament")
    if not data or player is None or bots.is_bot(player) or not hand.legal_actions().can_pawn:
        return None
    spent = data.get("pawns_spent")
    if spent is None:  # a hand dealt by a version that did not keep them
        spent = pawns_spent(act, require(act))
    if player in spent:
        return None
    return act.t("tournament.may_pawn", player=act.name(player), chips=hand.pawn_rules.value)


def pawns_spent(act: Action, tournament: Tournament) -> list[str]:
    """The table's players who may pawn nothing more (all the items they may pawn are pawned): kept with the
    tournament's state at the deal and at each pawn, so that `pawn_line`, drawn on every action while a player is
    short of the call, need not load the tournament."""
    return [seat["id"] for seat in act.state["seats"] if not tournament.can_pawn(seat["id"])]


def bank_account(act: Action) -> str:
    """The ledger account that issues and takes back the tournament's chips."""
    data = act.state.get("tournament")
    if not data:
        raise RuntimeError("no tournament at this table")
    return f"bank:{act.place.table_id}:t{data['id']}"


def require(act: Action) -> Tournament:
    """The table's tournament; refuses when there is none."""
    tournament = load(act)
    if tournament is None:
        raise act.refuse("tournament.none")
    return tournament


def apply_rule(act: Action, call: Any, *args: Any, **kwargs: Any) -> Any:
    """Call an engine action, a rule it breaks refused with its reason in the actor's language (not playing, for a
    player knocked out of the tournament: that he is out, `out_refusal`)."""
    try:
        return call(*args, **kwargs)
    except RuleError as error:
        out = out_refusal(act) if error.code == "not_playing" else None
        raise (out or act.rule_refusal(error)) from None


@dataclass(frozen=True, slots=True)
class DealLevel:
    """The clock's level a hand is dealt at, read once for the deal with the tournament: its limit L, its index in the
    schedule, the number players know it by (counted without the breaks), the pawns the hand accepts (`NO_PAWNS` in
    a tournament without pawning) and who has pawned all he may (`pawns_spent`)."""

    limit: int
    index: int
    number: int
    pawns: PawnRules
    pawns_spent: list[str]


def deal_level(ctl: HoldemTable, act: Action) -> DealLevel | None:
    """The level the next hand is dealt at, None during a break or a pause; refuses when the tournament is not
    running."""
    tournament = require(act)
    if tournament.phase is not Phase.RUNNING:
        raise act.refuse("tournament.not_running")
    status = tournament.clock.level_at(clock_moment(act, tournament))
    if status.is_paused or status.level.limit is None:
        return None
    config = tournament.config
    pawns = PawnRules(value=config.pawn_chips) if config.max_pawns else NO_PAWNS  # `pawns 0`: none, as a cash table
    return DealLevel(status.level.limit, status.index, tournament.clock.schedule.level_number(status.index), pawns,
                     pawns_spent(act, tournament))


def break_until(ctl: HoldemTable, act: Action) -> str:
    """When play resumes, as local time text (or "—")."""
    tournament = require(act)
    return render.local_time(tournament, tournament.clock.level_at(clock_moment(act, tournament)).ends_at)


def no_play_refusal(ctl: HoldemTable, act: Action, tournament: Tournament | None = None) -> Refusal:
    """Why no hand is dealt now, for a refusal: the clock is paused, or a break runs until a time (`tournament`: the
    table's, when it is loaded already)."""
    if tournament is None:
        tournament = require(act)
    return Refusal(render.no_play(act.voice, tournament, clock_moment(act, tournament)))


def is_stopped(ctl: HoldemTable, act: Action) -> bool:
    """Whether the tournament is running but deals no hand now (a break, or the clock paused)."""
    return stops_play(act, load(act))


def stops_play(act: Action, tournament: Tournament | None) -> bool:
    """`is_stopped` for the table's tournament loaded already (None: the table has none)."""
    if tournament is None or tournament.phase is not Phase.RUNNING:
        return False
    status = tournament.clock.level_at(clock_moment(act, tournament))  # a wall clock stepped back reads no earlier
    return status.is_paused or status.is_break


def comeback_text(act: Action, tournament: Tournament | None) -> str:
    """In the table's tournament (`tournament`, loaded already; None: the table has none), running and down to one
    player with chips, who may still come back and how (a rebuy, a re-entry), until the rebuy period ends, as the
    bust lines say it (`render.rebuy_period_end`: a local time, or the first break or play resuming while a pause
    keeps the time unknown); "" otherwise (then the table says what it waits for itself)."""
    if tournament is None or tournament.phase is not Phase.RUNNING or sum(
            seat["stack"] > 0 for seat in act.state["seats"]) > 1:
        return ""
    now = clock_moment(act, tournament)
    ways = tournament.comebacks(now)
    rebuying, reentering = ([act.name(player) for player, way in ways.items() if way == wanted]
                            for wanted in ("rebuy", "reentry"))
    return render.comeback(act.voice, rebuying, reentering, until=render.rebuy_period_end(act.voice, tournament, now))


def out_refusal(act: Action) -> Refusal | None:
    """The refusal for a player knocked out of the table's running tournament who tries to play (a hand's button,
    `/addon`): that he is out, in which place, or how he may still come back (`render.out_of_play`); None when he is
    not out of it."""
    tournament = load(act)
    if tournament is None:
        return None
    with act.privately(act.user):
        text = render.out_of_play(act.voice, tournament, act.user, clock_moment(act, tournament))
    return None if text is None else Refusal(text)


def verify_pawning(act: Action) -> None:
    """Refuse `/pawn`, whoever asks and whenever, where nothing may be pawned: a cash table, or a tournament created
    with `pawns 0` (that the turn is not his would not be the reason)."""
    data = act.state.get("tournament")
    if not data:
        raise act.refuse("tournament.no_pawns_here")
    if not TournamentConfig.from_dict(data["engine"]["config"]).max_pawns:
        raise act.refuse("tournament.no_pawning")


def verify_pawn(ctl: HoldemTable, act: Action, item: str) -> None:
    """Refuse a pawn the tournament would not accept (not playing, its limit of items reached, a refused kind)."""
    tournament = load(act)
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
    tournament = require(act)
    recorded: list[Event] = []
    for event in pawned:
        recorded += tournament.record_pawn(event.player, event.item, event.value, event.hand_number)
    act.state["tournament"]["pawns_spent"] = pawns_spent(act, tournament)
    save(act, tournament, recorded, ctl)


def after_hand(ctl: HoldemTable, act: Action, hand: Hand) -> None:
    """Players left without chips are eliminated (the engine places them, and their bounties go to the winners of
    the pot that took their last chips; while their places are not final, they hear how they may come back:
    `render.eliminated`, and hear their places when the rebuy period ends); the last one standing wins."""
    tournament = require(act)
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
        final = tournament.fix_places(clock_moment(act, tournament))  # before `save` keeps the tournament
        save(act, tournament, events, ctl)
        if not final:
            act.state["tournament"]["places_pending"] = True
    maybe_end(ctl, act, tournament)
    # the period may have ended during the hand, when `play_on` waited for it; those out in it heard their places
    _say_final_places(act, tournament, told=out)


def offer_buttons(act: Action, tournament: Tournament | None, key: str, decision: str) -> tuple[Button, ...]:
    """Between hands: a Rebuy button during the rebuy period and an Add-on button at the first break (or while add-ons
    missed with it are sold again), when the table's tournament (`tournament`, loaded already; None: the table has
    none) offers them (whoever presses is checked as for the command)."""
    if tournament is None or tournament.phase is not Phase.RUNNING:
        return ()
    now = clock_moment(act, tournament)
    buttons = []
    if tournament.config.rebuys and tournament.is_rebuy_period(now):
        buttons.append(Button(act.t("button.rebuy"), button_payload(key, "rebuy", decision)))
    if tournament.config.addons and tournament.is_addon_time(now):
        buttons.append(Button(act.t("button.addon"), button_payload(key, "addon", decision)))
    return tuple(buttons)


def maybe_end(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """One player left ends the tournament, unless a busted player may still come back (a rebuy or a re-entry): then
    it waits for him, until the rebuy period ends (the clock's announcement of the break, or the organizer's
    `/tournament skip`, `minutes` or `resume` moving the clock past it, calls this again: `play_on`). Nobody left
    (the last one cashed out) ends it at once: a comeback would have no one to play."""
    if tournament.phase is not Phase.RUNNING or len(act.state["seats"]) > 1:
        return
    if not act.state["seats"] or not tournament.comebacks(clock_moment(act, tournament)):
        finish(ctl, act, tournament)


def finish(ctl: HoldemTable, act: Action, tournament: Tournament) -> None:
    """End the tournament: the last stacks cash out, the results are said, the table is cleared.

    Ended between hands (`/tournament close`, the last cash-out, the clock ending the wait for a comeback), the table
    message showed the seats with a Deal (or Rebuy, Add-on) button, which would go on offering a deal: it now says
    the tournament is over, without buttons. Ended by a hand, it keeps that hand's story, already set."""
    drawn_for = ctl.decision(act)
    stacks = {seat["id"]: seat["stack"] for seat in act.state["seats"]}
    events = apply_rule(act, tournament.finish, moment(act), stacks)
    act.state["seats"], act.state["button"] = [], -1
    act.state.pop("big_blind", None)
    save(act, tournament, events, ctl)
    show_results(act, tournament)
    if act.reply.table is None and drawn_for is not None:
        act.show_table(TableMessage(drawn_for[0], render.status(act.voice, tournament, moment(act))))
    act.disarm(_clock_key(act))
    act.state["last_tournament"] = act.state["tournament"]
    act.state["tournament"] = None


def show_results(act: Action, tournament: Tournament) -> None:
    """The finished tournament's winner and places, then who pays whom."""
    act.say_text(render.results(act.voice, *tournament.standings()))
    act.say_text(render.settlement(act.voice, tournament.settle()))


def on_clock(ctl: HoldemTable, act: Action, payload: dict[str, Any]) -> None:
    """Post what the clock announces since the last time (or, for a backlog, its current state), then arm the next
    announcement. `payload["at"]` is the instant the timer was armed for: it is due, whatever the wall clock says.

    A timer that fell due while the bot was down (start-up gave it `DOWN_SINCE`, when the downtime began), or while
    the table was paused (`BY_PAUSE` too, from the resume), gives back what that took (`_give_back_downtime`). A
    backlog alone is no downtime: a wall clock that steps forward in a running bot brings the announcements due late
    too."""
    tournament = load(act)
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
        offer = render.addon_offer(act.voice, tournament, now)
        act.say_text(render.announcement(act.voice, due[0]) + (f"\n{offer}" if offer else ""))
    elif due:
        act.say_text(render.status(act.voice, tournament, now))
    if DOWN_SINCE in payload:
        _give_back_downtime(ctl, act, tournament, datetime.fromtimestamp(payload[DOWN_SINCE], tz=UTC), now,
                            paused=bool(payload.get(BY_PAUSE)))
    data["announced"] = now.isoformat()
    arm_clock(act, tournament)
    play_on(ctl, act, tournament)


def _give_back_downtime(ctl: HoldemTable, act: Action, tournament: Tournament, down_since: datetime,
                        now: datetime, *, paused: bool) -> None:
    """The bot was down (or, `paused`, the table was paused) from `down_since` until now: the rebuy period, when its
    end (the first break) passed then, runs again from now for as long as the downtime cut it short
    (`Tournament.reopen_rebuys`), and the first break's add-ons, when the whole break passed then, are sold again
    from now (`Tournament.reopen_addons`)."""
    events: list[Event] = []
    if tournament.can_reopen_rebuys(down_since, now):
        events += tournament.reopen_rebuys(down_since, now)
    if tournament.can_reopen_addons(down_since, now):
        events += tournament.reopen_addons(down_since, now)
    if events:
        save(act, tournament, events, ctl, paused=paused)


def play_on(ctl: HoldemTable, act: Action, tournament: Tournament, *, deal: bool = True) -> None:
    """After the clock moved (on time, or by the organizer's skip, minutes or resume), between hands: a lone player
    whom nobody may now come back to (the rebuy period is over) has won (`maybe_end`); otherwise the places of those
    out, when the rebuy period is over, are said final (`_say_final_places`); when `deal`, the next hand is dealt
    (the table refuses it quietly during a break or a pause)."""
    if act.state.get("hand"):
        return
    maybe_end(ctl, act, tournament)
    _say_final_places(act, tournament)
    if deal and act.state.get("tournament"):
        ctl.start_hand(act, quiet=True)
    show_stopped(ctl, act)


def _say_final_places(act: Action, tournament: Tournament, told: Collection[str] = ()) -> None:
    """Once the rebuy period is over (after the clock moved, or a hand), the places of the players out are said, once
    when any went out during it (told they were out for now, their places given at its end), but for those `told`
    theirs already (out in the hand that has just ended, after the period)."""
    data = act.state.get("tournament")
    if not data or not data.get("places_pending") or not tournament.fix_places(clock_moment(act, tournament)):
        return
    del data["places_pending"]
    keep(act, tournament)  # the places said, fixed
    said = render.places_final(act.voice, tournament, leaving_out=told)
    if said is not None:
        act.say_text(said)


def show_stopped(ctl: HoldemTable, act: Action) -> None:
    """Between hands while the clock stops play (a break, a pause): the table message shows the seats and why no
    hand comes, with what the break sells (the Add-on button), in place of the last hand's end or a Deal button the
    clock has made wrong."""
    if not act.state.get("hand") and act.state.get("seats") and is_stopped(ctl, act):
        act.show_table(ctl.table_message(act))


def _clock_key(act: Action) -> str:
    return f"clock:{act.place.table_id}"


def arm_clock(act: Action, tournament: Tournament) -> None:
    """Arm the next announcement as an appointment, so many seconds from the clock's now, naming its instant; sooner,
    the end of the rebuy period run again after downtime (`on_clock` then ends a lone player's wait for a
    comeback)."""
    now = clock_moment(act, tournament)
    due = tournament.clock.next_announcement_at(now)
    given_back_until = tournament.rebuys_given_back_until(now)
    if given_back_until is not None and (due is None or given_back_until < due):
        due = given_back_until
    if due is None:
        act.disarm(_clock_key(act))
    else:
        act.arm(_clock_key(act), max(0.0, (due - now).total_seconds()), kind="clock", at=due.isoformat(),
                **{APPOINTMENT: True})
