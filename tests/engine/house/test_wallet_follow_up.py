"""An ANTE the wallet could not follow is refused (RULES.md, "Chips, balances and limits"), in every house game, and a
decision the wallet still limits is reported with its cost (`shortfalls`)."""

import pytest

from engine.cards import Deck
from engine.common import IllegalAmount
from engine.house.caribbean import CaribbeanRound
from engine.house.common import ActionOption
from engine.house.russian import RussianRound
from engine.house.texas import TexasRound
from engine.house.three_card import ThreeCardRound


def refused(round_, box: int, ante: int, *, side: int = 0, balance: int | None = None) -> IllegalAmount:
    with pytest.raises(IllegalAmount) as error:
        round_.place_bets("ann", box, ante, side=side, balance=balance)
    return error.value


def test_russian_antes_leave_room_for_every_boxs_bet_and_the_blind_box() -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 100, balance=590)  # 100 + its BET 200 later
    error = refused(round_, 2, 100)  # the wallet: 100 now, then BET 200 here and BET 200 on box 1
    assert error.code == "follow_up_over_balance"
    assert error.params == {"amount": 500, "balance": 490, "box": 2}
    assert round_.wallets["ann"] == 490 and len(round_.boxes) == 1
    round_.place_bets("ann", 2, 95)
    error = refused(round_, 3, 10)  # blind: ANTE 10 + BET 20 now, and boxes 1 and 2 still owe 200 + 190
    assert error.params == {"amount": 420, "balance": 395, "box": 3}
    round_.place_bets("ann", 3, 1)  # 3 now, 390 to follow: 393 of 395
    round_.deal(Deck.stacked(" ".join(["2s 3d 7h 9c Jh", "2c 3c 7d 9d Jd", "4s 4d 4h Ks Kd", "As Ad 9s 5s 3s"])))
    for _ in range(2):  # every box can still play
        assert "play" in round_.legal_actions().names
        round_.act("ann", "play")


def test_russian_a_box_left_short_by_a_draw_says_what_its_bet_needs() -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=65)
    round_.place_bets("ann", 2, 10)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  As Ad 9s 5s 3s"))
    assert round_.shortfalls() == ()
    round_.act("ann", "exchange", ["2s", "3d"])  # 10 for the exchange
    round_.act("ann", "play")  # 20 for box 1's BET: 15 left
    assert round_.legal_actions().names == ("fold",)
    assert round_.shortfalls() == (ActionOption("play", 20),)


def test_texas_ante_needs_room_for_its_bet() -> None:
    round_ = TexasRound.new()
    error = refused(round_, 1, 10, balance=29)
    assert error.code == "follow_up_over_balance" and error.params == {"amount": 30, "balance": 29, "box": 1}
    round_.place_bets("ann", 1, 10, balance=30)
    round_.deal(Deck.stacked("2s 3d  As Ad  7h 9c Jh Kd 4c"))
    assert round_.legal_actions().names == ("bet", "fold") and round_.shortfalls() == ()


def test_caribbean_ante_and_bonus_need_room_for_the_bets_to_follow() -> None:
    round_ = CaribbeanRound.new()
    error = refused(round_, 1, 10, side=10, balance=35)  # ANTE 10 + bonus 10 + BET 20 = 40
    assert error.code == "follow_up_over_balance" and error.params["amount"] == 40
    round_.place_bets("ann", 1, 10, balance=60)
    assert refused(round_, 2, 11).params == {"amount": 53, "balance": 50, "box": 2}  # 11 + 22, and box 1's 20
    round_.place_bets("ann", 2, 5)  # 5 + 10 + 20 = 35 of 50
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  As Ad 9s 5s 3s  Qs Qd"))
    round_.act("ann", "exchange", ["2s", "3d"])  # 20: the exchange keeps box 1's BET, not box 2's
    round_.act("ann", "play")
    assert round_.legal_actions().names == ("fold",)
    assert round_.shortfalls() == (ActionOption("play", 10),)


def test_three_card_ante_needs_room_for_its_play() -> None:
    round_ = ThreeCardRound.new()
    error = refused(round_, 1, 10, side=5, balance=24)  # ANTE 10 + PAIRPLUS 5 + PLAY 10 = 25
    assert error.code == "follow_up_over_balance" and error.params == {"amount": 25, "balance": 24, "box": 1}
    round_.place_bets("ann", 1, 0, side=5, balance=5)  # PAIRPLUS alone has nothing to follow
    other = ThreeCardRound.new()
    other.place_bets("ann", 1, 10, balance=50)
    assert refused(other, 2, 16).params == {"amount": 42, "balance": 40, "box": 2}  # 16 + its PLAY 16 + box 1's 10
    other.place_bets("ann", 2, 10)
    other.deal(Deck.stacked("2s 3d 7h  2c 3c 7d  As Ad 9s"))
    for _ in range(2):
        assert other.legal_actions().names == ("play", "fold")
        other.act("ann", "play")
