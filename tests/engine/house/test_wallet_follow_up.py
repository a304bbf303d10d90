"""An ANTE the wallet could not follow is refused (RULES.md, "Chips, balances and limits"), in every house game, and a
decision the wallet still limits is reported with what it needs (`shortfalls`): a BET over the wallet, and a buy or
exchange whose fee and the BET it must leave room for are over it together."""

import pytest

from engine.cards import Deck
from engine.common import IllegalAmount, RuleError
from engine.house.actions import ActionOption, Shortfall
from engine.house.caribbean import CaribbeanRound, CaribbeanRules
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
    assert (error.code, error.params) == ("blind_follow_up_over_balance", {"amount": 420, "balance": 395, "box": 3})
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
    assert round_.shortfalls() == (Shortfall("play", 20), Shortfall("buy", 30, kept=20),
                                   Shortfall("exchange", 30, kept=20))


@pytest.mark.parametrize(("balance", "names", "shortfalls"), [
    (40, ("play", "fold", "buy", "exchange"), ()),  # 30 left after the ANTE: a draw's 10 and the BET's 20
    (35, ("play", "fold"), (Shortfall("buy", 30, kept=20), Shortfall("exchange", 30, kept=20))),
])
def test_russian_a_draw_the_bet_would_not_leave_room_for_is_reported_with_the_bet(
        balance: int, names: tuple[str, ...], shortfalls: tuple[Shortfall, ...]) -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=balance)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    assert round_.legal_actions().names == names
    assert round_.shortfalls() == shortfalls


def test_texas_ante_needs_room_for_its_bet() -> None:
    round_ = TexasRound.new()
    error = refused(round_, 1, 10, balance=29)
    assert error.code == "follow_up_over_balance" and error.params == {"amount": 30, "balance": 29, "box": 1}
    round_.place_bets("ann", 1, 10, balance=30)
    round_.deal(Deck.stacked("2s 3d  As Ad  7h 9c Jh Kd 4c"))
    assert round_.legal_actions().names == ("bet", "fold")
    assert round_.shortfalls() == (Shortfall("buy", 30, kept=20),)  # 10 for the card and 20 kept for the BET


def test_texas_a_buy_and_then_an_exchange_keep_the_bet() -> None:
    round_ = TexasRound.new()
    round_.place_bets("ann", 1, 10, balance=35)  # 25 left: the buy would leave 15 for a BET of 20
    round_.deal(Deck.stacked("2s 3d  As Ad  7h 9c Jh Kd 4c"))
    assert round_.shortfalls() == (Shortfall("buy", 30, kept=20),)
    other = TexasRound.new()
    other.place_bets("ann", 1, 10, balance=40)
    other.deal(Deck.stacked("2s 3d  As Ad  7h 9c Jh Kd 4c"))
    assert other.legal_actions().names == ("bet", "fold", "buy") and other.shortfalls() == ()
    other.act("ann", "buy")  # 20 left: the BET, but not an exchange with it
    assert other.legal_actions().names == ("bet", "fold")
    assert other.shortfalls() == (Shortfall("exchange", 30, kept=20),)


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
    assert round_.shortfalls() == (Shortfall("play", 10), Shortfall("exchange", 15, kept=10))


@pytest.mark.parametrize(("balance", "most", "shortfalls"), [
    (80, 5, ()),  # 70 after the ANTE: five cards (50) and the BET (20)
    (60, 3, (Shortfall("exchange", 60, kept=20, cards=4),)),  # 50: three cards and the BET; four need 60
    (40, 1, (Shortfall("exchange", 40, kept=20, cards=2),)),
    (35, 0, (Shortfall("exchange", 30, kept=20),)),  # 25: not even one card with the BET
])
def test_caribbean_an_exchange_the_wallet_caps_says_how_many_cards_need_what(
        balance: int, most: int, shortfalls: tuple[Shortfall, ...]) -> None:
    round_ = CaribbeanRound.new()
    round_.place_bets("ann", 1, 10, balance=balance)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    exchange = round_.legal_actions().get("exchange")
    assert (exchange.max_cards if exchange else 0) == most
    assert round_.shortfalls() == shortfalls


def test_caribbean_a_re_exchange_keeps_the_bet() -> None:
    round_ = CaribbeanRound.new(CaribbeanRules(re_exchange_limit=1))
    round_.place_bets("ann", 1, 10, balance=70)  # 60 left
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    round_.act("ann", "exchange", ["2s", "3d"])  # 20: 40 left, the BET 20 and a re-exchange's 20 fit
    assert "re_exchange" in round_.legal_actions().names and round_.shortfalls() == ()
    other = CaribbeanRound.new(CaribbeanRules(re_exchange_limit=1))
    other.place_bets("ann", 1, 10, balance=60)
    other.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    other.act("ann", "exchange", ["2s", "3d"])  # 30 left
    assert other.legal_actions().names == ("play", "fold")
    assert other.shortfalls() == (Shortfall("re_exchange", 40, kept=20),)


def test_a_free_exchange_needs_nothing_from_the_wallet() -> None:
    free = ActionOption("exchange", 0, per_card=True, min_cards=1, max_cards=5, keep=20)
    assert free.within(5) == free
    paid = ActionOption("exchange", 10, per_card=True, min_cards=1, max_cards=5, keep=20)
    assert paid.within(45) == ActionOption("exchange", 10, per_card=True, min_cards=1, max_cards=2, keep=20)
    assert paid.within(29) is None and paid.needs(3) == 50


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


@pytest.mark.parametrize(("game", "balance", "action", "cards", "short"), [
    ("russian", 35, "buy", [], Shortfall("buy", 30, kept=20)),  # 25 after the ANTE: a draw's 10 and the BET's 20
    ("russian", 35, "exchange", ["2s"], Shortfall("exchange", 30, kept=20)),
    ("texas", 35, "buy", [], Shortfall("buy", 30, kept=20)),
    ("caribbean", 60, "exchange", ["2s", "3d", "7h", "9c"], Shortfall("exchange", 60, kept=20, cards=4)),
    ("caribbean", 35, "exchange", ["2s"], Shortfall("exchange", 30, kept=20, cards=1)),
], ids=["russian-buy", "russian-exchange", "texas-buy", "caribbean-4-of-3", "caribbean-none"])
def test_a_decision_the_wallet_cannot_pay_is_refused_with_what_it_needs(
        game: str, balance: int, action: str, cards: list[str], short: Shortfall) -> None:
    """RULES.md: a bet over the wallet is refused with the reason, not as "not possible now" or as a card count the
    action would take with more chips ("you may not choose 4 cards")."""
    round_ = {"russian": RussianRound, "texas": TexasRound, "caribbean": CaribbeanRound}[game].new()
    round_.place_bets("ann", 1, 10, balance=balance)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    before = round_.to_dict()
    with pytest.raises(IllegalAmount) as error:
        round_.act("ann", action, cards)
    assert error.value.code == "short_of_chips"
    assert error.value.params == {"short": short, "balance": balance - 10}
    assert round_.to_dict() == before


def test_a_decision_refused_for_something_else_is_not_blamed_on_the_wallet() -> None:
    round_ = CaribbeanRound.new()
    round_.place_bets("ann", 1, 10, balance=60)  # three cards and the BET
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  As Ad 9s 5s 3s"))
    for action, cards, code in (("exchange", [], "card_count"), ("buy", [], "illegal_action"),
                                ("exchange", ["2s", "3d", "7h", "9c", "Jh", "As"], "card_count")):
        with pytest.raises(RuleError) as error:
            round_.act("ann", action, cards)
        assert error.value.code == code, (action, cards)
    assert round_.shortfall("exchange", 3) is None and round_.shortfall("fold") is None
