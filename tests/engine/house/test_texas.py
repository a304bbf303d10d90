"""Texas Poker golden rounds: early BET on exactly five cards, buy and exchange, the half payout and its cap."""

import pytest

from engine.cards import Deck, parse_cards
from engine.house.boxes import Phase
from engine.house.events import BoxCardsDealt, CommunityCardsShown, StakesSettled
from engine.house.texas import TexasRound

# deal order: each box's two cards, the dealer's two, then the community cards in the order they open


def start(deck: str, *, ante: int = 10) -> TexasRound:
    round_ = TexasRound.new()
    round_.place_bets("ann", 1, ante, balance=100_000)
    round_.deal(Deck.stacked(deck))
    return round_


def net(round_: TexasRound) -> int:
    return round_.result().players["ann"]


def test_early_bet_plays_exactly_two_cards_and_the_three_open_ones() -> None:
    round_ = start("Ah Ad  Ks Qd  Kc 7d 2s Ac 3h")
    round_.act("ann", "bet")
    assert net(round_) == 10 + 20          # pair of aces over kings, not three aces


def test_buying_the_fourth_card_plays_the_best_five_of_seven() -> None:
    round_ = start("Ah Ad  Ks Qd  Kc 7d 2s Ac 3h")
    round_.act("ann", "buy")
    assert round_.phase is Phase.SECOND_DECISION
    assert round_.legal_actions().names == ("bet", "fold", "exchange")
    round_.act("ann", "bet")
    assert net(round_) == -10 + 10 + 2 * 20


def test_exchange_after_buying_then_bet() -> None:
    round_ = start("2h 3d  Ks Qd  Kc 7d 9s Ac Jh  Ah Ad")
    round_.act("ann", "buy")
    round_.act("ann", "exchange", ["2h", "3d"])
    assert round_.legal_actions().names == ("bet", "fold")
    round_.act("ann", "bet")
    assert net(round_) == -20 + 10 + 2 * 20


@pytest.mark.parametrize(("dealer", "expected"), [
    ("Qh Kh", (10 + 20 * 50) // 2),   # dealer's straight flush is higher: half, ANTE and BET not lost
    ("5s 3c", (10 + 20 * 50) // 2),   # dealer does not qualify
    ("As Ad", 10 + 20 * 50),          # a lower qualifying dealer: full payout
])
def test_straight_flush_half_payout(dealer: str, expected: int) -> None:
    round_ = start(f"8h 7h  {dealer}  9h Th Jh 2c 4d")
    round_.act("ann", "bet")
    assert net(round_) == expected


@pytest.mark.parametrize("dealer", ["As Ad", "5s 3c"])
def test_maximum_payout_caps_royal_flush(dealer: str) -> None:
    round_ = start(f"Ah Kh  {dealer}  Qh Jh Th 2c 4d", ante=100)
    round_.act("ann", "bet")
    assert net(round_) == 10_000


def test_fold_loses_ante_and_unqualified_dealer_pays_ante_only() -> None:
    folded = start("2h 3d  Ks Qd  Kc 7d 9s Ac Jh")
    folded.act("ann", "fold")
    assert folded.is_over and net(folded) == -10
    unqualified = start("2h 3d  5s Qd  Kc 7d 9s Ac Jh")
    unqualified.act("ann", "bet")
    assert net(unqualified) == 10


def test_identical_five_cards_stand_off() -> None:
    round_ = start("2h 3d  2s 3c  Ac Ad Kh Ks Qd")
    round_.act("ann", "buy")
    round_.act("ann", "bet")
    assert net(round_) == -10


def test_players_share_the_community_and_only_buyers_decide_again() -> None:
    round_ = TexasRound.new()
    round_.place_bets("ann", 1, 10, balance=1000)
    round_.place_bets("bob", 1, 5, balance=1000)
    events = round_.deal(Deck.stacked("Ah Ad  2c 3c  Ks Qd  Kc 7d 9s Ac Jh"))
    dealt = [(e.player, e.visible_to) for e in events if isinstance(e, BoxCardsDealt)]
    assert dealt == [("ann", "ann"), ("bob", "bob")]
    assert round_.to_act == ("ann", 1)
    round_.act("ann", "bet")
    events = round_.act("bob", "buy")
    assert [e.cards for e in events if isinstance(e, CommunityCardsShown)] == [(round_.community[3],)]
    assert round_.to_act == ("bob", 1)
    round_.act("bob", "fold")
    assert round_.is_over
    assert round_.result().players == {"ann": 30, "bob": -10}


def test_community_cards_face_up_follow_the_phase_and_old_snapshots_still_load() -> None:
    round_ = TexasRound.new()
    assert (round_.open_count, round_.community_shown(), round_.dealer_shown()) == (0, [], [])
    round_.place_bets("ann", 1, 10, balance=100_000)
    round_.deal(Deck.stacked("Ah Ad  Ks Qd  Kc 7d 2s Ac 3h"))
    assert round_.community_shown() == parse_cards("Kc 7d 2s") and round_.dealer_shown() == [None, None]
    saved = round_.to_dict()
    assert "open_count" not in saved["extra"]
    old = TexasRound.from_dict({**saved, "extra": {**saved["extra"], "open_count": 3}})  # written before it derived
    assert old.community_shown() == parse_cards("Kc 7d 2s")
    round_.act("ann", "buy")
    assert round_.community_shown() == parse_cards("Kc 7d 2s Ac")
    round_.act("ann", "bet")
    assert round_.community_shown() == parse_cards("Kc 7d 2s Ac 3h")
    assert round_.dealer_shown() == parse_cards("Ks Qd")


def test_a_capped_payout_and_a_half_payout_say_what_they_are() -> None:
    """The event of a box the maximum payout cut names the maximum; a half payout names the whole it halves."""
    capped = start("Ah Kh  Kc Kd  Qh Jh Th 2c 3d", ante=100)
    (settled,) = [e for e in capped.act("ann", "bet") if isinstance(e, StakesSettled)]
    assert (settled.results, settled.max_payout) == ({"ante": 100, "bet": 9_900}, 10_000)
    half = start("9h 8h  Ac Jd  7h 6h 5h 2c 3d")
    (settled,) = [e for e in half.act("ann", "bet") if isinstance(e, StakesSettled)]
    assert (settled.results["half_payout"], settled.max_payout) == (505, None)
    assert [(payout.line, payout.multiple, payout.half_of) for payout in settled.payouts] == [("half_payout", 50, 1010)]
