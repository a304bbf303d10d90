"""A place said final stays said (`Tournament.fix_places`): once places are final with a player out, the rebuy period
cut short by downtime is not given back (`reopen_rebuys`), since a comeback or a late entry would move them.

A home-night tournament in Moscow time, three players, one rebuy each: the rebuy period ends at the 19:00 break."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from engine.common import RuleError
from engine.schedule import home_night
from engine.tournament import Tournament, TournamentConfig

MOSCOW = ZoneInfo("Europe/Moscow")


def at(hour: int, minute: int, second: int = 0) -> datetime:
    """An instant of the evening, Moscow time."""
    return datetime(2024, 5, 4, hour, minute, second, tzinfo=MOSCOW)


DOWN, BACK = at(18, 58), at(19, 30)
"""A pause (or downtime) from two minutes before the period's end until half an hour after it."""


def running() -> Tournament:
    tournament = Tournament(TournamentConfig(rebuys=1), home_night("Europe/Moscow"))
    for player in ("ann", "bob", "cat"):
        tournament.register(player)
    tournament.start(at(18, 0))
    return tournament


def test_a_bust_said_final_after_the_period_keeps_it_from_running_again() -> None:
    tournament = running()
    tournament.eliminate_busted(["cat"], {"cat": 300})
    assert tournament.fix_places(at(19, 0, 5)) is True
    assert tournament.standings()[0]["cat"] == 3
    assert not tournament.can_reopen_rebuys(DOWN, BACK)
    with pytest.raises(RuleError, match="places were said final"):
        tournament.reopen_rebuys(DOWN, BACK)
    assert not tournament.can_rebuy("cat", 0, BACK) and not tournament.can_register("dan", BACK)
    assert Tournament.from_dict(tournament.to_dict()).places_fixed, "kept across a restart"


def test_a_cash_out_after_the_period_keeps_it_from_running_again() -> None:
    tournament = running()
    tournament.eliminate_busted(["cat"], {"cat": 300})
    assert tournament.fix_places(at(18, 30)) is False, "not final in the period: nothing fixed"
    assert tournament.can_reopen_rebuys(DOWN, BACK)
    tournament.cash_out("bob", 300, now=at(19, 0, 5))
    assert not tournament.can_reopen_rebuys(DOWN, BACK)


def test_with_nobody_out_the_period_cut_short_still_runs_again() -> None:
    tournament = running()
    assert tournament.fix_places(at(19, 0, 5)) is True
    assert tournament.can_reopen_rebuys(DOWN, BACK), "no place said: the two minutes are given back"
