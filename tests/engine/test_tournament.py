"""The tournament: buy-ins, cash-outs, eliminations and places, pawned items, the final settlement, serialisation."""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from engine.common import Move, RuleError, all_moves
from engine.holdem_types import PawnRules
from engine.schedule import home_night
from engine.settlement import CENT, to_cents
from engine.tournament import (
    BANK,
    EntrantStatus,
    ItemBoughtBack,
    ItemStatus,
    PawnRedeemed,
    Phase,
    PlayerCashedOut,
    PlayerEliminated,
    PlayerUnregistered,
    Tournament,
    TournamentConfig,
    TournamentFinished,
)

MOSCOW = ZoneInfo("Europe/Moscow")
START = datetime(2024, 5, 4, 17, tzinfo=MOSCOW)
BREAK = datetime(2024, 5, 4, 19, 30, tzinfo=MOSCOW)
END = datetime(2024, 5, 4, 23, tzinfo=MOSCOW)


def running(*players: str, config: TournamentConfig | None = None) -> Tournament:
    tournament = Tournament(config or TournamentConfig(), home_night("Europe/Moscow"))
    for player in players:
        tournament.register(player)
    tournament.start(START)
    return tournament


def nets(tournament: Tournament) -> dict[str, int]:
    return {row.player: row.net_cents for row in tournament.settle().rows}


def test_default_config_is_the_seeds() -> None:
    config = TournamentConfig()
    assert (config.buy_in, config.chips, config.rate, config.max_pawns) == (50, 300, 6, 3)
    assert (config.rebuys, config.addons, config.reentry, config.bounty) == (0, 0, False, 0)
    assert config.to_money(100) == Fraction(50, 3)


def test_register_issues_chips_and_start_needs_two() -> None:
    tournament = Tournament(TournamentConfig(), home_night("Europe/Moscow"))
    events = tournament.register("ann")
    assert all_moves(events) == [Move(BANK, "stack:ann", 300, "buy-in")]
    assert not tournament.can_register("ann")
    with pytest.raises(RuleError, match="at least 2"):
        tournament.start(START)
    tournament.register("bob")
    tournament.start(START)
    assert tournament.phase is Phase.RUNNING and tournament.chips_in_play == 600
    assert tournament.clock.level_at(START).level.limits == "10/20"
    assert {e.status for e in tournament.entrants.values()} == {EntrantStatus.PLAYING}


def test_unregistering_before_the_start_gives_the_buy_in_back() -> None:
    tournament = Tournament(TournamentConfig(), home_night("Europe/Moscow"))
    for player in ("ann", "bob", "cat"):
        tournament.register(player)
    events = tournament.unregister("bob")
    assert events == [PlayerUnregistered(player="bob", money=Fraction(50), chips=300,
                                         moves=(Move("stack:bob", BANK, 300, "unregister"),))]
    assert list(tournament.entrants) == ["ann", "cat"] and tournament.chips_in_play == 600
    assert not tournament.can_unregister("bob") and not tournament.can_unregister("zed")
    tournament.register("bob")  # he may come back
    tournament.start(START)
    with pytest.raises(RuleError, match="already started"):
        tournament.unregister("bob")
    tournament.finish(END, {"ann": 300, "bob": 300, "cat": 300})
    assert nets(tournament) == {"ann": 0, "cat": 0, "bob": 0}


def test_an_unregistered_player_is_not_in_the_settlement() -> None:
    tournament = Tournament(TournamentConfig(), home_night("Europe/Moscow"))
    for player in ("ann", "bob", "cat"):
        tournament.register(player)
    tournament.unregister("cat")
    tournament.start(START)
    tournament.eliminate("bob")
    tournament.finish(END, {"ann": 600})
    assert nets(tournament) == {"ann": 5000, "bob": -5000}


def test_late_registration_closes_when_someone_leaves() -> None:
    tournament = running("ann", "bob", "cat")
    tournament.register("dan")
    assert tournament.entrants["dan"].status is EntrantStatus.PLAYING
    tournament.eliminate("cat")
    assert not tournament.can_register("eve")
    closed = running("ann", "bob", config=TournamentConfig(late_registration=False))
    with pytest.raises(RuleError, match="closed"):
        closed.register("cat")


def test_no_rebuys_by_default_and_a_busted_player_rebuys_when_allowed() -> None:
    tournament = running("ann", "bob", "cat")
    tournament.eliminate("cat")
    with pytest.raises(RuleError, match="rebuys"):
        tournament.rebuy("cat", 0, START)
    generous = running("ann", "bob", "cat", config=TournamentConfig(rebuys=1))
    generous.eliminate("cat")
    generous.rebuy("cat", 0, START)
    assert generous.entrants["cat"].status is EntrantStatus.PLAYING and generous.chips_in_play == 1200
    generous.finish(END, {"ann": 600, "bob": 300, "cat": 300})
    assert nets(generous) == {"ann": 5000, "bob": 0, "cat": -5000}


def test_cash_out_mid_tournament_is_for_good() -> None:
    tournament = running("ann", "bob", "cat")
    events = tournament.cash_out("ann", 420)
    assert events == [PlayerCashedOut(player="ann", chips=420, money=Fraction(70),
                                      moves=(Move("stack:ann", BANK, 420, "cash-out"),))]
    assert tournament.entrants["ann"].status is EntrantStatus.CASHED_OUT
    assert tournament.chips_in_play == 480
    for check in (lambda: tournament.cash_out("ann", 0), lambda: tournament.eliminate("ann"),
                  lambda: tournament.record_pawn("ann", "jacket", 100, 9)):
        with pytest.raises(RuleError, match="not playing"):
            check()
    with pytest.raises(RuleError):
        tournament.cash_out("bob", 481)
    reentering = running("ann", "bob", "cat", config=TournamentConfig(reentry=True))
    reentering.cash_out("ann", 420, START)
    for left in (tournament, reentering):  # neither "already in" nor a re-entry: a cash-out is for good
        with pytest.raises(RuleError) as refused:
            left.register("ann", START)
        assert refused.value.code == "cashed_out"
    tournament.eliminate("cat")
    finished = tournament.finish(END, {"bob": 480})[-1]
    assert isinstance(finished, TournamentFinished)
    assert (finished.places, finished.cashed_out) == ({"bob": 1, "cat": 2}, ("ann",))
    assert tournament.standings() == ({"bob": 1, "cat": 2}, ("ann",))
    assert nets(tournament) == {"ann": 2000, "bob": 3000, "cat": -5000}
    assert tournament.entrants["ann"].place is None
    assert (tournament.entrants["bob"].place, tournament.entrants["cat"].place) == (1, 2)


def test_a_place_said_at_a_bust_stays_when_a_player_still_in_cashes_out_later() -> None:
    """Cat is out third of three; Ann, still in, cashes out after: she takes no place (RULES.md §1) and leaves hers
    empty, and Cat keeps the third place the table was told (his place moved up to second at the end)."""
    tournament = running("ann", "bob", "cat")
    assert tournament.eliminate("cat") == [PlayerEliminated(player="cat", place=3)]
    tournament.cash_out("ann", 450)
    assert tournament.entrants["cat"].place == 3
    finished = tournament.finish(END, {"bob": 450})[-1]
    assert (finished.places, finished.cashed_out) == ({"bob": 1, "cat": 3}, ("ann",))
    nobody_left = running("ann", "bob", "cat")
    nobody_left.eliminate("cat")
    nobody_left.cash_out("ann", 450)
    nobody_left.cash_out("bob", 450)
    finished = nobody_left.finish(END, {})[-1]
    assert (finished.places, finished.cashed_out) == ({"cat": 3}, ("ann", "bob"))


def test_places_not_final_yet_move_up_when_a_player_still_in_cashes_out() -> None:
    """During the rebuy period a place is not said (a comeback or a late entry would move it): a cash-out then moves
    those out up, so that the places said at the period's end follow those still in. After it, a cash-out moves none."""
    during = running("ann", "bob", "cat", config=TournamentConfig(rebuys=1))
    during.eliminate("cat")
    with pytest.raises(ValueError, match="needs the time"):
        during.cash_out("ann", 450)
    during.cash_out("ann", 450, START)
    assert during.entrants["cat"].place == 2
    assert during.finish(END, {"bob": 450})[-1].places == {"bob": 1, "cat": 2}  # type: ignore[attr-defined]
    after = running("ann", "bob", "cat", config=TournamentConfig(rebuys=1))
    after.eliminate("cat")  # at the break, the period over: third, said so
    after.cash_out("ann", 450, BREAK)
    assert after.finish(END, {"bob": 450})[-1].places == {"bob": 1, "cat": 3}  # type: ignore[attr-defined]


def test_eliminations_in_order_give_places_and_stacks_place_the_rest() -> None:
    tournament = running("ann", "bob", "cat", "dan", "eve")
    assert tournament.eliminate("dan")[0].place == 5  # type: ignore[attr-defined]
    assert tournament.eliminate("ann")[0].place == 4  # type: ignore[attr-defined]
    events = tournament.finish(END, {"bob": 700, "cat": 400, "eve": 400})
    assert events[-1].places == {"bob": 1, "cat": 2, "eve": 2, "ann": 4, "dan": 5}  # type: ignore[attr-defined]
    assert tournament.phase is Phase.FINISHED
    assert not tournament.can_register("zed")


def test_the_last_player_is_not_eliminated() -> None:
    tournament = running("ann", "bob")
    tournament.eliminate("bob")
    with pytest.raises(RuleError, match="winner"):
        tournament.eliminate("ann")


def test_finish_needs_every_stack_and_every_chip() -> None:
    tournament = running("ann", "bob", "cat")
    with pytest.raises(RuleError, match="every player"):
        tournament.finish(END, {"ann": 900})
    with pytest.raises(RuleError, match="899"):
        tournament.finish(END, {"ann": 400, "bob": 499, "cat": 0})
    with pytest.raises(RuleError, match="not over"):
        tournament.settle()


def test_pawned_item_is_bought_back_at_the_rate() -> None:
    tournament = running("ann", "bob")
    events = tournament.record_pawn("bob", "leather jacket", 100, hand_number=7)
    assert events[0].price == Fraction(50, 3) and not all_moves(events)  # type: ignore[attr-defined]
    assert tournament.items[0].holder == BANK and tournament.chips_in_play == 700
    finished = tournament.finish(END, {"ann": 700, "bob": 0})
    assert [e.money for e in finished if isinstance(e, ItemBoughtBack)] == [Fraction(1667, 100)], "16.67, as said"
    settlement = tournament.settle()
    rows = {row.player: row for row in settlement.rows}
    assert rows["bob"].items_bought_back == Fraction(1667, 100) and rows["bob"].item_count == 1
    # ann won bob's 300 chips and the 100 the jacket raised: the bank holds 50 + 50 + 16.67 for them; bob pays
    # 50 + 16.67.
    assert rows["ann"].cashed_out == Fraction(11667, 100)
    assert {p: r.net_cents for p, r in rows.items()} == {"ann": 6667, "bob": -6667}
    assert [(t.payer, t.payee, t.cents) for t in settlement.transfers] == [("bob", "ann", 6667)]


def test_cashing_out_buys_back_held_items() -> None:
    tournament = running("ann", "bob", "cat")
    tournament.record_pawn("bob", "coat", 100, 3)  # not a hat: an accessory, refused (RULES §1)
    events = tournament.cash_out("bob", 100)
    assert [type(e).__name__ for e in events] == ["ItemBoughtBack", "PlayerCashedOut"]
    assert tournament.items[0].status is ItemStatus.BOUGHT_BACK


def test_redeeming_pays_the_chips_back() -> None:
    tournament = running("ann", "bob")
    tournament.record_pawn("bob", "coat", 100, 3)
    with pytest.raises(RuleError, match="100 chips"):
        tournament.redeem_pawn("bob", 1, stack=60)
    with pytest.raises(RuleError) as last_chips:  # a player with no chips is out: it stays in pawn till the end
        tournament.redeem_pawn("bob", 1, stack=100)
    assert last_chips.value.code == "redeem_last_chips" and tournament.held_items("bob")
    assert not tournament.can_redeem_pawn("ann", 1)
    assert [item.description for item in tournament.held_items("bob")] == ["coat"]
    events = tournament.redeem_pawn("bob", 1, stack=250)
    assert isinstance(events[0], PawnRedeemed) and events[0].description == "coat"
    assert tournament.held_items("bob") == []
    assert all_moves(events)[0].source == "stack:bob" and all_moves(events)[0].amount == 100
    assert tournament.chips_in_play == 600 and tournament.items[0].status is ItemStatus.REDEEMED
    assert not tournament.can_redeem_pawn("bob", 1)
    tournament.finish(END, {"ann": 350, "bob": 250})
    assert nets(tournament) == {"ann": 833, "bob": -833}


def test_pawn_limits() -> None:
    tournament = running("ann", "bob")
    for number in range(3):
        tournament.record_pawn("bob", f"shirt {number}", 100, number)
    tournament.redeem_pawn("bob", 1)
    assert not tournament.can_pawn("bob")  # redeemed items still count towards the three
    assert tournament.can_pawn("ann", "scarf", 100)
    with pytest.raises(RuleError, match="'socks'"):
        tournament.verify_pawn("ann", "warm socks")
    with pytest.raises(RuleError, match="'часы'"):
        tournament.verify_pawn("ann", "Часы Casio")
    with pytest.raises(RuleError, match="worth 100"):
        tournament.verify_pawn("ann", "scarf", 150)
    assert not running("x", "y", config=TournamentConfig(max_pawns=0)).can_pawn("x")


@pytest.mark.parametrize(("description", "code"), [
    ("", "pawn_item_missing"), (" ?! ", "pawn_item_missing"), ("warm socks", "pawn_item_forbidden"),
    ("Часы Casio", "pawn_item_forbidden"),
])
def test_tournament_refuses_items_as_the_hand_does(description: str, code: str) -> None:
    tournament = running("ann", "bob")
    with pytest.raises(RuleError) as in_tournament:
        tournament.verify_pawn("ann", description)
    with pytest.raises(RuleError) as in_hand:
        PawnRules().verify_item(description)
    assert in_tournament.value.code == in_hand.value.code == code
    assert in_tournament.value.params == in_hand.value.params


def test_cancelled_before_start_everyone_is_square() -> None:
    tournament = Tournament(TournamentConfig(), home_night("Europe/Moscow"))
    tournament.register("ann")
    finished = tournament.finish(START, {"ann": 300})[-1]
    assert nets(tournament) == {"ann": 0} and tournament.settle().transfers == ()
    assert isinstance(finished, TournamentFinished)
    assert (finished.places, finished.cashed_out) == ({}, ()), "nobody played: no places and nobody cashed out"


def test_tournament_serialises_and_continues_the_same() -> None:
    tournament = running("ann", "bob", "cat")
    tournament.record_pawn("bob", "coat", 100, 3)
    tournament.clock.pause(START + timedelta(minutes=30))
    tournament.eliminate("cat")
    copy = Tournament.from_dict(json.loads(json.dumps(tournament.to_dict())))
    assert copy.to_dict() == tournament.to_dict()
    for state in (tournament, copy):
        state.clock.resume(START + timedelta(minutes=40))
        events = state.finish(END, {"ann": 500, "bob": 500})
        assert json.loads(json.dumps([event.to_dict() for event in events]))
    assert copy.settle() == tournament.settle()
    assert copy.clock.level_at(END) == tournament.clock.level_at(END)


RATES = [(Fraction(50), 300), (Fraction(7), 300), (Fraction(1), 1000), (Fraction(3, 100), 1000), (Fraction(2), 7)]
"""(buy-in, chips) pairs: a chip worth 16.67 cents (RULES.md), 2.33 cents, under a cent (0.1, 0.003), and 28.57."""


@st.composite
def tournaments(draw: st.DrawFn) -> Tournament:
    """A random tournament played to its end at a random rate: buy-ins, pawns, redemptions, cash-outs, eliminations,
    then finish."""
    count = draw(st.integers(2, 7))
    players = [f"p{i}" for i in range(count)]
    buy_in, chips = draw(st.sampled_from(RATES))
    tournament = running(*players, config=TournamentConfig(buy_in=buy_in, chips=chips))
    stacks = dict.fromkeys(players, chips)
    for _ in range(draw(st.integers(0, 12))):
        playing = [p for p in players if tournament.entrants[p].status is EntrantStatus.PLAYING]
        player, other = draw(st.sampled_from(playing)), draw(st.sampled_from(playing))
        action = draw(st.sampled_from(["win", "pawn", "redeem", "cash_out", "bust"]))
        if action == "win":
            amount = draw(st.integers(0, stacks[other]))
            stacks[other] -= amount
            stacks[player] += amount
        elif action == "pawn" and tournament.can_pawn(player):
            tournament.record_pawn(player, "coat", 100, 1)
            stacks[player] += 100
        elif action == "redeem":
            held = [i for i in tournament.items if i.owner == player and i.status is ItemStatus.HELD]
            if held and tournament.can_redeem_pawn(player, held[0].item_id, stack=stacks[player]):
                tournament.redeem_pawn(player, held[0].item_id, stack=stacks[player])
                stacks[player] -= 100
        elif action == "cash_out" and len(playing) > 1:
            tournament.cash_out(player, stacks.pop(player))
        elif action == "bust" and player != other:
            stacks[other] += stacks.pop(player)
            tournament.eliminate(player)
    tournament.finish(END, stacks)
    return tournament


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_any_tournament_settles_exactly(tournament: Tournament) -> None:
    settlement = tournament.settle()
    assert sum(row.net for row in settlement.rows) == 0
    assert sum(row.net_cents for row in settlement.rows) == 0
    owed = {row.player: row.net_cents for row in settlement.rows}
    for transfer in settlement.transfers:
        owed[transfer.payer] += transfer.cents
        owed[transfer.payee] -= transfer.cents
    assert set(owed.values()) <= {0}
    assert len(settlement.transfers) <= len(settlement.rows) - 1
    for row in settlement.rows:
        assert abs(Fraction(row.net_cents, 100) - row.net) < Fraction(1, 100)
    cashed_out = [entrant.cashed_out_money for entrant in tournament.entrants.values()]
    assert all(money is None or money >= 0 for money in cashed_out), cashed_out  # None: out, not cashed out


@dataclass(frozen=True)
class ShortEnd:
    """A tournament at a rate (`RATES`) whose last player still in pawns `pawned` items, then sees the others cash out
    `stacks` one by one, redeems `redeemed` of his items and finishes with `final` chips (0-20)."""

    config: TournamentConfig
    pawned: int
    stacks: list[int]
    redeemed: int
    final: int


@st.composite
def short_ends(draw: st.DrawFn) -> ShortEnd:
    """A `ShortEnd`: every chip bought or pawned is in a cash-out, an item redeemed or the final stack."""
    buy_in, chips = draw(st.sampled_from(RATES))
    config = TournamentConfig(buy_in=buy_in, chips=chips)
    count, pawned = draw(st.integers(2, 8)), draw(st.integers(0, config.max_pawns))
    redeemed = draw(st.integers(0, pawned))
    final = draw(st.integers(1 if redeemed else 0, 20))
    kept = final + redeemed * config.pawn_chips  # his stack once the others cashed out
    total = count * chips + pawned * config.pawn_chips
    assume(kept < total)
    cuts = sorted(draw(st.lists(st.integers(0, total - kept), min_size=count - 2, max_size=count - 2)))
    bounds = [0, *cuts, total - kept]
    return ShortEnd(config, pawned, [b - a for a, b in pairwise(bounds)], redeemed, final)


@settings(max_examples=300, deadline=None)
@given(short_ends())
@example(ShortEnd(TournamentConfig(buy_in=Fraction(3, 100), chips=1000), 0, [167, 167, 3665], 0, 1))  # 1 + 1 + 11 > 12
@example(ShortEnd(TournamentConfig(buy_in=Fraction(1), chips=1000), 1, [995, 15, 2989], 1, 1))  # 401 of 410, 10 back
def test_cash_outs_rounded_up_leave_the_last_stack_a_share_of_at_least_nothing(game: ShortEnd) -> None:
    """Each cash-out while chips stay in play is told its chips' worth to the nearest cent, up to half a cent over;
    the last stack shares what the bank still holds for chips. However the cash-outs (and the items' prices) rounded,
    that share is never negative (a chip may be worth under a cent) and every figure adds up to the cent."""
    players = [f"p{i}" for i in range(len(game.stacks) + 1)]
    last = players[-1]
    tournament = running(*players, config=game.config)
    for _ in range(game.pawned):
        tournament.record_pawn(last, "coat", game.config.pawn_chips, 1)
    events = [event for player, chips in zip(players, game.stacks, strict=False)
              for event in tournament.cash_out(player, chips)]
    for number in range(game.redeemed):
        tournament.redeem_pawn(last, number + 1, stack=game.final + (game.redeemed - number) * game.config.pawn_chips)
    events += tournament.finish(END, {last: game.final})
    money = [event.money for event in events if isinstance(event, PlayerCashedOut)]
    assert len(money) == len(players)
    assert min(money) >= 0, money
    bought_back = (game.pawned - game.redeemed) * to_cents(game.config.to_money(game.config.pawn_chips)) * CENT
    assert sum(money) == len(players) * game.config.buy_in + bought_back, "every cent the bank took, paid out"
    assert sum(row.net for row in tournament.settle().rows) == 0


def test_players_busted_in_one_hand_are_placed_by_the_chips_they_began_it_with() -> None:
    tournament = running("ann", "bob", "cat", "dan", "eve")
    events = tournament.eliminate_busted(["ann", "bob", "cat"], {"ann": 300, "bob": 120, "cat": 300, "dan": 900})
    assert [(event.player, event.place) for event in events] == [  # type: ignore[attr-defined]
        ("bob", 5), ("ann", 3), ("cat", 3)]
    assert tournament.entrants["dan"].status is tournament.entrants["eve"].status
    assert tournament.eliminate("dan")[0].place == 2  # type: ignore[attr-defined]
    with pytest.raises(RuleError):
        tournament.eliminate_busted(["eve"], {"eve": 10})
