"""Tournament results per player and a season's standings (RULES.md §1d), from the tournaments' stored records.

A season ranks players by their total settlement in money over its tournaments, ties going to whoever played more of
them; players level on both share a rank and the next rank skips (1, 2, 2, 4), as standings do. Within a shared rank
the lines are listed by points, then by player id, so the order is always the same. Points stand beside it: for each
tournament, entries − place + 1 for a placed player, 1 for one who cashed out. *Entries* are the players who entered
(a re-entry is the same player again, and places are counted among players). A tournament closed before it started
was played by nobody and counts for no one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.played import TournamentRecord
from bot.store.seasons import SeasonRecord
from engine.tournament import Phase, Tournament


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """One player's result in one finished tournament: his place (None: he cashed out before the end), the money
    he won or lost in cents (the settlement's rounded net), the tournament's entries and when it finished."""

    tournament_id: int
    player: str
    place: int | None
    net_cents: int
    entries: int
    finished_at: datetime

    @property
    def points(self) -> int:
        """The season points it earns: entries − place + 1 when placed, 1 when cashed out."""
        return 1 if self.place is None else self.entries - self.place + 1


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of a season's standings: money won or lost (cents), tournaments played, points."""

    player: str
    net_cents: int
    played: int
    points: int


def was_played(tournament: Tournament) -> bool:
    """Whether a tournament counts in the records: it finished after it started (one closed before its start
    refunded every buy-in and was played by nobody)."""
    return (tournament.phase is Phase.FINISHED and tournament.clock.is_started
            and tournament.finished_at is not None)


def results_of(record: TournamentRecord) -> list[TournamentResult]:
    """Each player's result in a tournament, `[]` unless it finished after it started."""
    if record.status != Phase.FINISHED.value:
        return []
    tournament = Tournament.from_dict(record.state)
    if not was_played(tournament):
        return []
    assert tournament.finished_at is not None  # as `was_played` found
    places, _ = tournament.standings()
    entries = len(tournament.entrants)
    return [TournamentResult(record.tournament_id, row.player, places.get(row.player), row.net_cents, entries,
                             tournament.finished_at)
            for row in tournament.settle().rows]


def season_records(records: list[TournamentRecord], season: SeasonRecord) -> list[TournamentRecord]:
    """The season's tournaments among these (those created while it was on)."""
    return [record for record in records if season.holds(record.tournament_id)]


def standings(records: list[TournamentRecord]) -> list[Standing]:
    """The standings over these tournaments, best first (see the module for the order)."""
    totals: dict[str, list[int]] = {}
    for record in records:
        for result in results_of(record):
            mine = totals.setdefault(result.player, [0, 0, 0])
            mine[0] += result.net_cents
            mine[1] += 1
            mine[2] += result.points
    lines = [Standing(player, net, played, points) for player, (net, played, points) in totals.items()]
    return sorted(lines, key=lambda line: (-line.net_cents, -line.played, -line.points, line.player))


def ranks(lines: list[Standing]) -> list[int]:
    """Each line's rank in standings listed best first: a line level with the one before it on money and tournaments
    played shares its rank, and the next rank skips (1, 2, 2, 4)."""
    found: list[int] = []
    for index, line in enumerate(lines):
        before = lines[index - 1] if index else None
        level = before is not None and (before.net_cents, before.played) == (line.net_cents, line.played)
        found.append(found[-1] if level else index + 1)
    return found


def unfinished(records: list[TournamentRecord]) -> list[int]:
    """The numbers of the tournaments among these that are still on (registering or running)."""
    return [record.tournament_id for record in records if record.status != Phase.FINISHED.value]


def finished_count(records: list[TournamentRecord]) -> int:
    """How many of these tournaments count (finished after they started)."""
    return sum(bool(results_of(record)) for record in records)

