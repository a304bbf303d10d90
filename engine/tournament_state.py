"""A tournament's state (config, clock, phase, entrants, pawned items, chips in play), its summary and its saved form.

`engine.tournament.Tournament` is this state with its actions built on it, one class each, each the base of the next:
entries (`engine.tournament_entries`), pawned items (`engine.tournament_pawns`) and leaving and the end
(`engine.tournament_end`). Each of those reads and changes the state kept here; the helpers they share are here too,
the rebuy period and whether places are final among them.
"""

from __future__ import annotations

import itertools
from datetime import datetime
from fractions import Fraction
from typing import Any, Self

from engine.clock import Clock
from engine.clock_time import from_iso, to_iso, to_utc
from engine.common import RuleError
from engine.schedule import Schedule
from engine.settlement import fraction_from_text, fraction_to_text
from engine.tournament_types import (
    Entrant,
    EntrantStatus,
    ItemStatus,
    PawnedItem,
    Phase,
    TournamentConfig,
    TournamentSummary,
    first_break,
    is_in,
)

__all__ = ["TournamentState", "holds"]


class TournamentState:
    """The tournament's state, shared by its actions; every action is a verify / can / do triad returning events."""

    def __init__(self, config: TournamentConfig, schedule: Schedule, *, warnings: tuple[int, ...] = (5, 1)) -> None:
        """A tournament open for registration, with its clock on `schedule` (not started; `warnings`: the minutes
        before a level's end that the clock announces, as `LEVEL_SOON`)."""
        if (config.rebuys or config.addons or config.reentry) and first_break(schedule) is None:
            raise RuleError("needs_break", "rebuys, add-ons and re-entry run until the first break, and this schedule "
                            "has none")
        self.config = config
        self.clock = Clock(schedule, warnings=warnings)
        self.phase = Phase.REGISTERING
        self.entrants: dict[str, Entrant] = {}
        self.items: list[PawnedItem] = []
        self.chips_in_play = 0
        self.finished_at: datetime | None = None
        self.addons_reopened: tuple[datetime, datetime] | None = None
        """From when until when add-ons missed with the first break are sold again (`reopen_addons`)."""
        self.rebuys_reopened: tuple[datetime, datetime] | None = None
        """From when until when the rebuy period runs again, after downtime cut it short (`reopen_rebuys`)."""
        self.places_fixed = False
        """Whether places were said final with a player out (`fix_places`): the rebuy period never runs again."""

    def summary(self) -> TournamentSummary:
        """Counts for a display (the clock page, `/clock`): players left, entries, rebuys, add-ons and re-entries so
        far, the bounties still on players' heads, and the money paid into the bank."""
        entrants = self.entrants.values()
        return TournamentSummary(
            players_left=sum(is_in(entrant) for entrant in entrants),
            entries=sum(1 + entrant.reentries for entrant in entrants),
            rebuys=sum(entrant.rebuys for entrant in entrants),
            addons=sum(entrant.addons for entrant in entrants),
            reentries=sum(entrant.reentries for entrant in entrants),
            bounty_pool=sum((entrant.bounty for entrant in entrants if is_in(entrant)), Fraction(0)),
            money_in=sum((entrant.paid_in(self.config) for entrant in entrants), Fraction(0)),
            chips_in_play=self.chips_in_play,
        )

    # --- the rebuy period and the places of those out --------------------------------------------------------------

    def is_rebuy_period(self, now: datetime) -> bool:
        """Whether the rebuy period runs at `now`: the tournament is running and its first break has not begun, or the
        period runs again after downtime cut it short (`reopen_rebuys`)."""
        first = first_break(self.clock.schedule)
        if self.phase is not Phase.RUNNING or first is None:
            return False
        return holds(self.rebuys_reopened, now) or self.clock.level_at(now).index < first

    def rebuys_end_on_resume(self, now: datetime) -> bool:
        """Whether the rebuy period, held open at `now` by a pause of the clock, ends the moment play resumes: the end
        times of the levels left before the first break passed during the pause (`engine.clock`: they take effect on
        resuming; the organizer's pause takes none of the period, `engine.tournament_entries`). A period run again
        after downtime ends on its own hours, whenever play resumes."""
        if not self.clock.can_resume(now) or not self.is_rebuy_period(now) or holds(self.rebuys_reopened, now):
            return False
        resumed = self.clock.resumed_at(now)
        first = first_break(resumed.schedule)
        return first is not None and resumed.level_at(now).index >= first

    def is_place_final(self, now: datetime) -> bool:
        """Whether the places of players out are final at `now` (RULES.md §1c is silent): not while the rebuy period
        of a tournament with rebuys or re-entry runs, since a busted player may then come back and a late entrant
        join, each ranking above everyone out and moving their places down. A final place never moves again: a
        player still in who cashes out later takes no place and leaves his own empty, as in a card room."""
        return not ((self.config.rebuys or self.config.reentry) and self.is_rebuy_period(now))

    def fix_places(self, now: datetime) -> bool:
        """Whether the places of players out are final at `now` (`is_place_final`), for the application to say them;
        when they are and anyone has left (out, or cashed out), they stay so for good: the rebuy period, whose end made
        them final, never runs again after downtime (`verify_reopen_rebuys`), since a comeback or a late entry would
        move a place once said (RULES.md is silent; a card room never takes back a place it announced)."""
        final = self.is_place_final(now)
        if final and any(entrant.status in (EntrantStatus.ELIMINATED, EntrantStatus.CASHED_OUT)
                         for entrant in self.entrants.values()):
            self.places_fixed = True
        return final

    # --- helpers shared by the actions ---------------------------------------------------------------------------

    def _renumber_places(self) -> None:
        """While places are not final (`is_place_final`): everyone out ranks below everyone still playing, in the
        order they went out (shared places kept), so that after a late entry, a comeback or a cash-out the places of
        those out stay consecutive."""
        out = sorted((entrant for entrant in self.entrants.values()
                      if entrant.status is EntrantStatus.ELIMINATED and entrant.place is not None),
                     key=lambda entrant: entrant.place or 0)
        place = 1 + sum(entrant.status is EntrantStatus.PLAYING for entrant in self.entrants.values())
        for _, tied in itertools.groupby(out, key=lambda entrant: entrant.place):
            group = list(tied)
            for entrant in group:
                entrant.place = place
            place += len(group)

    def _verify_playing(self, player: str) -> None:
        """Raise unless the tournament runs and `player` is playing in it."""
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status is not EntrantStatus.PLAYING:
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)

    # --- serialisation ---------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "config": self.config.to_dict(),
            "clock": self.clock.to_dict(),
            "phase": self.phase.value,
            "entrants": [{"player": e.player, "status": e.status.value, "buy_ins": e.buy_ins,
                          "cashed_out_chips": e.cashed_out_chips, "place": e.place, "rebuys": e.rebuys,
                          "addons": e.addons, "reentries": e.reentries, "bounty": fraction_to_text(e.bounty),
                          "bounties_won": fraction_to_text(e.bounties_won),
                          "cashed_out_money": None if e.cashed_out_money is None
                          else fraction_to_text(e.cashed_out_money)} for e in self.entrants.values()],
            "items": [{"item_id": i.item_id, "owner": i.owner, "description": i.description, "chips": i.chips,
                       "hand_number": i.hand_number, "status": i.status.value, "holder": i.holder}
                      for i in self.items],
            "chips_in_play": self.chips_in_play,
            "finished_at": to_iso(self.finished_at),
            "addons_reopened": None if self.addons_reopened is None else [to_iso(at) for at in self.addons_reopened],
            "rebuys_reopened": None if self.rebuys_reopened is None else [to_iso(at) for at in self.rebuys_reopened],
            "places_fixed": self.places_fixed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The tournament `to_dict` wrote."""
        clock = Clock.from_dict(data["clock"])
        tournament = cls(TournamentConfig.from_dict(data["config"]), clock.schedule)
        tournament.clock = clock
        tournament.phase = Phase(data["phase"])
        tournament.entrants = {e["player"]: Entrant(
            e["player"], EntrantStatus(e["status"]), e["buy_ins"], e["cashed_out_chips"], e["place"],
            e.get("rebuys", 0), e.get("addons", 0), e.get("reentries", 0), fraction_from_text(e.get("bounty", 0)),
            fraction_from_text(e.get("bounties_won", 0)),
            None if e.get("cashed_out_money") is None else fraction_from_text(e["cashed_out_money"]))
            for e in data["entrants"]}
        tournament.items = [PawnedItem(i["item_id"], i["owner"], i["description"], i["chips"], i["hand_number"],
                                       ItemStatus(i["status"]), i["holder"]) for i in data["items"]]
        tournament.chips_in_play = data["chips_in_play"]
        tournament.finished_at = from_iso(data["finished_at"])
        tournament.addons_reopened = _window(data.get("addons_reopened"))  # absent from a tournament saved before
        tournament.rebuys_reopened = _window(data.get("rebuys_reopened"))  # either existed
        tournament.places_fixed = bool(data.get("places_fixed", False))  # absent from one saved before it existed
        return tournament


def _window(stored: list[str] | None) -> tuple[datetime, datetime] | None:
    """A span of time `to_dict` wrote as two ISO instants, None when there is none."""
    return (to_utc(datetime.fromisoformat(stored[0])), to_utc(datetime.fromisoformat(stored[1]))) if stored else None


def holds(window: tuple[datetime, datetime] | None, now: datetime) -> bool:
    """Whether `now` falls in a reopened window (from its start, up to but not including its end)."""
    return window is not None and window[0] <= to_utc(now) < window[1]
