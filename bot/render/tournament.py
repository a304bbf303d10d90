"""Tournament text: the clock's status and announcements, the options, registrations, rebuys, add-ons, re-entries,
bounties and cash-outs, pawned items, the final places and the settlement; the buttons for rebuys and add-ons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from bot.commands import button_payload
from bot.games.context import Action
from bot.i18n import Signed
from bot.output import Button
from engine.clock import Announcement, AnnouncementKind
from engine.common import Event
from engine.schedule import Schedule, ScheduleError
from engine.settlement import Settlement, SettlementRow
from engine.tournament import (
    BountyCollected,
    ItemBoughtBack,
    PawnedItem,
    PawnRecorded,
    PawnRedeemed,
    Phase,
    PlayerAddedOn,
    PlayerCashedOut,
    PlayerEliminated,
    PlayerRebought,
    PlayerReentered,
    PlayerRegistered,
    PlayerUnregistered,
    Tournament,
    TournamentConfig,
)
from engine.tournament_options import OptionError


def money(amount: Fraction) -> Decimal:
    """Money units to the cent, exact amounts as whole numbers (50, 16.67, 50.80); the catalogue writes them per
    language ("16,67" in Russian)."""
    cents = round(amount * 100)
    return Decimal(cents // 100) if cents % 100 == 0 else Decimal(cents).scaleb(-2)


def _minutes(act: Action, delta: timedelta | None) -> str:
    """Time left: hours and minutes, minutes, or seconds in the last minute."""
    if delta is None:
        return "—"
    seconds = max(0, int(delta.total_seconds()))
    if seconds < 60:
        return act.t("duration.seconds", seconds=seconds)
    total = seconds // 60
    if total >= 60:
        return act.t("duration.hours", hours=total // 60, minutes=f"{total % 60:02d}")
    return act.t("duration.minutes", minutes=total)


def schedule_text(act: Action, schedule: Schedule) -> str:
    """The schedule in the chat's language, in the form `/tournament create` reads back ("10/20 until 19:00; break
    until 20:00; 50/100", «10/20 до 19:00; перерыв до 20:00; 50/100»)."""
    levels = []
    for level in schedule.levels:
        limits = level.limits or act.t("tournament.schedule_break")
        if level.until is not None:
            levels.append(act.t("tournament.schedule_until", limits=limits, until=f"{level.until:%H:%M}"))
        elif level.duration is not None and level is not schedule.levels[-1]:
            levels.append(act.t("tournament.schedule_lasting", limits=limits, duration=_minutes(act, level.duration)))
        else:
            levels.append(limits)
    return "; ".join(levels)


def schedule_problem(act: Action, error: ScheduleError) -> str:
    """Why a written schedule was refused, in the chat's language (the engine's English when untranslated)."""
    params = dict(error.params)
    level, part = params.pop("at_level", None), params.pop("at_part", None)
    try:
        reason = act.t(f"schedule.{error.code}", **params)
    except (KeyError, IndexError):
        return error.message
    return reason if level is None else act.t("schedule.in_level", level=level, part=part, reason=reason)


def option_problem(act: Action, error: OptionError) -> str:
    """Why a `/tournament create` option was refused, in the chat's language."""
    params = {name: money(value) if name == "buy_in" else value for name, value in error.params.items()}
    return act.t(f"option.{error.code}", **params)


def options_text(act: Action, config: TournamentConfig) -> str:
    """The tournament's options as `/tournament create` announces them (rebuys, add-ons, re-entry, bounty, price)."""
    parts = []
    if config.rebuys:
        parts.append(act.t("tournament.option_rebuys", count=config.rebuys, chips=config.chips))
    if config.addons:
        parts.append(act.t("tournament.option_addons", count=config.addons))
    if config.reentry:
        parts.append(act.t("tournament.option_reentry"))
    if config.bounty:
        parts.append(act.t("tournament.option_bounty", bounty=money(config.bounty)))
    if config.rebuys or config.addons or config.reentry:
        parts.append(act.t("tournament.option_price", price=money(config.stack_price), chips=config.chips))
    return act.t("tournament.options", options="; ".join(parts))


def tally(act: Action, tournament: Tournament) -> str:
    """For a tournament with options: players left of the entries, the rebuys, add-ons and re-entries so far, the
    bounties still on players' heads and the money paid in ("" without options)."""
    config, summary = tournament.config, tournament.summary()
    if not (config.rebuys or config.addons or config.reentry or config.bounty):
        return ""
    counts = []
    if config.rebuys:
        counts.append(act.t("tournament.tally_rebuys", count=summary.rebuys))
    if config.addons:
        counts.append(act.t("tournament.tally_addons", count=summary.addons))
    if config.reentry:
        counts.append(act.t("tournament.tally_reentries", count=summary.reentries))
    if config.bounty:
        counts.append(act.t("tournament.tally_bounties", money=money(summary.bounty_pool)))
    return act.t("tournament.tally", players=summary.players_left, entries=summary.entries,
                 counts=" · ".join(counts), money=money(summary.money_in))


def status(act: Action, tournament: Tournament, now: datetime) -> str:
    """The clock: the level (or break), the blinds, time to the next change, paused or not; then, for a tournament
    with options, its counts (`tally`)."""
    extra = tally(act, tournament)
    return _clock_status(act, tournament, now) + (f"\n{extra}" if extra else "")


def _clock_status(act: Action, tournament: Tournament, now: datetime) -> str:
    if tournament.phase is Phase.REGISTERING:
        players = ", ".join(act.name(player) for player in tournament.entrants) or "—"
        return act.t("tournament.registering", players=players)
    if tournament.phase is Phase.FINISHED:
        return act.t("tournament.finished")
    level = tournament.clock.level_at(now)
    upcoming = level.next_level
    nxt = act.t("tournament.next_break") if upcoming is not None and upcoming.is_break else (
        upcoming.limits if upcoming is not None else "—")
    paused = " " + act.t("tournament.paused") if level.is_paused else ""
    if level.is_break:
        until = f"{tournament.clock.local(level.ends_at):%H:%M}" if level.ends_at else "—"
        return act.t("tournament.clock_break", until=until, remaining=_minutes(act, level.remaining)) + paused
    return act.t("tournament.clock_level", number=level.index + 1, limits=level.level.limits,
                 small=level.level.small_blind, big=level.level.big_blind, remaining=_minutes(act, level.remaining),
                 next=nxt) + paused


def no_play(act: Action, tournament: Tournament, now: datetime) -> str:
    """Why no hand is dealt now: the clock is paused (the organizer resumes it), or a break until a time."""
    level = tournament.clock.level_at(now)
    if level.is_paused:
        return act.t("tournament.paused_now")
    until = f"{tournament.clock.local(level.ends_at):%H:%M}" if level.ends_at else "—"
    return act.t("tournament.on_break", until=until)


def late_start(act: Action, tournament: Tournament, now: datetime) -> str:
    """A tournament started after its first level's scheduled end begins at the level the clock is on: say which,
    and that the schedule runs by the clock."""
    level = tournament.clock.level_at(now)
    started = f"{tournament.clock.local(now):%H:%M}"
    if level.is_break:
        until = f"{tournament.clock.local(level.ends_at):%H:%M}" if level.ends_at else "—"
        return act.t("tournament.late_start_break", time=started, until=until)
    return act.t("tournament.late_start", time=started, number=level.index + 1, limits=level.level.limits)


def announcement(act: Action, item: Announcement) -> str:
    """One clock announcement for the channel."""
    if item.kind is AnnouncementKind.LEVEL_SOON:
        if item.limit is None:
            return act.t("tournament.break_soon", minutes=item.minutes)
        return act.t("tournament.level_soon", minutes=item.minutes, limits=item.limits)
    if item.kind is AnnouncementKind.BREAK_STARTED:
        until = f"{item.until:%H:%M}" if item.until else "—"
        return act.t("tournament.break_started", until=until)
    if item.kind is AnnouncementKind.PLAY_RESUMED:
        return act.t("tournament.play_resumed", limits=item.limits)
    return act.t("tournament.level_started", limits=item.limits)


def narrate(act: Action, tournament: Tournament, events: Iterable[Event]) -> None:
    """Public lines for registrations, eliminations, cash-outs and items."""
    for event in events:
        if isinstance(event, PlayerRegistered):
            act.say("tournament.registered", player=act.name(event.player), chips=event.chips,
                    money=money(event.money), count=len(tournament.entrants))
        elif isinstance(event, PlayerUnregistered):
            act.say("tournament.unregistered", player=act.name(event.player), chips=event.chips,
                    money=money(event.money), count=len(tournament.entrants))
        elif isinstance(event, PlayerEliminated):
            act.say("tournament.eliminated", player=act.name(event.player), place=event.place)
        elif isinstance(event, BountyCollected):
            act.say_text(bounty(act, event))
        elif isinstance(event, PlayerRebought):
            act.say("tournament.rebought", player=act.name(event.player), chips=event.chips, money=money(event.money))
        elif isinstance(event, PlayerAddedOn):
            act.say("tournament.added_on", player=act.name(event.player), chips=event.chips, money=money(event.money))
        elif isinstance(event, PlayerReentered):
            act.say("tournament.reentered", player=act.name(event.player), chips=event.chips,
                    money=money(event.money))
        elif isinstance(event, PlayerCashedOut):
            act.say("tournament.cashed_out", player=act.name(event.player), chips=event.chips,
                    money=money(event.money))
        elif isinstance(event, PawnRecorded):
            act.say("tournament.pawned", player=act.name(event.owner), item=event.description,
                    chips=event.chips, price=money(event.price))
        elif isinstance(event, ItemBoughtBack):
            act.say("tournament.bought_back", player=act.name(event.owner), item=event.description,
                    money=money(event.money))
        elif isinstance(event, PawnRedeemed):
            act.say("tournament.redeemed", player=act.name(event.owner), item=event.description, chips=event.chips)


def bounty(act: Action, event: BountyCollected) -> str:
    """A bounty collected at a bust-out: by its one winner, or split between the winners of a split pot."""
    if len(event.winners) == 1:
        [(winner, amount)] = event.winners.items()
        return act.t("tournament.bounty_won", winner=act.name(winner), player=act.name(event.player),
                     money=money(amount))
    shares = ", ".join(act.t("tournament.bounty_share", player=act.name(winner), money=money(amount))
                       for winner, amount in event.winners.items())
    return act.t("tournament.bounty_split", player=act.name(event.player), money=money(event.money), shares=shares)


def offer_buttons(act: Action, key: str, decision: str) -> tuple[Button, ...]:
    """Between hands: a Rebuy button during the rebuy period and an Add-on button at the first break, when the
    tournament offers them (whoever presses is checked as for the command)."""
    data = act.state.get("tournament")
    if not data:
        return ()
    tournament = Tournament.from_dict(data["engine"])
    if tournament.phase is not Phase.RUNNING:
        return ()
    now = datetime.fromtimestamp(act.now, tz=UTC)
    if tournament.clock.changed_at is not None:
        now = max(now, tournament.clock.changed_at)
    buttons = []
    if tournament.config.rebuys and tournament.is_rebuy_period(now):
        buttons.append(Button(act.t("button.rebuy"), button_payload(key, "rebuy", decision)))
    if tournament.config.addons and tournament.is_addon_time(now):
        buttons.append(Button(act.t("button.addon"), button_payload(key, "addon", decision)))
    return tuple(buttons)


def items(act: Action, held: Sequence[PawnedItem]) -> str:
    """A player's pawned items, one a line with the number `/tournament redeem` takes."""
    return "\n".join(act.t("tournament.item", number=item.item_id, item=item.description, chips=item.chips)
                     for item in held)


def results(act: Action, places: Mapping[str, int], cashed_out: Sequence[str]) -> str:
    """The end of the tournament: the winner (or those sharing first place), every place in order, and the players
    who cashed out before the end."""
    if not places:
        return act.t("tournament.over_unplayed")
    winners = [act.name(player) for player, place in places.items() if place == 1]
    key = "tournament.over_winner" if len(winners) == 1 else "tournament.over_winners"
    lines = [act.t(key, winners=", ".join(winners))]
    lines.append(act.t("tournament.places", places=" · ".join(
        act.t("tournament.place", place=place, player=act.name(player)) for player, place in places.items())))
    if cashed_out:
        lines.append(act.t("tournament.left_early", players=", ".join(act.name(player) for player in cashed_out)))
    return "\n".join(lines)


def settlement(act: Action, result: Settlement) -> str:
    """The final ledger and who pays whom."""
    lines = [act.t("tournament.settlement_title")]
    for row in result.rows:
        line = act.t("tournament.settlement_row", player=act.name(row.player), paid=money(row.paid_in),
                     cashed=money(row.cashed_out), items=money(row.items_bought_back),
                     net=Signed(money(Fraction(row.net_cents, 100))))
        extras = _settlement_extras(act, row)
        lines.append(f"{line} ({extras})" if extras else line)
    if result.transfers:
        lines.append(act.t("tournament.transfers_title"))
        lines += [act.t("tournament.transfer", payer=act.name(item.payer), payee=act.name(item.payee),
                        amount=money(item.amount)) for item in result.transfers]
    else:
        lines.append(act.t("tournament.no_transfers"))
    return "\n".join(lines)


def _settlement_extras(act: Action, row: SettlementRow) -> str:
    """What a row's payments held beyond the buy-in, and the bounties received ("" when nothing)."""
    parts = []
    if row.rebuys:
        parts.append(act.t("tournament.tally_rebuys", count=row.rebuys))
    if row.addons:
        parts.append(act.t("tournament.tally_addons", count=row.addons))
    if row.reentries:
        parts.append(act.t("tournament.tally_reentries", count=row.reentries))
    if row.bounties:
        parts.append(act.t("tournament.settlement_bounties", money=money(row.bounties)))
    return ", ".join(parts)
