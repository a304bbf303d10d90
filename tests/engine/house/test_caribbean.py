"""Caribbean Poker golden rounds: exchange per card, ace-king qualification, suit tie-break, bonus, maximum payout."""

from dataclasses import replace

import pytest

from engine.cards import Deck
from engine.common import RuleError
from engine.house.boxes import cap
from engine.house.caribbean import CaribbeanRound, CaribbeanRules
from engine.house.events import StakesSettled


def start(cards: str, dealer: str, *, ante: int = 10, bonus: int = 0, rest: str = "",
          rules: CaribbeanRules | None = None) -> CaribbeanRound:
    round_ = CaribbeanRound.new(rules)
    round_.place_bets("ann", 1, ante, side=bonus, balance=100_000)
    round_.deal(Deck.stacked(f"{cards} {dealer} {rest}"))
    return round_


def net(round_: CaribbeanRound) -> int:
    return round_.result().players["ann"]


@pytest.mark.parametrize(("cards", "dealer", "expected"), [
    ("Ah Kd 9c 5d 3s", "As Kc 9h 5c 3d", 30),    # same ranks: hearts ace beats spades ace
    ("As Kd 9c 5d 3h", "Ah Kc 9h 5c 3d", -30),
    ("9h 9c Kd 5d 3s", "9s 9d Kc 5c 3d", 30),    # pair of nines: hearts > diamonds
    ("Qs Qd 8c 5d 3s", "Jh Jc Ac 5c 3d", 30),    # pair 1:1
    ("2s 3d 4c 5d 6s", "Jh Jc Ac 7c 9h", 10 + 80),  # straight 4:1
    ("Qs Qd 8c 5d 3s", "Qh 9c 8d 5c 3d", 10),    # dealer queen-high: no game, ANTE 1:1
    ("Qs Qd 8c 5d 3s", "Ac Kc 8d 6c 3d", 30),    # dealer qualifies with ace-king, the queens beat it
    ("As Kd 8c 5d 3s", "Ac Kc 9d 6c 2d", -30),   # ace-king against a higher ace-king
])
def test_settlement(cards: str, dealer: str, expected: int) -> None:
    round_ = start(cards, dealer)
    round_.act("ann", "play")
    assert net(round_) == expected


@pytest.mark.parametrize(("cards", "dealer", "hand", "bet"), [
    ("As Kd Jc 8d 2s", "Ac Kc 9d 5c 3d", "ace_king", "ace_king"),  # wins 1:1, named as the dealer's is
    ("As Kd 8c 5d 3s", "Ac Kc 9d 6c 2d", "ace_king", None),        # loses to a higher ace-king
    ("As Qd 8c 5d 3s", "Ac Kc 9d 6c 2d", "high_card", None),       # an ace without the king: ace high
    ("Qs Qd 8c 5d 3s", "Ac Kc 9d 6c 2d", "pair", "pair"),
])
def test_a_box_and_the_dealer_name_a_hand_alike(cards: str, dealer: str, hand: str, bet: str | None) -> None:
    """The dealer's ace-king (his lowest qualifying hand) was "ace-king" while a box's same hand was "ace high": a
    high card holding an ace and a king is "ace-king" on both sides, and its BET is paid by the high card's line."""
    round_ = start(cards, dealer)
    (settled,) = [e for e in round_.act("ann", "play") if isinstance(e, StakesSettled)]
    assert settled.hand == hand
    assert [(payout.hand, payout.multiple) for payout in settled.payouts] == ([(bet, 1)] if bet else [])


def test_ties_push_without_the_suit_tiebreak() -> None:
    round_ = start("Ah Kd 9c 5d 3s", "As Kc 9h 5c 3d", rules=CaribbeanRules(suit_tiebreak=False))
    round_.act("ann", "play")
    assert net(round_) == 0


def test_exchange_costs_one_ante_per_card_then_play_or_fold() -> None:
    round_ = start("Qs Qd 8c 5d 3s", "Jh Jc Ac 5c 3d", rest="Qc Qh 2d")
    option = round_.legal_actions().get("exchange")
    assert option is not None and option.per_card and option.cost == 10
    events = round_.act("ann", "exchange", ["8c", "5d", "3s"])
    assert sum(move.amount for event in events for move in event.moves) == 30
    assert round_.legal_actions().names == ("play", "fold")
    round_.act("ann", "play")
    assert net(round_) == -30 + 10 + 20 * 20   # four queens 20:1


@pytest.mark.parametrize(("cards", "code"), [(["8c", "8c"], "card_twice"), (["8c", "Ah"], "not_your_cards")])
def test_an_exchange_names_each_of_the_boxs_cards_once(cards: list[str], code: str) -> None:
    round_ = start("Qs Qd 8c 5d 3s", "Jh Jc Ac 5c 3d", rest="Qc Qh 2d")
    with pytest.raises(RuleError) as refused:
        round_.act("ann", "exchange", cards)
    assert refused.value.code == code
    assert round_.legal_actions().get("exchange") is not None  # nothing changed


def test_re_exchange_option_costs_two_antes() -> None:
    rules = CaribbeanRules(re_exchange_limit=1)
    round_ = start("Qs Qd 8c 5d 3s", "Jh Jc Ac 5c 3d", rest="2c 9h", rules=rules)
    round_.act("ann", "exchange", ["8c"])
    option = round_.legal_actions().get("re_exchange")
    assert option is not None and option.cost == 20
    round_.act("ann", "re_exchange", ["2c"])
    assert "re_exchange" not in round_.legal_actions().names
    round_.act("ann", "fold")
    assert net(round_) == -10 - 20 - 10


def test_bonus_is_paid_on_the_dealt_hand_even_after_a_fold() -> None:
    round_ = start("2s 3d 4c 5d 6s", "Jh Jc Ac 7c 9h", bonus=10)
    round_.act("ann", "fold")
    assert net(round_) == -10 + 50
    round_ = start("2s 3d 4c 5d Ks", "Jh Jc Ac 7c 9h", bonus=10, rest="6h")
    round_.act("ann", "exchange", ["Ks"])
    round_.act("ann", "play")
    assert net(round_) == -10 + 10 + 80 - 10   # the bonus looks at the dealt hand only


def test_maximum_payout_caps_the_box() -> None:
    round_ = start("As Ks Qs Js Ts", "Jh Jc Ac 5c 3d", ante=100)
    round_.act("ann", "play")
    assert net(round_) == 10_000


def test_maximum_payout_caps_the_bonus_with_the_box() -> None:
    """RULES.md §4: the maximum payout is the box's and caps every payment, the bonus's too; the BET is cut first."""
    round_ = start("Ah Kh Qh Jh Th", "Ac Kc 4d 3c 2d", ante=100, bonus=10)   # royal flush dealt: bonus 500:1
    events = round_.act("ann", "play")
    assert net(round_) == 10_000
    (settled,) = [event for event in events if isinstance(event, StakesSettled)]
    assert list(settled.results.items()) == [("ante", 100), ("bet", 4_900), ("bonus", 5_000)]


@pytest.mark.parametrize(("lines", "cut_last", "expected"), [
    ({"ante": 100, "bet": 30, "bonus": 50}, (), {"ante": 100, "bet": 0, "bonus": 0}),
    ({"ante": 100, "bet": 30, "bonus": 50}, ("bonus",), {"ante": 50, "bet": 0, "bonus": 50}),
    ({"bonus": 50, "ante": 100, "bet": 30}, ("bonus",), {"bonus": 50, "ante": 50, "bet": 0}),
    ({"ante": 100, "bet": 30, "bonus": 50}, ("bonus", "ante"), {"ante": 100, "bet": 0, "bonus": 0}),
    ({"ante": 100, "bet": -20, "bonus": 50}, ("bonus",), {"ante": 50, "bet": -20, "bonus": 50}),  # a loss is not cut
])
def test_the_cap_cuts_the_later_lines_first_and_the_cut_last_ones_after_all_others(
        lines: dict[str, int], cut_last: tuple[str, ...], expected: dict[str, int]) -> None:
    """The maximum payout (100 here) cuts the later winning lines first, those named `cut_last` only after all the
    others (the later of them first); the lines keep their order, whatever it is."""
    assert list(cap(lines, 100, cut_last=cut_last).items()) == list(expected.items())
    assert cap(lines, None, cut_last=cut_last) == lines


def test_a_folded_box_bonus_is_capped_too() -> None:
    rules = CaribbeanRules(limits=replace(CaribbeanRules().limits, max_payout=1_000))
    round_ = start("Ah Kh Qh Jh Th", "Ac Kc 4d 3c 2d", ante=10, bonus=10, rules=rules)
    round_.act("ann", "fold")
    assert net(round_) == -10 + 1_000


def test_affordability_limits_the_exchange() -> None:
    round_ = CaribbeanRound.new()
    round_.place_bets("ann", 1, 10, balance=50)   # 40 left: BET 20 leaves room for two cards
    round_.deal(Deck.stacked("Qs Qd 8c 5d 3s Jh Jc Ac 5c 3d"))
    option = round_.legal_actions().get("exchange")
    assert option is not None and option.max_cards == 2
    assert not round_.can_act("ann", "exchange", ["8c", "5d", "3s"])


def test_a_fold_is_settled_at_once_and_told_to_the_table_at_the_end() -> None:
    """A folded box's bonus names its dealt hand: the fold moves the chips at once, but the box's result is final
    (public) only when the round ends, while the other boxes decide without knowing it."""
    round_ = CaribbeanRound.new()
    round_.place_bets("ann", 1, 10, side=10, balance=1000)
    round_.place_bets("bob", 1, 10, balance=1000)
    round_.deal(Deck.stacked("9h 8d 7c 6s 5h  Kd Kc 2s 3d 4h  2d 2h Ks 6d 8c"))
    folded = [e for e in round_.act("ann", "fold") if isinstance(e, StakesSettled)]
    assert [(e.results, e.final) for e in folded] == [({"ante": -10, "bonus": 50}, False)]
    assert round_.to_act == ("bob", 1) and round_.wallets["ann"] == 1000 + 40
    (final,) = [e for e in round_.act("bob", "play") if isinstance(e, StakesSettled) and e.player == "ann"]
    assert (final.final, final.outcome, final.results, final.earlier, final.moves) == (
        True, "folded", {}, {"ante": -10, "bonus": 50}, ())
    assert [payout.hand for payout in final.earlier_payouts] == ["straight"]


def test_the_final_settlement_names_every_fee_by_what_it_bought() -> None:
    """The fees are never returned, and the box's final settlement names them (two cards exchanged for 20, one
    again for 20), so its lines and its fees add up to the box's net; a round saved before fees were kept by what
    they bought names their sum."""
    rules = CaribbeanRules(re_exchange_limit=1)
    round_ = start("Qs Qd 8c 5d 3s", "Jh Jc Ac 5c 3d", rest="2c 9h 4h", rules=rules)
    round_.act("ann", "exchange", ["8c", "5d"])
    saved = round_.to_dict()
    round_.act("ann", "re_exchange", ["2c"])
    events = round_.act("ann", "fold")
    settled = [event for event in events if isinstance(event, StakesSettled) and event.final]
    assert [event.fees for event in settled] == [{"exchange": 20, "re_exchange": 20}]
    assert sum(settled[0].earlier.values()) - sum(settled[0].fees.values()) == net(round_) == -50
    for box in saved["boxes"]:
        del box["paid_for"]
    ended = CaribbeanRound.from_dict(saved).act("ann", "fold")
    assert [event.fees for event in ended if isinstance(event, StakesSettled) and event.final] == [{"fee": 20}]


def test_a_played_box_keeps_its_bonus_result_and_a_box_saved_without_it_reads_back() -> None:
    """A box that played keeps the lines settled at its end, its bonus's with them (the table shows it), through a
    save; a box saved before they were kept reads back with none."""
    round_ = CaribbeanRound.new()
    round_.place_bets("ann", 1, 10, side=10, balance=1000)
    round_.deal(Deck.stacked("9h 8d 7c 6s 5h  As Kd 8c 4s 3d"))
    round_.act("ann", "play")
    (box,) = round_.boxes
    assert box.settled_lines == {"ante": 10, "bet": 80, "bonus": 50}
    saved = round_.to_dict()
    assert CaribbeanRound.from_dict(saved).boxes[0].settled_lines == {"ante": 10, "bet": 80, "bonus": 50}
    del saved["boxes"][0]["settled_lines"]
    assert CaribbeanRound.from_dict(saved).boxes[0].settled_lines == {}
