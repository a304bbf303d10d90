"""The tournament's options as its clock shows them (`/clock` and the clock page): a few words each, and whether
its time is over.

A card room's clock screen names the rebuys, the add-on, re-entry, the bounty and the pawn limit, and marks a period
that has ended. The periods are said as players count the clock ("through level 1", the last level before the first
break, which a pause does not move), "at the break" for the add-on, or a time of day when the period runs again after
downtime or a pause over the whole first break (`Tournament.reopen_rebuys`, `reopen_addons`), whose end is a time, not a
level, and, while a pause has passed that break, for how long the add-on is sold once play resumes. A pause holds the
rebuy period open; when the level's end time passed during it (`home-night`'s 19:00), the period ends the moment play
resumes, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.render import Voice
from bot.render.tournament import duration_text, local_time, money, pawn_option
from engine.tournament import Phase, Tournament, first_break


@dataclass(frozen=True, slots=True)
class ClockOption:
    """One option as the clock shows it: its words while it is on (`open_text`), those once its time is over
    (`over_text`, "" for an option that never ends), and whether it is over now."""

    open_text: str
    over_text: str = ""
    is_over: bool = False

    @property
    def text(self) -> str:
        """What it says now."""
        return self.over_text if self.is_over else self.open_text

    @property
    def other_text(self) -> str:
        """What it says at another time of the night ("" when nothing else): the page keeps room for it, so that
        nothing moves when a period ends."""
        return self.open_text if self.is_over else self.over_text


def clock_options(voice: Voice, tournament: Tournament, now: datetime) -> list[ClockOption]:
    """The options the tournament has, in the order `/tournament create` announces them (none once it is over, and
    none for the rules' night: no rebuys, add-ons, re-entry or bounty, the usual pawn limit)."""
    if tournament.phase is Phase.FINISHED:
        return []
    config = tournament.config
    running = tournament.phase is Phase.RUNNING
    period = _rebuy_period(voice, tournament, now)  # rebuys' and re-entry's: late registration follows the rebuys
    said = []
    if config.rebuys:
        said.append(ClockOption(voice.t("tournament.clock_option_rebuys", count=config.rebuys, period=period),
                                voice.t("tournament.clock_option_rebuys_over"),
                                running and not tournament.is_rebuy_period(now)))
    if config.addons:
        said.append(ClockOption(voice.t("tournament.clock_option_addons", count=config.addons,
                                        period=_addon_period(voice, tournament, now)),
                                voice.t("tournament.clock_option_addons_over"),
                                running and _addons_over(tournament, now)))
    if config.reentry:
        said.append(ClockOption(voice.t("tournament.clock_option_reentry", period=period),
                                voice.t("tournament.clock_option_reentry_over"),
                                running and not (config.late_registration and tournament.is_rebuy_period(now))))
    if config.bounty:
        said.append(ClockOption(voice.t("tournament.clock_option_bounty", bounty=money(config.bounty))))
    pawn_limit = pawn_option(voice, config)
    if pawn_limit:
        said.append(ClockOption(pawn_limit))
    return said


def clock_options_line(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """The options in one line for `/clock` ("Options: rebuys are over; 1 add-on each at the break; bounty 10."),
    "" when there are none."""
    said = clock_options(voice, tournament, now)
    return voice.t("tournament.options", options="; ".join(option.text for option in said)) if said else ""


def _rebuy_period(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """Until when rebuys and re-entry run: the time the period given back after downtime ends, until play resumes
    when a paused clock will end the period then, else through the last level before the first break."""
    given_back = tournament.rebuys_given_back_until(now)
    if given_back is not None:
        return voice.t("tournament.clock_period_until", time=local_time(tournament, given_back))
    if tournament.rebuys_end_on_resume(now):
        return voice.t("tournament.clock_period_resume")
    return voice.t("tournament.clock_period_level", number=_last_level_before_break(tournament))


def _addon_period(voice: Voice, tournament: Tournament, now: datetime) -> str:
    """When add-ons are sold: at the first break, or until a time while those missed with it are sold again, or for
    a time after play resumes while a pause has passed the whole break (`Tournament.addon_time_after_resume`)."""
    if tournament.is_addon_time(now) and tournament.clock.level_at(now).index != first_break(tournament.clock.schedule):
        return voice.t("tournament.clock_period_until", time=local_time(tournament, tournament.addon_time_ends_at(now)))
    lasting = tournament.addon_time_after_resume(now)
    if lasting is not None:
        return voice.t("tournament.clock_period_after_resume", duration=duration_text(voice, lasting))
    return voice.t("tournament.clock_period_break")


def _addons_over(tournament: Tournament, now: datetime) -> bool:
    """Whether no add-on will be sold any more: the first break is past (or was the clock's start, before any hand)
    and none missed with it is sold again now."""
    if tournament.is_addon_time(now):
        return False
    first = first_break(tournament.clock.schedule)
    return first is None or tournament.clock.level_at(now).index > first or tournament.is_break_before_play()


def _last_level_before_break(tournament: Tournament) -> int:
    """The number of the last level of the rebuy period (a break has the number of the level before it)."""
    schedule = tournament.clock.schedule
    first = first_break(schedule)
    return schedule.level_number(len(schedule.levels) - 1 if first is None else first)
