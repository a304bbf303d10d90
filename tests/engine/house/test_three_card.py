"""Three Card Poker golden rounds: PAIRPLUS on the deal, queen-high qualification, ante bonus, limit tiers."""

from dataclasses import replace

import pytest

from engine.cards import Deck
from engine.common import IllegalAmount, RuleError, all_moves
from engine.house.events import StakesSettled
from engine.house.three_card import ThreeCardRound, ThreeCardRules, tier_of, with_tier


def play(cards: str, dealer: str, *, ante: int = 10, pairplus: int = 0, action: str = "play",
         rules: ThreeCardRules | None = None) -> ThreeCardRound:
    round_ = ThreeCardRound.new(rules)
    round_.place_bets("ann", 1, ante, side=pairplus, balance=1000)
    round_.deal(Deck.stacked(f"{cards} {dealer}"))
    if round_.to_act:
        round_.act("ann", action)
    return round_


def test_pairplus_is_settled_on_the_deal() -> None:
    round_ = ThreeCardRound.new()
    round_.place_bets("ann", 1, 10, side=5, balance=1000)
    events = round_.deal(Deck.stacked("7s 7d 2c  Ah Kh Qh"))
    settled = [e for e in events if isinstance(e, StakesSettled)]
    assert [(e.results, e.final) for e in settled] == [({"pairplus": 5}, False)]
    assert round_.wallets["ann"] == 1000 - 15 + 10


@pytest.mark.parametrize(("cards", "multiple"), [
    ("As Ks Qs", 40), ("7s 7d 7c", 20), ("As 2d 3c", 5), ("2s 9s Js", 4), ("7s 7d 2c", 1), ("As Kd 9c", -1)])
def test_pairplus_paytable(cards: str, multiple: int) -> None:
    round_ = play(cards, "4h 5h 8d", ante=0, pairplus=5)
    assert round_.is_over and round_.result().players["ann"] == 5 * multiple


@pytest.mark.parametrize(("dealer", "net"), [
    ("Qh 7d 3c", 20),   # queen-high qualifies, player's king-high... no: pair of twos wins ante and play
    ("Jh 9d 8c", 10),   # jack-high: no game, ANTE 1:1, PLAY back
])
def test_queen_high_qualifies(dealer: str, net: int) -> None:
    assert play("2s 2d 5c", dealer).result().players["ann"] == net


def test_lost_tie_and_fold() -> None:
    assert play("Ks 9d 5c", "Ah 7d 3c").result().players["ann"] == -20
    assert play("Ks 9d 5c", "Kh 9c 5d").result().players["ann"] == 0
    assert play("Ks 9d 5c", "Ah 7d 3c", action="fold").result().players["ann"] == -10


def test_ante_bonus_on_win_or_tie_or_always() -> None:
    assert play("4s 5d 6c", "Ah 7d 3c").result().players["ann"] == 20 + 10      # straight wins, bonus 1:1
    assert play("4s 5d 6c", "4h 5c 6d").result().players["ann"] == 10           # tie, bonus still paid
    assert play("7s 7d 7c", "Jh 9d 8c").result().players["ann"] == 10 + 30      # dealer no game counts as a win
    assert play("4s 5d 6c", "9h Td Jc").result().players["ann"] == -20           # lost: no bonus
    always = ThreeCardRules(ante_bonus_always=True)
    assert play("4s 5d 6c", "9h Td Jc", rules=always).result().players["ann"] == -20 + 10


@pytest.mark.parametrize(("tier", "ante", "pairplus", "ok"), [
    ("lite", 50, 25, True), ("lite", 51, 0, False), ("lite", 10, 26, False),
    ("respect", 4, 0, False), ("respect", 500, 100, True), ("vip", 20, 0, False), ("VIP", 2000, 500, True)])
def test_limit_tiers(tier: str, ante: int, pairplus: int, ok: bool) -> None:
    round_ = ThreeCardRound.new(ThreeCardRules.tier(tier))
    assert round_.can_place_bets("ann", 1, ante, side=pairplus, balance=10_000) is ok


@pytest.mark.parametrize(("tier", "ante", "pairplus"), [  # RULES.md §5's ANTE and P+ ranges
    ("lite", (1, 50), (0, 25)), ("respect", (5, 500), (0, 100)), ("vip", (25, 2000), (0, 500)),
    ("VIP", (25, 2000), (0, 500))])
def test_a_tier_sets_the_ranges_and_keeps_the_tables_cap_and_boxes(tier: str, ante: tuple[int, int],
                                                                   pairplus: tuple[int, int]) -> None:
    table = replace(ThreeCardRules().limits, max_payout=5_000, max_boxes=2)
    chosen = with_tier(table, tier)
    assert ((chosen.min_ante, chosen.max_ante), (chosen.min_side, chosen.max_side)) == (ante, pairplus)
    assert (chosen.max_payout, chosen.max_boxes) == (5_000, 2)
    ranges = {"min_ante": ante[0], "max_ante": ante[1], "min_side": pairplus[0], "max_side": pairplus[1]}
    assert tier_of(replace(table, **ranges)) == tier.lower()  # a table with these ranges, however they were set
    assert tier_of(replace(table, **{**ranges, "min_ante": ante[0] + 1})) is None


def test_bets_over_balance_or_out_of_order_are_refused() -> None:
    round_ = ThreeCardRound.new()
    with pytest.raises(IllegalAmount):
        round_.place_bets("ann", 1, 10, side=5, balance=14)
    with pytest.raises(RuleError) as error:
        round_.place_bets("ann", 2, 10, balance=100)
    assert error.value.code == "box_order"
    round_.place_bets("ann", 1, 10, balance=100)
    with pytest.raises(RuleError):
        round_.place_bets("ann", 4, 10)


@pytest.mark.parametrize(("action", "net"), [("play", 2), ("fold", -1)])
def test_a_lone_ante_box_ledger_closes(action: str, net: int) -> None:
    # The property test's seed 3290920: both players' bets (ANTE + PAIRPLUS 25 on a 30-chip wallet) were refused, and
    # the lone fallback ANTE 1 box then played ace-high against a qualifying queen-high.
    round_ = ThreeCardRound.new()
    assert not round_.can_place_bets("ann", 1, 20, side=25, balance=30)
    events = round_.place_bets("ann", 1, 1, balance=30)
    events += round_.deal(Deck.stacked("Jc Ad Th  2h Qd Td"))
    events += round_.act("ann", action)
    balances: dict[str, int] = {}
    for move in all_moves(events):
        balances[move.source] = balances.get(move.source, 0) - move.amount
        balances[move.target] = balances.get(move.target, 0) + move.amount
    assert balances == {"player:ann": net, "box:ann:1": 0, "house": -net}
    assert round_.wallets["ann"] == 30 + net and round_.result().players == {"ann": net}


def test_pairplus_alone_is_settled_on_the_deal_and_told_to_the_table_at_the_end() -> None:
    """A box with PAIRPLUS alone has nothing to decide; its result, which shows its cards, is final (public) only
    when the round ends, as a PAIRPLUS beside an ANTE is: other boxes still decide meanwhile."""
    round_ = ThreeCardRound.new()
    round_.place_bets("ann", 1, 0, side=5, balance=1000)
    round_.place_bets("bob", 1, 10, balance=1000)
    dealt = round_.deal(Deck.stacked("9c 9h 5d  Kd Kc 2s  Qc 5c 2c"))
    settled = [e for e in dealt if isinstance(e, StakesSettled)]
    assert [(e.player, e.results, e.final) for e in settled] == [("ann", {"pairplus": 5}, False)]
    assert round_.to_act == ("bob", 1) and round_.wallets["ann"] == 1000 + 5
    ended = round_.act("bob", "play")
    (final,) = [e for e in ended if isinstance(e, StakesSettled) and e.player == "ann"]
    assert (final.final, final.outcome, final.hand, final.results, final.earlier, final.moves) == (
        True, "won", "pair", {}, {"pairplus": 5}, ())
    assert round_.result().players == {"ann": 5, "bob": -20}


def test_a_losing_pairplus_alone_is_lost_on_the_deal_and_told_to_the_table_at_the_end() -> None:
    """A box with PAIRPLUS alone whose hand pays nothing loses its stake to the house on the deal; at the end its
    result is told as lost, with nothing left on the box to move."""
    round_ = ThreeCardRound.new()
    round_.place_bets("ann", 1, 0, side=5, balance=1000)
    round_.place_bets("bob", 1, 10, balance=1000)
    dealt = round_.deal(Deck.stacked("As Kd 9c  Kh Kc 2s  Qc 5c 2c"))
    (early,) = [e for e in dealt if isinstance(e, StakesSettled)]
    assert (early.player, early.results, early.outcome, early.final, early.payouts) == (
        "ann", {"pairplus": -5}, "lost", False, ())
    assert [(move.source, move.target, move.amount) for move in early.moves] == [("box:ann:1", "house", 5)]
    ended = round_.act("bob", "play")
    (final,) = [e for e in ended if isinstance(e, StakesSettled) and e.player == "ann"]
    assert (final.final, final.outcome, final.hand, final.results, final.earlier, final.moves) == (
        True, "lost", "high_card", {}, {"pairplus": -5}, ())
    assert round_.result().players == {"ann": -5, "bob": -20} and round_.wallets["ann"] == 995


def test_the_maximum_payout_caps_the_box_with_its_pairplus() -> None:
    """A maximum payout per box caps every payment (RULES.md §4, and a Three Card table that sets one): the PAIRPLUS
    won on the deal counts toward it, so the ANTE's lines later get only what is left."""
    rules = ThreeCardRules(limits=replace(ThreeCardRules().limits, max_payout=100))
    round_ = ThreeCardRound.new(rules)
    round_.place_bets("ann", 1, 10, side=5, balance=1000)
    (dealt,) = [e for e in round_.deal(Deck.stacked("9h 8h 7h  Qc 5d 2s")) if isinstance(e, StakesSettled)]
    assert (dealt.results, dealt.max_payout) == ({"pairplus": 100}, 100)  # 40:1 on 5 would be 200
    (final,) = [e for e in round_.act("ann", "play") if isinstance(e, StakesSettled)]
    assert (final.results, final.max_payout) == ({"ante": 0, "play": 0, "ante_bonus": 0}, 100)
    assert round_.result().players["ann"] == 100


def test_an_ante_of_zero_needs_the_pairplus_and_each_refusal_names_it() -> None:
    round_ = ThreeCardRound.new()
    with pytest.raises(IllegalAmount) as alone:
        round_.place_bets("ann", 1, 0, balance=1000)
    assert alone.value.code == "ante_alone_needs_side" and alone.value.params == {"min": 1, "max": 50,
                                                                                  "stake": "pairplus"}
    with pytest.raises(IllegalAmount) as side:
        round_.place_bets("ann", 1, 10, side=26, balance=1000)
    assert side.value.code == "bad_side" and side.value.params["stake"] == "pairplus"
    assert round_.boxes == []


def test_a_box_keeps_what_it_bet_on_each_line_when_the_lines_are_settled() -> None:
    """The PAIRPLUS settled on the deal and the lines settled at the end leave the box's bets as they were placed (the
    table shows them), saved and read back; a round saved before they were kept reads the stakes still on its boxes."""
    round_ = ThreeCardRound.new()
    round_.place_bets("ann", 1, 10, side=5, balance=1000)
    round_.deal(Deck.stacked("7s 7d 2c  Ah Kh Qh"))
    box = round_.boxes[0]
    assert (box.stakes, box.bets) == ({"ante": 10}, {"ante": 10, "pairplus": 5})
    saved = round_.to_dict()
    assert ThreeCardRound.from_dict(saved).boxes[0].bets == {"ante": 10, "pairplus": 5}
    del saved["boxes"][0]["bets"]
    assert ThreeCardRound.from_dict(saved).boxes[0].bets == {"ante": 10}
    round_.act("ann", "play")
    assert (box.stakes, box.bets) == ({}, {"ante": 10, "pairplus": 5, "play": 10})
