"""Tournament options (RULES.md §1c): rebuys, add-ons, re-entry and bounties; their refusals change nothing; the
options' text; splitting a bounty conserves every cent."""

from datetime import datetime, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine.bounty import eliminators, split_bounty
from engine.common import Move, RuleError, all_moves
from engine.holdem_types import PotAward
from engine.schedule import Level, Schedule, home_night, parse_schedule
from engine.tournament import (
    BANK,
    BountyCollected,
    EntrantStatus,
    PlayerAddedOn,
    PlayerEliminated,
    PlayerRebought,
    PlayerReentered,
    Tournament,
    TournamentConfig,
)
from engine.tournament_options import OptionError, TournamentOptions, split_options

MOSCOW = ZoneInfo("Europe/Moscow")
START = datetime(2024, 5, 4, 17, tzinfo=MOSCOW)
LEVEL_ONE = datetime(2024, 5, 4, 18, 30, tzinfo=MOSCOW)
BREAK = datetime(2024, 5, 4, 19, 30, tzinfo=MOSCOW)
LEVEL_TWO = datetime(2024, 5, 4, 20, 30, tzinfo=MOSCOW)
END = datetime(2024, 5, 4, 23, tzinfo=MOSCOW)


def running(*players: str, **options: object) -> Tournament:
    tournament = Tournament(TournamentConfig(**options), home_night("Europe/Moscow"))  # type: ignore[arg-type]
    for player in players:
        tournament.register(player)
    tournament.start(START)
    return tournament


def at(hour: int, minute: int) -> datetime:
    """An instant of the evening, Moscow time."""
    return datetime(2024, 5, 4, hour, minute, tzinfo=MOSCOW)


def pot(amount: int, eligible: str, winners: dict[str, int]) -> PotAward:
    return PotAward(amount, tuple(eligible.split()), winners, None)


def snapshot(tournament: Tournament) -> dict[str, object]:
    return tournament.to_dict()


# --- rebuys ---------------------------------------------------------------------------------------------------------


def test_a_rebuy_at_or_below_the_starting_stack_during_the_rebuy_period() -> None:
    tournament = running("ann", "bob", "cat", rebuys=2)
    events = tournament.rebuy("ann", 300, LEVEL_ONE)
    assert all_moves(events) == [Move(BANK, "stack:ann", 300, "rebuy")]
    assert tournament.chips_in_play == 1200
    assert tournament.entrants["ann"].rebuys == 1 and tournament.entrants["ann"].buy_ins == 2
    tournament.rebuy("ann", 120, LEVEL_ONE)
    assert tournament.summary().rebuys == 2 and tournament.summary().money_in == 250


@pytest.mark.parametrize(("player", "stack", "now", "code"), [
    ("ann", 301, LEVEL_ONE, "stack_over_start"),
    ("ann", 100, BREAK, "rebuy_period_over"),
    ("ann", 100, LEVEL_TWO, "rebuy_period_over"),
    ("zed", 0, LEVEL_ONE, "not_playing"),
])
def test_a_refused_rebuy_changes_nothing(player: str, stack: int, now: datetime, code: str) -> None:
    tournament = running("ann", "bob", "cat", rebuys=1)
    before = snapshot(tournament)
    with pytest.raises(RuleError) as refused:
        tournament.rebuy(player, stack, now)
    assert refused.value.code == code
    assert not tournament.can_rebuy(player, stack, now)
    assert snapshot(tournament) == before


def test_a_stack_not_known_yet_is_not_asked_but_the_rest_is() -> None:
    """While his hand is in play the application asks whether a rebuy is on offer before it tells him to wait."""
    tournament = running("ann", "bob", rebuys=1)
    tournament.verify_rebuy("ann", None, LEVEL_ONE)  # whatever his stack: it is asked between hands
    with pytest.raises(RuleError, match="rebuy period is over"):
        tournament.verify_rebuy("ann", None, BREAK)
    with pytest.raises(RuleError, match="not allowed"):
        running("ann", "bob").verify_rebuy("ann", None, LEVEL_ONE)


def test_rebuys_run_out_and_are_off_by_default() -> None:
    tournament = running("ann", "bob", rebuys=1)
    tournament.rebuy("ann", 10, LEVEL_ONE)
    before = snapshot(tournament)
    with pytest.raises(RuleError, match=r"all your rebuys \(1\)"):
        tournament.rebuy("ann", 10, LEVEL_ONE)
    assert snapshot(tournament) == before
    with pytest.raises(RuleError, match="not allowed"):
        running("ann", "bob").rebuy("ann", 10, LEVEL_ONE)


def test_a_busted_player_rebuys_and_the_places_of_those_out_stay_consecutive() -> None:
    tournament = running("ann", "bob", "cat", "dan", rebuys=1)
    tournament.eliminate("dan")  # 4th
    tournament.eliminate("cat")  # 3rd
    tournament.rebuy("dan", 0, LEVEL_ONE)
    assert tournament.entrants["dan"].status is EntrantStatus.PLAYING and tournament.entrants["dan"].place is None
    assert tournament.entrants["cat"].place == 4, "dan is back in: cat now ranks below the three still playing"
    assert tournament.eliminate("bob") == [PlayerEliminated(player="bob", place=3)]
    tournament.finish(END, {"ann": 900, "dan": 600})
    places, _ = tournament.standings()
    assert places == {"ann": 1, "dan": 2, "bob": 3, "cat": 4}


def test_a_rebuy_period_cut_short_by_downtime_runs_again_for_what_it_lost() -> None:
    """Down from 18:40 to 19:30, past the period's end at the 19:00 break: it runs again from 19:30 for the 20 minutes
    it lost, once, and late registration with it; a period whose end was seen, or not yet come, is not given back."""
    tournament = running("ann", "bob", rebuys=1)
    down, back = datetime(2024, 5, 4, 18, 40, tzinfo=MOSCOW), BREAK
    assert not tournament.can_rebuy("ann", 300, back)
    assert not tournament.can_reopen_rebuys(datetime(2024, 5, 4, 19, 1, tzinfo=MOSCOW), back), "its end was seen"
    assert not tournament.can_reopen_rebuys(down, LEVEL_ONE), "not over yet"
    assert not running("ann", "bob", addons=1).can_reopen_rebuys(down, back), "no rebuy period without the options"
    assert running("ann", "bob", reentry=True).can_reopen_rebuys(down, back), "re-entry ends with the period too"
    before = snapshot(tournament)
    with pytest.raises(RuleError, match="not cut short"):
        tournament.reopen_rebuys(LEVEL_TWO, END)
    assert snapshot(tournament) == before
    [event] = tournament.reopen_rebuys(down, back)
    assert event.to_dict()["until"] == "2024-05-04T16:50:00+00:00"  # 19:50 in Moscow
    assert not tournament.can_reopen_rebuys(down, back), "once"
    again = Tournament.from_dict(tournament.to_dict())
    assert again.rebuys_reopened == tournament.rebuys_reopened
    inside = datetime(2024, 5, 4, 19, 49, tzinfo=MOSCOW)
    assert again.rebuys_given_back_until(inside) == datetime(2024, 5, 4, 19, 50, tzinfo=MOSCOW)
    assert again.rebuys_given_back_until(datetime(2024, 5, 4, 19, 50, tzinfo=MOSCOW)) is None
    assert again.can_register("cat", inside), "late registration ends with the rebuy period"
    assert all_moves(again.rebuy("ann", 300, inside)) == [Move(BANK, "stack:ann", 300, "rebuy")]
    with pytest.raises(RuleError, match="rebuy period is over"):
        again.rebuy("bob", 300, datetime(2024, 5, 4, 19, 50, tzinfo=MOSCOW))
    assert not again.can_register("cat", datetime(2024, 5, 4, 19, 50, tzinfo=MOSCOW))


def test_the_rebuy_period_ends_at_the_first_break_unknown_only_while_a_pause_goes_on() -> None:
    """A pause that has not ended leaves the clock's timeline open after it (`Clock.span` of the first break is None),
    so the period's end is unknown then; once resumed the end is known for every instant of the period, those inside
    the pause too, as `level_at` tells them (an extra check of the pause at `now` made them unknown)."""
    tournament = running("ann", "bob", rebuys=1)
    assert tournament.rebuy_period_ends_at(at(18, 40)) == at(19, 0)
    tournament.clock.pause(at(18, 50))
    assert tournament.rebuy_period_ends_at(at(18, 52)) is None, "paused: the break comes at 19:00 or at the resume"
    tournament.clock.resume(at(18, 55))
    for now in (at(18, 52), at(18, 55), at(18, 59)):
        assert tournament.clock.level_at(now).ends_at == at(19, 0)
        assert tournament.rebuy_period_ends_at(now) == at(19, 0)
    assert tournament.rebuy_period_ends_at(at(19, 0)) is None, "the period is over"
    by_duration = Tournament(TournamentConfig(rebuys=1), parse_schedule("10/20 20m; break 10m; 20/40", "UTC"))
    by_duration.register("ann")
    by_duration.register("bob")
    by_duration.start(at(18, 0))
    by_duration.clock.pause(at(18, 10))
    assert by_duration.rebuy_period_ends_at(at(18, 12)) is None
    by_duration.clock.resume(at(18, 15))
    assert by_duration.rebuy_period_ends_at(at(18, 12)) == by_duration.rebuy_period_ends_at(at(18, 15)) == at(18, 25)


# --- add-ons ----------------------------------------------------------------------------------------------------------


def test_an_add_on_at_the_first_break_only_and_as_many_as_offered() -> None:
    tournament = running("ann", "bob", addons=1)
    for moment in (LEVEL_ONE, LEVEL_TWO):
        with pytest.raises(RuleError, match="first break"):
            tournament.addon("ann", moment)
    events = tournament.addon("ann", BREAK)
    assert all_moves(events) == [Move(BANK, "stack:ann", 300, "add-on")]
    before = snapshot(tournament)
    with pytest.raises(RuleError, match=r"all your add-ons \(1\)"):
        tournament.addon("ann", BREAK)
    assert snapshot(tournament) == before
    assert not running("ann", "bob").can_addon("ann", BREAK), "no add-ons unless offered"


@pytest.mark.parametrize("start", [BREAK, datetime(2024, 5, 4, 19, tzinfo=MOSCOW)])
def test_no_add_on_at_a_first_break_the_tournament_started_in_before_any_hand(start: datetime) -> None:
    """Started at (or during) the 19:00-20:00 break, the players have played nothing: an add-on then would only be a
    bigger buy-in. Refused with its own reason, the state unchanged; started a minute before it, the break sells."""
    tournament = Tournament(TournamentConfig(addons=1), home_night("Europe/Moscow"))
    for player in ("ann", "bob"):
        tournament.register(player)
    tournament.start(start)
    assert tournament.clock.level_at(BREAK).is_break and not tournament.is_addon_time(BREAK)
    before = snapshot(tournament)
    with pytest.raises(RuleError, match="started at its first break, before any hand") as refused:
        tournament.addon("ann", BREAK)
    assert refused.value.code == "addons_before_play" and snapshot(tournament) == before
    assert not tournament.can_addon("ann", LEVEL_TWO), "nor later: the break it had was before play"
    earlier = Tournament(TournamentConfig(addons=1), home_night("Europe/Moscow"))
    for player in ("ann", "bob"):
        earlier.register(player)
    earlier.start(datetime(2024, 5, 4, 18, 59, tzinfo=MOSCOW))
    assert earlier.can_addon("ann", BREAK)


def test_no_add_on_for_a_player_who_is_out() -> None:
    tournament = running("ann", "bob", "cat", addons=2)
    tournament.eliminate("cat")
    assert not tournament.can_addon("cat", BREAK)
    tournament.cash_out("bob", 300)
    assert not tournament.can_addon("bob", BREAK)


def test_add_ons_missed_with_a_break_spent_down_are_sold_again_for_its_length() -> None:
    """Down from 18:50 to 20:10: the 19:00-20:00 break, the only one with add-ons, passed unseen. Add-ons are sold from
    20:10 for the hour the break lasted, once; the clock is not moved, and the rebuy period stays over."""
    tournament = running("ann", "bob", addons=1, rebuys=1)
    down, back = datetime(2024, 5, 4, 18, 50, tzinfo=MOSCOW), datetime(2024, 5, 4, 20, 10, tzinfo=MOSCOW)
    assert not tournament.can_addon("ann", back)
    assert not tournament.can_reopen_addons(datetime(2024, 5, 4, 19, 5, tzinfo=MOSCOW), back), "the break was seen"
    assert not tournament.can_reopen_addons(down, datetime(2024, 5, 4, 19, 59, tzinfo=MOSCOW)), "not over yet"
    before = snapshot(tournament)
    assert not running("ann", "bob").can_reopen_addons(down, back), "no add-ons unless offered"
    assert snapshot(tournament) == before
    [event] = tournament.reopen_addons(down, back)
    assert event.to_dict()["until"] == "2024-05-04T18:10:00+00:00"  # 21:10 in Moscow
    assert not tournament.can_reopen_addons(down, back), "once"
    assert tournament.clock.level_at(back).level.limit == 50 and not tournament.can_rebuy("ann", 0, back)
    again = Tournament.from_dict(tournament.to_dict())
    assert again.addons_reopened == tournament.addons_reopened
    assert all_moves(again.addon("ann", datetime(2024, 5, 4, 21, 9, tzinfo=MOSCOW))) == [
        Move(BANK, "stack:ann", 300, "add-on")]
    with pytest.raises(RuleError, match="first break"):
        again.addon("bob", datetime(2024, 5, 4, 21, 10, tzinfo=MOSCOW))


def test_add_ons_are_sold_until_the_break_ends_or_until_the_end_of_their_time_sold_again() -> None:
    """At the 19:00-20:00 break (Moscow) add-ons are sold until 20:00; sold again from 20:10 after a downtime that
    passed the break over, until 21:10, the hour the break lasted."""
    tournament = running("ann", "bob", addons=1, rebuys=1)
    assert tournament.addon_time_ends_at(datetime(2024, 5, 4, 19, 30, tzinfo=MOSCOW)) == datetime(
        2024, 5, 4, 20, 0, tzinfo=MOSCOW)
    passed_over = running("ann", "bob", addons=1, rebuys=1)
    down, back = datetime(2024, 5, 4, 18, 50, tzinfo=MOSCOW), datetime(2024, 5, 4, 20, 10, tzinfo=MOSCOW)
    passed_over.reopen_addons(down, back)
    assert passed_over.addon_time_ends_at(back) == datetime(2024, 5, 4, 21, 10, tzinfo=MOSCOW)


def test_add_ons_missed_with_a_break_the_clock_was_paused_across_are_sold_as_after_downtime() -> None:
    """The organizer paused at 18:50 and resumed at 20:05: the 19:00-20:00 break, the only time add-ons are sold,
    passed in the pause (a paused clock starts no break, so none could be bought). As after downtime over the break
    (RULES.md §1c is silent), they are sold from the resume for the hour the break lasted, until 21:05; the clock is
    not moved (50/100 from 20:05), and downtime gives them back no second time."""
    paused = running("ann", "bob", addons=1)
    paused.clock.pause(at(18, 50))
    assert not paused.is_addon_time(at(19, 30)) and not paused.is_addon_time(at(20, 5)), "not while paused"
    assert paused.addon_time_after_resume(at(19, 30)) is None, "resumed now, the break would be played until 20:00"
    assert paused.addon_time_after_resume(at(20, 5)) == timedelta(hours=1)
    paused.clock.resume(at(20, 5))
    assert paused.addon_time_after_resume(at(20, 5)) is None, "not paused"
    downtime = running("ann", "bob", addons=1)
    downtime.reopen_addons(at(18, 50), at(20, 5))
    for now in (at(20, 5), at(21, 4)):
        assert paused.is_addon_time(now) and paused.addon_time_ends_at(now) == at(21, 5)
        assert paused.addon_time_ends_at(now) == downtime.addon_time_ends_at(now)
    assert paused.clock.level_at(at(20, 5)).level.limit == 50
    assert not paused.can_reopen_addons(at(18, 50), at(20, 5)), "given back once"
    again = Tournament.from_dict(paused.to_dict())
    assert all_moves(again.addon("ann", at(21, 4))) == [Move(BANK, "stack:ann", 300, "add-on")]
    before = snapshot(again)
    with pytest.raises(RuleError, match="add-ons are sold during the first break") as refused:
        again.addon("bob", at(21, 5))
    assert refused.value.code == "not_addon_time" and snapshot(again) == before


def test_a_later_pause_is_not_told_the_add_on_time_a_pause_over_the_break_gave_back_again() -> None:
    """Paused 18:50-20:05 over the whole break, the add-ons are sold 20:05-21:05; paused again, in that time or after
    it, resuming gives none back (the time given runs on its own hours, as after downtime): only a pause over the
    break itself is told how long they are sold once play resumes (it said an hour again at 20:40 and at 21:40)."""
    tournament = running("ann", "bob", addons=1)
    tournament.clock.pause(at(18, 50))
    tournament.clock.resume(at(20, 5))
    tournament.clock.pause(at(20, 30))
    assert tournament.addon_time_after_resume(at(20, 40)) is None
    assert tournament.is_addon_time(at(20, 40)) and tournament.addon_time_ends_at(at(20, 40)) == at(21, 5)
    tournament.clock.resume(at(20, 45))
    tournament.clock.pause(at(21, 30))
    assert tournament.addon_time_after_resume(at(21, 40)) is None
    assert not tournament.is_addon_time(at(21, 40))


@pytest.mark.parametrize(("pause", "resume", "sold", "until"), [
    (at(18, 50), at(19, 30), at(19, 30), at(20, 0)),  # the pause ended in the break: it sells until 20:00
    (at(19, 10), at(20, 5), at(19, 30), at(20, 5)),  # the pause began in the break: it sold during the pause
])
def test_a_pause_that_leaves_part_of_the_break_gives_no_add_on_time_back(
        pause: datetime, resume: datetime, sold: datetime, until: datetime) -> None:
    """A break partly played (before the pause began, or after it ended) sold add-ons then, as after downtime that
    saw part of it: nothing is sold again once it is over."""
    tournament = running("ann", "bob", addons=1)
    tournament.clock.pause(pause)
    tournament.clock.resume(resume)
    assert tournament.is_addon_time(sold) and tournament.addon_time_ends_at(sold) == until
    assert not tournament.is_addon_time(until)


def test_a_pause_across_the_end_of_the_rebuy_period_holds_it_open_until_play_resumes_and_gives_nothing_back() -> None:
    """Paused from 18:50 to 20:05, across level 1's end (19:00) and the whole break: the rebuy period, through level
    1, stands open with the clock (rebuys and late registration are taken between hands all through the pause), so,
    unlike downtime, the pause took none of it; it ends as play resumes, and late registration with it."""
    tournament = running("ann", "bob", rebuys=1, addons=1)
    tournament.clock.pause(at(18, 50))
    for now in (at(19, 30), at(20, 4)):
        assert tournament.can_rebuy("ann", 300, now) and tournament.can_register("cat", now)
    tournament.clock.resume(at(20, 5))
    assert not tournament.is_rebuy_period(at(20, 5)) and not tournament.can_register("cat", at(20, 5))
    assert tournament.is_addon_time(at(20, 5))


def test_a_paused_rebuy_period_ends_on_resuming_once_its_end_time_has_passed() -> None:
    """Paused at 18:50: resumed before 19:00 the period runs on until 19:00; resumed after it (in the break or past
    it), the period ends as play resumes, which is what the players are told while the clock stands."""
    tournament = running("ann", "bob", rebuys=1)
    assert not tournament.rebuys_end_on_resume(at(18, 50)), "not paused"
    tournament.clock.pause(at(18, 50))
    assert not tournament.rebuys_end_on_resume(at(18, 59))
    assert tournament.rebuys_end_on_resume(at(19, 0)) and tournament.rebuys_end_on_resume(at(20, 5))
    tournament.clock.resume(at(20, 5))
    assert not tournament.rebuys_end_on_resume(at(20, 5)), "over"


def test_a_pause_in_the_rebuy_period_given_back_after_downtime_does_not_end_it_on_resuming() -> None:
    """Down from 18:50 to 20:05, the rebuy period runs again until 20:15 (the ten minutes downtime took); paused at
    20:10, it still runs until 20:15 on resuming, on its own hours: resuming ends it only when the clock's level
    does (it said that resuming would end it, though the level before the break was long over)."""
    tournament = running("ann", "bob", rebuys=1)
    tournament.reopen_rebuys(at(18, 50), at(20, 5))
    tournament.clock.pause(at(20, 10))
    assert tournament.is_rebuy_period(at(20, 12)) and tournament.rebuy_period_ends_at(at(20, 12)) == at(20, 15)
    assert not tournament.rebuys_end_on_resume(at(20, 12))


def test_no_add_ons_are_sold_again_for_a_break_a_late_start_passed_over() -> None:
    """Down from 18:50, before the 19:00-20:00 break, to 20:40: a tournament started at 18:40 missed its break and
    sells add-ons again; one started at 20:30 passed the break over (no play before it), so the same downtime is
    refused with its reason and changes nothing."""
    down, back = datetime(2024, 5, 4, 18, 50, tzinfo=MOSCOW), datetime(2024, 5, 4, 20, 40, tzinfo=MOSCOW)
    played = Tournament(TournamentConfig(addons=1), home_night("Europe/Moscow"))
    late = Tournament(TournamentConfig(addons=1), home_night("Europe/Moscow"))
    for tournament, start in ((played, datetime(2024, 5, 4, 18, 40, tzinfo=MOSCOW)), (late, LEVEL_TWO)):
        for player in ("ann", "bob"):
            tournament.register(player)
        tournament.start(start)
    assert played.can_reopen_addons(down, back)
    before = snapshot(late)
    with pytest.raises(RuleError) as refused:
        late.reopen_addons(down, back)
    assert refused.value.code == "break_not_missed" and snapshot(late) == before
    assert not late.can_reopen_addons(down, END)


def test_downtime_gives_back_nothing_from_before_the_clock_started() -> None:
    """A downtime said to begin before the start counts from the start: a tournament started at 19:30, in its first
    break, had no rebuy period and no break after play to lose, so neither is given back; one started at 18:40 gets
    back the 20 minutes its rebuy period had, not the hour from 18:00."""
    since, back = datetime(2024, 5, 4, 18, tzinfo=MOSCOW), datetime(2024, 5, 4, 20, 10, tzinfo=MOSCOW)
    in_break = Tournament(TournamentConfig(addons=1, rebuys=1), home_night("Europe/Moscow"))
    for player in ("ann", "bob"):
        in_break.register(player)
    in_break.start(BREAK)
    assert in_break.is_break_before_play()
    assert not in_break.can_reopen_addons(since, back) and not in_break.can_reopen_rebuys(since, back)
    late = Tournament(TournamentConfig(rebuys=1), home_night("Europe/Moscow"))
    for player in ("ann", "bob"):
        late.register(player)
    late.start(datetime(2024, 5, 4, 18, 40, tzinfo=MOSCOW))
    [event] = late.reopen_rebuys(since, back)
    assert event.to_dict()["until"] == "2024-05-04T17:30:00+00:00"  # 20:30 in Moscow: 20:10 and 20 minutes


# --- re-entry -----------------------------------------------------------------------------------------------------


def test_a_busted_player_re_enters_during_late_registration_without_a_new_bounty() -> None:
    """The re-entry puts no new bounty on his head; the one of his buy-in, which nobody collected (no pot named who
    took his chips), is still his: before, the comeback cleared it and its 10 went to the chips' share at the end."""
    tournament = running("ann", "bob", "cat", reentry=True, bounty=Fraction(10))
    tournament.eliminate("cat")
    assert tournament.can_register("eve", LEVEL_ONE), "late registration stays open through the rebuy period"
    events = tournament.register("cat", LEVEL_ONE)
    assert all_moves(events) == [Move(BANK, "stack:cat", 300, "re-entry")]
    entrant = tournament.entrants["cat"]
    assert (entrant.status, entrant.reentries, entrant.bounty) == (EntrantStatus.PLAYING, 1, 10)
    assert entrant.paid_in(tournament.config) == 90, "a buy-in of 50 (bounty 10 in it), a re-entry at 40"
    summary = tournament.summary()
    assert (summary.entries, summary.reentries, summary.players_left, summary.bounty_pool) == (4, 1, 3, 30)
    tournament.finish(LEVEL_ONE, {"ann": 450, "bob": 450, "cat": 300})  # the 1,200 chips issued
    assert {row.player: row.net_cents for row in tournament.settle().rows} == {"ann": 2000, "bob": 2000,
                                                                               "cat": -4000}, (
        "each stack at the rate (300 chips for 40) and each bounty back to its holder: cat paid 90, takes 40 and 10")


def test_a_bounty_nobody_collected_is_still_its_holders_after_a_rebuy() -> None:
    """Found by `tests/bot/test_settlement_adds_up.py`: a player out with no pot naming who took his chips rebuys;
    his bounty stayed uncollected, the rebuy cleared it, and its 10 went to the last chips' share (told 45 for 300
    chips worth 40). Now it is still his: collected by whoever eliminates him, or back to him at the end."""
    tournament = running("ann", "bob", rebuys=1, bounty=Fraction(10))
    tournament.eliminate_busted(["bob"], {"bob": 0}, pots=[], order=[])
    tournament.rebuy("bob", 0, LEVEL_ONE)
    assert tournament.entrants["bob"].bounty == 10
    tournament.eliminate_busted(["bob"], {"bob": 300}, pots=[pot(600, "ann bob", {"ann": 600})], order=["ann"])
    assert tournament.entrants["ann"].bounties_won == 10, "the eliminator collects it"


def test_with_a_bounty_a_rebuy_an_add_on_and_a_re_entry_buy_the_stack_at_the_rate_and_carry_no_bounty() -> None:
    """RULES.md §1c: the bounty comes out of each buy-in, "re-entry and rebuy excluded", and every payment goes
    through the bank at the rate (300 chips for the 40 of a buy-in of 50 left after its bounty of 10). A rebuy, an
    add-on (no buy-in, so no bounty either) and a re-entry each pay those 40 for the starting stack and put nothing on
    anyone's head; the settlement pays out exactly what came in: the chips at the rate and the bounties."""
    tournament = running("ann", "bob", "cat", rebuys=1, addons=1, reentry=True, bounty=Fraction(10))
    assert tournament.config.stack_price == 40
    rebought = tournament.rebuy("bob", 200, LEVEL_ONE)
    tournament.eliminate_busted(["cat"], {"cat": 300}, pots=[pot(600, "ann cat", {"ann": 600})], order=["ann"])
    reentered = tournament.register("cat", LEVEL_ONE)
    added_on = tournament.addon("ann", BREAK)
    assert [type(event) for event in rebought + reentered + added_on] == [PlayerRebought, PlayerReentered,
                                                                            PlayerAddedOn]
    assert [(event.money, event.chips) for event in rebought + reentered + added_on] == [(40, 300)] * 3
    bounties = {player: (entrant.bounty, entrant.bounties_won) for player, entrant in tournament.entrants.items()}
    assert bounties == {"ann": (10, 10), "bob": (10, 0), "cat": (0, 0)}, "cat's 10 went to ann; nothing added"
    summary = tournament.summary()
    assert (summary.money_in, summary.bounty_pool, summary.chips_in_play) == (270, 20, 1800)
    assert tournament.config.to_money(summary.chips_in_play) == 270 - 30, "all but the three bounties, at the rate"

    tournament.finish(END, {"ann": 1050, "bob": 450, "cat": 300})
    rows = {row.player: (row.paid_in, row.cashed_out, row.bounties, row.net) for row in tournament.settle().rows}
    assert rows == {"ann": (90, 140, 20, 70), "bob": (90, 60, 10, -20), "cat": (90, 40, 0, -50)}
    assert sum(cashed_out + bounty for _, cashed_out, bounty, _ in rows.values()) == summary.money_in


def test_no_re_entry_after_late_registration_or_when_not_offered() -> None:
    tournament = running("ann", "bob", "cat", reentry=True)
    tournament.eliminate("cat")
    before = snapshot(tournament)
    with pytest.raises(RuleError, match="closed"):
        tournament.register("cat", BREAK)
    assert snapshot(tournament) == before
    plain = running("ann", "bob", "cat")
    plain.eliminate("cat")
    with pytest.raises(RuleError, match="re-entry is not allowed"):
        plain.register("cat")
    with pytest.raises(RuleError, match="already"):
        tournament.register("ann", LEVEL_ONE)


def test_a_busted_player_comes_back_by_a_rebuy_else_a_re_entry_while_either_runs() -> None:
    rebuys = running("ann", "bob", "cat", rebuys=1, reentry=True)
    rebuys.eliminate("cat")
    assert rebuys.comebacks(LEVEL_ONE) == {"cat": "rebuy"}, "a rebuy first, where both are offered"
    assert rebuys.comeback("ann", LEVEL_ONE) is None, "a player still in has no comeback to make"
    reentry = running("ann", "bob", "cat", reentry=True)
    reentry.eliminate("cat")
    reentry.eliminate("bob")
    assert reentry.comebacks(LEVEL_ONE) == {"cat": "reentry", "bob": "reentry"}
    assert reentry.comebacks(BREAK) == {} and rebuys.comebacks(LEVEL_TWO) == {}, "the rebuy period is over"
    plain = running("ann", "bob")
    plain.eliminate("bob")
    assert plain.comebacks(LEVEL_ONE) == {}, "no option offered: nobody comes back"


def test_a_late_entrant_ranks_above_everyone_out() -> None:
    tournament = running("ann", "bob", "cat", rebuys=1)
    tournament.eliminate("cat")  # 3rd of 3
    tournament.register("dan", LEVEL_ONE)
    assert tournament.entrants["cat"].place == 4


def test_options_need_a_break_in_the_schedule() -> None:
    no_break = Schedule((Level(10), ), "UTC")
    with pytest.raises(RuleError) as refused:
        Tournament(TournamentConfig(rebuys=1), no_break)
    assert refused.value.code == "needs_break"
    Tournament(TournamentConfig(bounty=Fraction(5)), no_break)  # a bounty needs no period


# --- bounties -----------------------------------------------------------------------------------------------------


def test_a_bounty_goes_to_the_winner_of_the_pot_that_eliminated_its_holder() -> None:
    tournament = running("ann", "bob", "cat", bounty=Fraction(10))
    assert tournament.config.rate == Fraction(15, 2), "300 chips for the 40 left of the buy-in"
    events = tournament.eliminate_busted(["cat"], {"cat": 300}, pots=[pot(900, "ann bob cat", {"ann": 900})],
                                         order=["bob", "cat", "ann"])
    assert events[1] == BountyCollected(player="cat", money=Fraction(10), winners={"ann": Fraction(10)})
    tournament.finish(END, {"ann": 900, "bob": 0})
    rows = {row.player: row for row in tournament.settle().rows}
    assert rows["ann"].bounties == 20, "cat's bounty and her own, never collected"
    assert rows["ann"].net == 120 - 50 + 20
    assert sum(row.net_cents for row in rows.values()) == 0


def test_a_split_pot_splits_the_bounty_and_the_odd_cent_goes_left_of_the_button() -> None:
    tournament = running("ann", "bob", "cat", bounty=Fraction(1, 100))
    pots = [pot(300, "ann bob cat", {"ann": 150, "bob": 150})]
    events = tournament.eliminate_busted(["cat"], {"cat": 100}, pots=pots, order=["bob", "cat", "ann"])
    assert events[1].winners == {"bob": Fraction(1, 100)}  # type: ignore[attr-defined]


def test_the_side_pot_that_took_the_last_chips_names_the_eliminator() -> None:
    pots = [pot(300, "ann bob cat", {"ann": 300}), pot(200, "bob cat", {"cat": 200})]
    assert eliminators("bob", pots) == {"cat": 200}
    assert eliminators("ann", pots) == {}, "ann won: she was not eliminated"
    halves = [pot(100, "ann bob", {"ann": 50}), pot(100, "ann bob", {"ann": 25, "cat": 25})]
    assert eliminators("bob", halves) == {"ann": 75, "cat": 25}, "a pot run twice: its parts add up"
    assert eliminators("zed", pots) == {}


@given(st.integers(0, 10**6), st.dictionaries(st.sampled_from("abcdef"), st.integers(1, 10**5), min_size=1),
       st.permutations("abcdef"))
@example(98, {"a": 62, "b": 176, "c": 1, "d": 26, "e": 8359}, list("abcdef"))  # b's share is exactly 2 cents
def test_splitting_a_bounty_conserves_every_cent(cents: int, shares: dict[str, int], order: list[str]) -> None:
    split = split_bounty(cents, shares, order)
    assert sum(split.values()) == cents
    assert set(split) == set(shares)
    total = sum(shares.values())
    extra = {winner: got - cents * shares[winner] // total for winner, got in split.items()}
    assert set(extra.values()) <= {0, 1}, "his proportion rounded down, or up by one cent"
    whole = [winner for winner in shares if cents * shares[winner] % total == 0]
    assert all(extra[winner] == 0 for winner in whole), "a whole share gets no odd cent"
    odd = [extra[winner] for winner in order if winner in shares and winner not in whole]
    assert odd == sorted(odd, reverse=True), "the odd cents go first to the first left of the button"


def test_the_odd_cents_of_a_bounty_skip_a_winner_whose_share_is_whole() -> None:
    shares = {"ann": 62, "bob": 176, "cat": 1, "dan": 26, "eve": 8359}
    split = split_bounty(98, shares, ["ann", "bob", "cat", "dan", "eve"])
    assert split == {"ann": 1, "bob": 2, "cat": 1, "dan": 0, "eve": 94}, "bob's 2 is exact; ann and cat are next"


def test_the_summary_and_the_options_survive_a_round_trip() -> None:
    tournament = running("ann", "bob", "cat", rebuys=2, addons=1, reentry=True, bounty=Fraction(5, 2))
    tournament.rebuy("ann", 100, LEVEL_ONE)
    tournament.eliminate_busted(["cat"], {"cat": 300}, pots=[pot(600, "bob cat", {"bob": 600})], order=["bob"])
    tournament.register("cat", LEVEL_ONE)
    tournament.addon("bob", BREAK)
    again = Tournament.from_dict(tournament.to_dict())
    assert again.to_dict() == tournament.to_dict()
    assert again.summary() == tournament.summary()
    assert again.summary().to_dict() == {"players_left": 3, "entries": 4, "rebuys": 1, "addons": 1, "reentries": 1,
                                          "bounty_pool": "5/1", "money_in": "585/2", "chips_in_play": 1800}


def test_an_old_snapshot_without_options_still_reads() -> None:
    data = running("ann", "bob").to_dict()
    config = data["config"]
    for key in ("rebuys", "addons", "reentry", "bounty"):
        del config[key]
    config["rebuys_allowed"] = False
    for entrant in data["entrants"]:
        for key in ("rebuys", "addons", "reentries", "bounty", "bounties_won"):
            del entrant[key]
    again = Tournament.from_dict(data)
    assert again.config == TournamentConfig() and again.entrants["ann"].bounty == 0


def test_a_stored_tournament_without_a_pawn_limit_resumes_with_three() -> None:
    """One saved before the limit could be set kept it anyway; were the key missing, the rules' three stands."""
    data = running("ann", "bob", max_pawns=1).to_dict()
    del data["config"]["max_pawns"]
    assert Tournament.from_dict(data).config.max_pawns == 3


# --- the options' text ----------------------------------------------------------------------------------------------


def test_options_are_read_out_of_the_schedule_words() -> None:
    options, schedule = split_options("home-night rebuys 2 addon reentry bounty 10", Fraction(50))
    assert options == TournamentOptions(rebuys=2, addons=1, reentry=True, bounty=Fraction(10))
    assert schedule == "home-night"
    options, schedule = split_options("Ребаи 1 10/20 20m; break 10m; 20/40 аддон 2 баунти 2,5", Fraction(50))
    assert (options.rebuys, options.addons, options.bounty) == (1, 2, Fraction(5, 2))
    assert schedule == "10/20 20m; break 10m; 20/40"
    assert split_options("", Fraction(50)) == (TournamentOptions(), "")
    assert split_options("10/20 20m; 40/80; rebuys 1", Fraction(50))[1] == "10/20 20m; 40/80"
    assert split_options("; ; rebuys 1", Fraction(50))[1] == "; ;", "a schedule written empty is not left out"


@pytest.mark.parametrize(("text", "limit", "schedule"), [
    ("home-night pawns 1", 1, "home-night"),
    ("pawn 0 10/20 20m; 40/80", 0, "10/20 20m; 40/80"),
    ("home-night Залоги 10 rebuys 2", 10, "home-night"),
    ("home-night залога 3", 3, "home-night"),
    ("home-night", None, "home-night"),  # not named: the tournament's own limit stands
])
def test_the_pawn_limit_is_read_out_of_the_schedule_words(text: str, limit: int | None, schedule: str) -> None:
    options, written = split_options(text, Fraction(50))
    assert (options.max_pawns, written) == (limit, schedule)


@pytest.mark.parametrize(("text", "code"), [
    ("rebuys", "needs_count"),
    ("rebuys two", "needs_count"),
    ("rebuys 0", "count_range"),
    ("addon 100", "count_range"),
    ("rebuys 1 rebuy 2", "repeated"),
    ("reentry 2", "reentry_count"),
    ("bounty", "bad_bounty"),
    ("bounty 1.234", "bad_bounty"),
    ("bounty 50", "bounty_range"),
    ("bounty 0", "bounty_range"),
    ("pawns", "needs_count"),
    ("pawns many", "needs_count"),
    ("pawns 1.5", "needs_count"),
    ("pawns -1", "pawns_range"),
    ("pawns 11", "pawns_range"),
    ("pawns 99999999999999999999", "pawns_range"),
    ("pawns " + "9" * 5000, "pawns_range"),  # more digits than Python turns into an int
    ("pawns 1 залоги 2", "repeated"),
])
def test_a_bad_option_is_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(OptionError) as refused:
        split_options(f"home-night {text}", Fraction(50))
    assert refused.value.code == code


def test_a_bad_bounty_quotes_its_input_inert_for_the_chat_and_as_typed_for_the_log() -> None:
    """The answer's quote holds a word joiner after the `/` (no chat client finds a command there); the engine's
    English, which a log prints, reads the input as typed, not `10/\\u20602`."""
    with pytest.raises(OptionError) as refused:
        split_options("home-night bounty 10/2", Fraction(50))
    assert refused.value.params["value"] == "10/\u20602"
    assert str(refused.value) == "the bounty is an amount of money like 10 or 2.50, not '10/2'"


def test_pawned_items_keep_working_at_the_rate_of_a_bounty_tournament() -> None:
    tournament = running("ann", "bob", "cat", rebuys=1, bounty=Fraction(10))
    tournament.record_pawn("ann", "leather jacket", 100, 3)
    tournament.rebuy("ann", 250, LEVEL_ONE)
    tournament.eliminate_busted(["cat"], {"cat": 300}, pots=[pot(600, "bob cat", {"bob": 600})], order=["bob"])
    tournament.finish(END, {"ann": 650, "bob": 650})
    rows = {row.player: row for row in tournament.settle().rows}
    assert rows["ann"].items_bought_back == Fraction(1333, 100), "100 chips at 7.5 a unit, to the cent"
    # The bank holds 190 paid - 30 of bounties + 13.33 for the item = 173.33 for the 1300 chips, shared by the
    # equal stacks: 86.665 each, the odd cent to the first by name (each exactly 86.666…).
    assert rows["ann"].paid_in == 90 and rows["ann"].cashed_out == Fraction(8667, 100)
    assert rows["bob"].cashed_out == Fraction(8666, 100)
    assert rows["bob"].bounties == 20 and rows["cat"].bounties == 0
    assert sum(row.net for row in rows.values()) == 0


@pytest.mark.parametrize(("text", "logged"), [
    ("rebuys 1 REBUY 2", "the option 'REBUY' is given twice"),
    ("Reentry 2", "'Reentry' takes no number: a busted player may re-enter until late registration ends"),
    ("pawns " + "9" * 4000, "'pawns': from 0 (no pawning) to 10 items per player, not " + "9" * 40 + "…"),
    ("addon 100", "'addon': from 1 to 99 per player, not 100"),
    ("rebuys /\u2060fold", "'rebuys' needs a count per player, like rebuys 2"),
    ("bounty /\u2060" + "x" * 4000, "the bounty is an amount of money like 10 or 2.50, not '/" + "x" * 39 + "…'"),
])
def test_a_bad_option_reads_in_the_log_as_typed_and_briefly(text: str, logged: str) -> None:
    """The engine's English quotes what was typed as `engine.text.log_quote` does: at most 40 characters, and a
    quote copied back from the bot's answer (with its word joiners) as it reads."""
    with pytest.raises(OptionError) as refused:
        split_options(f"home-night {text}", Fraction(50))
    assert str(refused.value) == logged
