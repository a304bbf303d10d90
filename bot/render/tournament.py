"""Tournament text: the clock's status and announcements, the options, registrations, rebuys, add-ons, re-entries,
bounties and cash-outs, pawned items, the final places and the settlement; the buttons for rebuys and add-ons."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from babel.lists import format_list

from bot.i18n import Signed, format_number
from bot.render import Voice
from engine.clock_events import Announcement, AnnouncementKind
from engine.common import Event
from engine.schedule import Schedule, ScheduleError, clock_time_text, limits_text
from engine.settlement import Settlement, SettlementRow, to_cents
from engine.text import inert
from engine.tournament import (
    AddonsReopened,
    BountyCollected,
    EntrantStatus,
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
    RebuysReopened,
    Tournament,
    TournamentConfig,
)
from engine.tournament_options import OptionError


def money(amount: Fraction) -> Decimal:
    """Money units to the cent, exact amounts as whole numbers (50, 16.67, 50.80); the catalogue writes them per
    language ("16,67" in Russian)."""
    cents = to_cents(amount)
    return Decimal(cents // 100) if cents % 100 == 0 else Decimal(cents).scaleb(-2)


def duration_text(voice: Voice, delta: timedelta | None) -> str:
    """Time left: hours and minutes, minutes, or seconds in the last minute; minutes to the nearest, a half down (a
    20-minute level a few seconds old has "20m" left, not "19m"; 12m30s is "12m")."""
    if delta is None:
        return "—"
    seconds = max(0, int(delta.total_seconds()))
    if seconds < 60:
        return voice.t("duration.seconds", seconds=seconds)
    total = (seconds + 29) // 60
    if total >= 60:
        return voice.t("duration.hours", hours=total // 60, minutes=f"{total % 60:02d}")
    return voice.t("duration.minutes", minutes=total)


def local_time(tournament: Tournament, instant: datetime | None) -> str:
    """When a level or break ends, in the tournament's time zone to the second it really ends ("20:00", "20:00:30"),
    "—" when unknown."""
    if instant is None:
        return "—"
    return clock_time_text(tournament.clock.local(instant).time().replace(microsecond=0))


def schedule_text(voice: Voice, schedule: Schedule) -> str:
    """The schedule in the chat's language, in the form `/tournament create` reads back ("10/20 until 19:00; break
    until 20:00; 50/100", «10/20 до 19:00; перерыв до 20:00; 50/100»)."""
    levels = []
    for level in schedule.levels:
        written = level.limits or voice.t("tournament.schedule_break")
        if level.until is not None:
            levels.append(voice.t("tournament.schedule_until", limits=written, until=f"{level.until:%H:%M}"))
        elif level.duration is not None and level is not schedule.levels[-1]:
            levels.append(voice.t("tournament.schedule_lasting", limits=written,
                                  duration=duration_text(voice, level.duration)))
        else:
            levels.append(written)
    return "; ".join(levels)


def schedule_problem(voice: Voice, error: ScheduleError) -> str:
    """Why a written schedule was refused, in the chat's language (the engine's English when untranslated)."""
    params = dict(error.params)
    level, part = params.pop("at_level", None), params.pop("at_part", None)
    try:
        reason = voice.t(f"schedule.{error.code}", **params)
    except (KeyError, IndexError):
        return error.message
    return reason if level is None else voice.t("schedule.in_level", level=level, part=part, reason=reason)


def option_problem(voice: Voice, error: OptionError) -> str:
    """Why a `/tournament create` option was refused, in the chat's language."""
    params = {name: money(value) if name == "buy_in" else value for name, value in error.params.items()}
    return voice.t(f"option.{error.code}", **params)


DEFAULT_MAX_PAWNS = TournamentConfig().max_pawns
"""The items a player may pawn unless the organizer says otherwise (RULES.md §1: three)."""


def has_options(config: TournamentConfig) -> bool:
    """Whether the tournament offers anything beyond the rules' night: rebuys, add-ons, re-entry, a bounty, or a pawn
    limit other than the usual."""
    return bool(config.rebuys or config.addons or config.reentry or config.bounty
                or config.max_pawns != DEFAULT_MAX_PAWNS)


def options_text(voice: Voice, config: TournamentConfig, *, pawns: bool = False) -> str:
    """The tournament's options as `/tournament create` announces them (rebuys, add-ons, re-entry, bounty, price,
    and the pawn limit when it is not the usual or, with `pawns`, when the organizer named it)."""
    parts = []
    if config.rebuys:
        parts.append(voice.t("tournament.option_rebuys", count=config.rebuys, chips=config.chips))
    if config.addons:
        parts.append(voice.t("tournament.option_addons", count=config.addons))
    if config.reentry:
        parts.append(voice.t("tournament.option_reentry"))
    if config.bounty:
        parts.append(voice.t("tournament.option_bounty", bounty=money(config.bounty)))
    priced = [voice.t(f"tournament.priced.{name}") for name, on in
              (("rebuy", config.rebuys), ("addon", config.addons), ("reentry", config.reentry)) if on]
    if priced:  # only the extra stacks this tournament offers
        parts.append(voice.t("tournament.option_price", what=format_list(priced, style="or", locale=voice.language),
                             price=money(config.stack_price), chips=config.chips))
    pawn_limit = pawn_option(voice, config, named=pawns)
    if pawn_limit:
        parts.append(pawn_limit)
    return voice.t("tournament.options", options="; ".join(parts))


def pawn_option(voice: Voice, config: TournamentConfig, *, named: bool = False) -> str:
    """The pawn limit as the tournament's options say it: none taken, or the items a player may pawn when that is
    not the usual (or, with `named`, when the organizer named it); "" for the usual limit."""
    if not config.max_pawns:
        return voice.t("tournament.option_no_pawns")
    if named or config.max_pawns != DEFAULT_MAX_PAWNS:
        return voice.t("tournament.option_pawns", count=config.max_pawns)
    return ""


def tally(voice: Voice, tournament: Tournament) -> str:
    """For a running tournament with options: players left of the entries, the rebuys, add-ons and re-entries so
    far, the bounties still on players' heads and the money paid in ("" without options, and before the start, when
    nobody has played and "0 players left of 0 entries" would count nothing)."""
    config, summary = tournament.config, tournament.summary()
    if tournament.phase is not Phase.RUNNING or not (config.rebuys or config.addons or config.reentry or config.bounty):
        return ""
    offered = {"rebuys": config.rebuys, "addons": config.addons, "reentries": config.reentry}
    counts = _extra_stacks(voice, {name: getattr(summary, name) for name, on in offered.items() if on})
    if config.bounty:
        counts.append(voice.t("tournament.tally_bounties", money=money(summary.bounty_pool)))
    return voice.t("tournament.tally", players=summary.players_left, entries=summary.entries,
                   counts=" · ".join(counts), money=money(summary.money_in))


def status(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """The clock: the level (or break), the blinds, time to the next change, paused or not; then, for a tournament
    with options, its counts (`tally`) and the add-ons on sale (`addon_offer`)."""
    extra = "\n".join(line for line in (tally(voice, tournament), addon_offer(voice, tournament, now)) if line)
    return _clock_status(voice, tournament, now) + (f"\n{extra}" if extra else "")


def addon_offer(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """While add-ons are sold and someone may still buy one: until when, and how ("" otherwise)."""
    if not any(tournament.can_addon(player, now) for player in tournament.entrants):
        return _addons_after_resume(voice, tournament, now)
    ends = tournament.addon_time_ends_at(now)
    button = voice.t("button.addon")
    if ends is None:  # a paused break: its end moves with the pause
        return voice.t("tournament.addons_on_sale_paused", button=button)
    return voice.t("tournament.addons_on_sale", until=local_time(tournament, ends), button=button)


def _addons_after_resume(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """While the clock is paused after the whole first break passed in the pause: that its add-ons are sold once play
    resumes, for how long (`Tournament.addon_time_after_resume`), when anyone still in has one left; "" otherwise."""
    lasting = tournament.addon_time_after_resume(now)
    if lasting is None or not any(map(tournament.has_addon_left, tournament.entrants)):
        return ""
    return voice.t("tournament.addons_after_resume", duration=duration_text(voice, lasting))


def _clock_status(voice: Voice, tournament: Tournament, now: datetime) -> str:
    if tournament.phase is Phase.REGISTERING:
        if not tournament.entrants:
            return voice.t("tournament.registering_empty")
        players = ", ".join(voice.name(player) for player in tournament.entrants)
        return voice.t("tournament.registering", players=players)
    if tournament.phase is Phase.FINISHED:
        return voice.t("tournament.finished")
    level = tournament.clock.level_at(now)
    upcoming = level.next_level
    paused = " " + voice.t("tournament.paused") if level.is_paused else ""
    if level.is_break:
        remaining = duration_text(voice, level.remaining)
        if level.ends_at is None:  # paused: the break's end moves with the pause, so only its time left is known
            return voice.t("tournament.clock_break_paused", remaining=remaining)
        until = local_time(tournament, level.ends_at)
        return voice.t("tournament.clock_break", until=until, remaining=remaining) + paused
    number = tournament.clock.schedule.level_number(level.index)
    if upcoming is None:  # the last level has no end and nothing after it
        return voice.t("tournament.clock_last_level", number=number, limits=limits(voice.language, level.level.limit),
                       small=level.level.small_blind, big=level.level.big_blind) + paused
    nxt = voice.t("tournament.next_break") if upcoming.is_break else limits(voice.language, upcoming.limit)
    return voice.t("tournament.clock_level", number=number, limits=limits(voice.language, level.level.limit),
                   small=level.level.small_blind, big=level.level.big_blind,
                   remaining=duration_text(voice, level.remaining),
                   next=nxt) + paused


def no_play(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """Why no hand is dealt now: the clock is paused (the organizer resumes it), or a break until a time."""
    level = tournament.clock.level_at(now)
    if level.is_paused:
        return voice.t("tournament.paused_now")
    until = local_time(tournament, level.ends_at)
    return voice.t("tournament.on_break", until=until)


def comeback(voice: Voice, rebuying: Sequence[str], reentering: Sequence[str], until: str) -> str:
    """What a tournament down to one player waits for: the busted players (by name) who may still come back by a
    rebuy or a re-entry, and how, `until` the rebuy period ends (`rebuy_period_end`, as the bust lines say it);
    "" when nobody may."""
    ways = [voice.t(key, players=", ".join(names)) for key, names in (
        ("tournament.comeback_rebuy", rebuying), ("tournament.comeback_reentry", reentering)) if names]
    if not ways:
        return ""
    return voice.t("tournament.waiting_comeback_until", ways="; ".join(ways), until=until)


def late_start(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """A tournament started after its first level's scheduled end begins at the level the clock is on: say which,
    and that the schedule runs by the clock."""
    level = tournament.clock.level_at(now)
    started = f"{tournament.clock.local(now):%H:%M}"
    if level.is_break:
        until = local_time(tournament, level.ends_at)
        return voice.t("tournament.late_start_break", time=started, until=until)
    return voice.t("tournament.late_start", time=started, number=tournament.clock.schedule.level_number(level.index),
                   limits=limits(voice.language, level.level.limit))


def limits(language: str, limit: int | None) -> str | None:
    """A level's limits as a clock line says them, the numbers written as the language writes them ("1,280/2,560"
    beside blinds "640/1,280"); None for a break. The schedule's own listing keeps `Level.limits` ("1280/2560"), the
    form `/tournament create` reads back."""
    return limits_text(limit, functools.partial(format_number, language))


def announcement(voice: Voice, item: Announcement) -> str:
    """One clock announcement for the channel."""
    if item.kind is AnnouncementKind.LEVEL_SOON:
        if item.limit is None:
            return voice.t("tournament.break_soon", minutes=item.minutes)
        return voice.t("tournament.level_soon", minutes=item.minutes, limits=limits(voice.language, item.limit))
    if item.kind is AnnouncementKind.BREAK_STARTED:
        until = clock_time_text(item.until) if item.until else "—"
        return voice.t("tournament.break_started", until=until)
    if item.kind is AnnouncementKind.PLAY_SOON:
        return voice.t("tournament.play_soon", minutes=item.minutes, limits=limits(voice.language, item.limit))
    if item.kind is AnnouncementKind.PLAY_RESUMED:
        return voice.t("tournament.play_resumed", limits=limits(voice.language, item.limit))
    if item.kind is AnnouncementKind.PLAY_BEGAN:
        return voice.t("tournament.play_began", limits=limits(voice.language, item.limit))
    return voice.t("tournament.level_started", limits=limits(voice.language, item.limit))


_STACK_BOUGHT_OR_SOLD: dict[type[Event], str] = {
    PlayerRebought: "tournament.rebought", PlayerAddedOn: "tournament.added_on",
    PlayerReentered: "tournament.reentered", PlayerCashedOut: "tournament.cashed_out",
}
"""Events of a stack bought from the bank or cashed back for money: each said with the player, chips and money."""


def narrate(voice: Voice, tournament: Tournament, events: Iterable[Event], *, paused: bool = False,
            now: datetime | None = None) -> list[str]:
    """Public messages for registrations, eliminations, cash-outs and items, one per event (what a downtime gave
    back said as taken by the bot being offline, or, `paused`, by a pause of the table); players out at `now` in the
    same place are said at once (`eliminated`)."""
    events = list(events)
    said = []
    out_at: dict[int, list[str]] = {}
    for event in events:
        if isinstance(event, PlayerEliminated):
            out_at.setdefault(event.place, []).append(event.player)
    for event in events:
        if isinstance(event, PlayerEliminated):
            if event.place in out_at:  # the first of those out in this place says it for all
                said += eliminated(voice, tournament, out_at.pop(event.place), event.place, now)
            continue
        if isinstance(event, PlayerRegistered):
            said.append(voice.t("tournament.registered", player=voice.name(event.player), chips=event.chips,
                                money=money(event.money), count=len(tournament.entrants)))
        elif isinstance(event, PlayerUnregistered):
            said.append(voice.t("tournament.unregistered", player=voice.name(event.player), chips=event.chips,
                                money=money(event.money), count=len(tournament.entrants)))
        elif isinstance(event, BountyCollected):
            said.append(bounty(voice, event))
        elif isinstance(event, PlayerCashedOut) and event.is_final:  # no leaving: the chips he ends with
            said.append(voice.t("tournament.finished_with", player=voice.name(event.player), chips=event.chips,
                                money=money(event.money)))
        elif isinstance(event, PlayerRebought | PlayerAddedOn | PlayerReentered | PlayerCashedOut):
            said.append(voice.t(_STACK_BOUGHT_OR_SOLD[type(event)], player=voice.name(event.player),
                                chips=event.chips, money=money(event.money)))
        elif isinstance(event, AddonsReopened | RebuysReopened):
            key = "tournament.addons_reopened" if isinstance(event, AddonsReopened) else "tournament.rebuys_reopened"
            said.append(voice.t(f"{key}_paused" if paused else key, until=local_time(tournament, event.until)))
        elif isinstance(event, PawnRecorded):
            said.append(voice.t("tournament.pawned", player=voice.name(event.owner), item=inert(event.description),
                                chips=event.chips, price=money(event.price)))
        elif isinstance(event, ItemBoughtBack):
            said.append(voice.t("tournament.bought_back", player=voice.name(event.owner), item=inert(event.description),
                                money=money(event.money)))
        elif isinstance(event, PawnRedeemed):
            said.append(voice.t("tournament.redeemed", player=voice.name(event.owner), item=inert(event.description),
                                chips=event.chips))
    return said


_COMEBACK = {"rebuy": "rebuy", "reentry": "reentry", None: "pending"}
"""How a player out while his place is not final may come back (`Tournament.comeback`), as the end of the keys that
say so: `tournament.out_…` to the channel, `tournament.you_are_out_…` to him."""


def eliminated(voice: Voice, tournament: Tournament, players: Sequence[str], place: int,
               now: datetime | None) -> list[str]:
    """What the channel hears of players who went out in one hand in the same `place`: that place once it is final
    (shared: once for all of them, as a range of places, as a card room announces it); before that (the rebuy period
    at `now`, `Tournament.is_place_final`), for each, that he is out for now and how he may come back until when, or
    that his place is given at the period's end."""
    if now is not None and not tournament.is_place_final(now):
        until = rebuy_period_end(voice, tournament, now)
        return [voice.t(f"tournament.out_{_COMEBACK[tournament.comeback(player, now)]}", player=voice.name(player),
                        until=until) for player in players]
    if len(players) == 1:
        return [voice.t("tournament.eliminated", player=voice.name(players[0]), place=place)]
    names = format_list([voice.name(player) for player in players], locale=voice.language)
    return [voice.t("tournament.eliminated_shared", players=names, places=shared_places(voice, place, len(players)))]


def out_of_play(voice: Voice, tournament: Tournament, player: str, now: datetime) -> str | None:
    """What a player knocked out of the running tournament is told when he tries to play (a hand's button,
    `/addon`): his place once it is final; before that, how he may come back and until when, or that his place comes
    at the rebuy period's end. None when he is not out (or the tournament is not running)."""
    entrant = tournament.entrants.get(player)
    if tournament.phase is not Phase.RUNNING or entrant is None or entrant.status is not EntrantStatus.ELIMINATED:
        return None
    if not tournament.is_place_final(now):
        return voice.t(f"tournament.you_are_out_{_COMEBACK[tournament.comeback(player, now)]}",
                       until=rebuy_period_end(voice, tournament, now))
    place = entrant.place or 0
    sharing = sum(other.place == place for other in tournament.entrants.values())
    if sharing > 1:
        return voice.t("tournament.you_are_out_shared", places=shared_places(voice, place, sharing))
    return voice.t("tournament.you_are_out", place=place)


def shared_places(voice: Voice, place: int, sharing: int) -> str:
    """The range of places `sharing` players out together share from `place` on, as ordinals ("3rd–5th", "3–5-е")."""
    return voice.t("tournament.ordinal_range", place=place, last=place + sharing - 1)


def rebuy_period_end(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """Until when a busted player may come back: the local time the rebuy period ends, or, while a pause keeps it
    unknown, the first break, or play resuming once the period's end time has passed in the pause (no break may come
    then: `Tournament.rebuys_end_on_resume`)."""
    ends = tournament.rebuy_period_ends_at(now)
    if ends is not None:
        return local_time(tournament, ends)
    on_resume = tournament.rebuys_end_on_resume(now)
    return voice.t("tournament.until_resume" if on_resume else "tournament.until_first_break")


def bounty(voice: Voice, event: BountyCollected) -> str:
    """A bounty collected at a bust-out: by its one winner, or split between the winners of a split pot."""
    if len(event.winners) == 1:
        [(winner, amount)] = event.winners.items()
        return voice.t("tournament.bounty_won", winner=voice.name(winner), player=voice.name(event.player),
                     money=money(amount))
    shares = ", ".join(voice.t("tournament.bounty_share", player=voice.name(winner), money=money(amount))
                       for winner, amount in event.winners.items())
    return voice.t("tournament.bounty_split", player=voice.name(event.player), money=money(event.money), shares=shares)


def items(voice: Voice, held: Sequence[PawnedItem]) -> str:
    """A player's pawned items, one a line with the number `/tournament redeem` takes."""
    return "\n".join(voice.t("tournament.item", number=item.item_id, item=inert(item.description), chips=item.chips)
                     for item in held)


def results(voice: Voice, places: Mapping[str, int], cashed_out: Sequence[str]) -> str:
    """The end of the tournament: the winner (or those sharing first place, or, when everyone still in cashed out,
    that nobody took it), every place in order as said at each bust (a cash-out leaves its place empty), and the
    players who cashed out before the end."""
    if not places:
        return voice.t("tournament.over_unplayed")
    winners = [voice.name(player) for player, place in places.items() if place == 1]
    key = {0: "tournament.over_no_winner", 1: "tournament.over_winner"}.get(len(winners), "tournament.over_winners")
    lines = [voice.t(key, winners=", ".join(winners)), voice.t("tournament.places", places=places_text(voice, places))]
    if cashed_out:
        lines.append(voice.t("tournament.left_early", players=", ".join(voice.name(player) for player in cashed_out)))
    return "\n".join(lines)


def places_text(voice: Voice, places: Mapping[str, int]) -> str:
    """Places in order ("1. Ann · 2. Bob · 3–5. Ivan, Peter, Sasha"): players sharing a place as one entry, with the
    range of places they share."""
    sharing = [(place, [voice.name(player) for player, at in places.items() if at == place])
               for place in dict.fromkeys(places.values())]
    return " · ".join(
        voice.t("tournament.place", player=", ".join(names), place=place if len(names) == 1
                else voice.t("tournament.place_range", place=place, last=place + len(names) - 1))
        for place, names in sharing)


def places_final(voice: Voice, tournament: Tournament, leaving_out: Collection[str] = ()) -> str | None:
    """At the end of the rebuy period, the places of the players out, final from now (they were out for now, without
    a place), but for those `leaving_out` (told theirs as they went out); None when nobody is left to list."""
    places = {player: place for player, place in tournament.standings()[0].items() if player not in leaving_out}
    return voice.t("tournament.places_final", places=places_text(voice, places)) if places else None


def settlement(voice: Voice, result: Settlement) -> str:
    """The final ledger and who pays whom."""
    lines = [voice.t("tournament.settlement_title")]
    said = _settlement_said(result.rows)
    for row in result.rows:
        line = voice.t("tournament.settlement_row", player=voice.name(row.player),
                       parts=_settlement_parts(voice, row, said))
        extras = _settlement_extras(voice, row)
        lines.append(f"{line} ({extras})" if extras else line)
    if result.transfers:
        lines.append(voice.t("tournament.transfers_title"))
        lines += [voice.t("tournament.transfer", payer=voice.name(item.payer), payee=voice.name(item.payee),
                          amount=money(item.amount)) for item in result.transfers]
    else:
        lines.append(voice.t("tournament.no_transfers"))
    return "\n".join(lines)


_SETTLEMENT_PARTS = {"paid_in": "tournament.settlement_paid", "cashed_out": "tournament.settlement_cashed",
                     "items_bought_back": "tournament.settlement_items"}
"""A row's money in and out, in the order said, and how each is said."""


def _settlement_said(rows: Sequence[SettlementRow]) -> tuple[str, ...]:
    """The figures every row says, in order (a zero where a player has none, so that the rows line up): paid in and
    cashed out always; items bought back only in a tournament where someone bought one back ("items bought back 0"
    on every row of a night without a pawn would read as if something were owed)."""
    return tuple(name for name in _SETTLEMENT_PARTS
                 if name != "items_bought_back" or any(row.items_bought_back for row in rows))


def _settlement_parts(voice: Voice, row: SettlementRow, said: Sequence[str]) -> str:
    """A row's figures `said` (see `_settlement_said`), then its net."""
    parts = [voice.t(_SETTLEMENT_PARTS[name], money=money(getattr(row, name))) for name in said]
    parts.append(voice.t("tournament.settlement_net", money=Signed(money(Fraction(row.net_cents, 100)))))
    return ", ".join(parts)


def _settlement_extras(voice: Voice, row: SettlementRow) -> str:
    """What a row's payments held beyond the buy-in, and the bounties received ("" when nothing)."""
    parts = _extra_stacks(voice, {name: getattr(row, name) for name in _EXTRA_STACKS if getattr(row, name)})
    if row.bounties:
        parts.append(voice.t("tournament.settlement_bounties", money=money(row.bounties)))
    return ", ".join(parts)


_EXTRA_STACKS = {"rebuys": "tournament.tally_rebuys", "addons": "tournament.tally_addons",
                 "reentries": "tournament.tally_reentries"}
"""The stacks bought beyond the buy-in, by kind, and how each count is said."""


def _extra_stacks(voice: Voice, counts: Mapping[str, int]) -> list[str]:
    """Each kind of extra stack in `counts` said with its count, in the order rebuys, add-ons, re-entries."""
    return [voice.t(key, count=counts[name]) for name, key in _EXTRA_STACKS.items() if name in counts]
