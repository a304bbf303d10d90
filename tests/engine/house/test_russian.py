"""Russian Poker golden rounds on stacked decks: the RULES.md §3 examples and every rule."""

import pytest

from engine.cards import Deck, parse_cards
from engine.common import RuleError, all_moves
from engine.house.boxes import Phase
from engine.house.events import BoxCardsDealt, StakesSettled
from engine.house.russian import RussianRound, RussianRules


def one_box(cards: str, dealer: str, *, ante: int = 10, balance: int = 1000, rest: str = "") -> RussianRound:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, ante, balance=balance)
    round_.deal(Deck.stacked(f"{cards} {dealer} {rest}"))
    return round_


def net(round_: RussianRound, player: str = "ann") -> int:
    return round_.result().players[player]


def test_full_house_with_ante_10_wins_140() -> None:
    round_ = one_box("Ks Kd Kh 7c 7d", "As Kc 9d 5h 3s")
    round_.act("ann", "play")
    assert round_.is_over and net(round_) == 140
    assert round_.wallets["ann"] == 1140


@pytest.mark.parametrize(("cards", "draw", "multiple"), [
    ("As Ad Ah Ac 7c", "7d", 27),   # four of a kind + full house
    ("As Kd Qh Jc Td", "9s", 8),    # two straights
    ("As Ks Qs Js Ts", "9s", 150),  # royal + straight flush
])
def test_second_combination_after_buying_a_sixth_card(cards: str, draw: str, multiple: int) -> None:
    round_ = one_box(cards, "2s 2d 5h 6c 8h", rest=draw)
    round_.act("ann", "buy")
    assert round_.legal_actions().names == ("play", "fold")
    round_.act("ann", "play")
    assert net(round_) == 20 * multiple - 10


@pytest.mark.parametrize(("cards", "draw", "counted"), [
    ("As Ad Ah Ac 7c", "3d", "As Ad Ah Ac 7c"),     # four of a kind, seven kicker: the three counts for nothing
    ("2h 4h 6h 8h Jh", "Tc", "2h 4h 6h 8h Jh"),     # a flush, the ten outside it
    ("As Ad Ah Ac 7c", "7d", "As Ad Ah Ac 7c 7d"),  # four of a kind + a full house paid with the second seven
])
def test_a_box_that_bought_a_sixth_card_names_the_cards_that_count(cards: str, draw: str, counted: str) -> None:
    """Best five of six count (RULES.md §3): the result names those five, and a sixth card only when a second
    combination it makes was paid."""
    round_ = one_box(cards, "2s 2d 5c 6c 9d", rest=draw)
    round_.act("ann", "buy")
    (settled,) = [e for e in round_.act("ann", "play") if isinstance(e, StakesSettled)]
    assert (settled.outcome, settled.cards) == ("won", tuple(parse_cards(counted)))


@pytest.mark.parametrize(("cards", "dealer", "multiple"), [
    ("As Ad Ah Ac 9c", "3s 3d 5h 6c 8h", 20),  # four of a kind only: the trips inside it are no second combination
    ("As Ad Kh 8c 9c", "3s 3d 5h 6c 8h", 2),   # pair + ace-king
    ("2s 2c Ah Kc 9c", "As Kd 5h 6c 8h", 2),   # pair of twos + ace-king beats the dealer's ace-king
])
def test_five_card_second_combination(cards: str, dealer: str, multiple: int) -> None:
    round_ = one_box(cards, dealer)
    round_.act("ann", "play")
    assert net(round_) == 20 * multiple


def test_dealer_higher_takes_everything_and_equal_pushes() -> None:
    lost = one_box("Qs Qd 5h 6c 8h", "As Ad 9d 5c 3s")
    lost.act("ann", "play")
    assert net(lost) == -30
    tie = one_box("Qs Qd 5h 6c 8h", "Qh Qc 5d 6d 8c")
    tie.act("ann", "play")
    assert net(tie) == 0


def test_dealer_without_game_pays_ante_whatever_the_hand() -> None:
    round_ = one_box("2s 3d 7h 9c Jh", "Qs Jd 9d 5c 3s")
    round_.act("ann", "play")
    assert round_.phase is Phase.DEALER_GAME
    assert round_.legal_actions().names == ("dealer_game", "decline")
    round_.act("ann", "decline")
    assert net(round_) == 10


def test_one_dealer_card_is_face_up_until_all_five_are_shown_for_the_dealer_game() -> None:
    assert RussianRound.new().dealer_shown() == []
    round_ = one_box("2s 3d 7h 9c Jh", "Qs Jd 9d 5c 3s", rest="Kd")
    assert round_.dealer_shown() == [None, None, None, None, parse_cards("3s")[0]]
    assert round_.community_shown() == []
    round_.act("ann", "play")
    assert round_.phase is Phase.DEALER_GAME
    assert round_.dealer_shown() == parse_cards("Qs Jd 9d 5c 3s")
    round_.act("ann", "dealer_game")
    assert round_.is_over and round_.dealer_shown() == round_.dealer


def test_bought_dealer_game_that_still_does_not_qualify_returns_the_bets() -> None:
    round_ = one_box("Ks Kd 7h 9c Jh", "Qs Jd 9d 5c 3s", rest="4h")
    round_.act("ann", "play")
    events = round_.act("ann", "dealer_game")
    assert round_.dealer == parse_cards("Jd 9d 5c 3s 4h")  # the queen, his highest card, went
    assert net(round_) == -10  # only the fee
    assert [e.outcome for e in events if isinstance(e, StakesSettled)] == ["dealer_still_no_game"]


def test_bought_dealer_game_that_qualifies_is_settled_normally() -> None:
    round_ = one_box("Ks Kd 7h 9c Jh", "Qs Jd 9d 5c 3s", rest="Ah")  # dealer: A-K? no: A J 9 5 3 -> still no game
    round_.act("ann", "play")
    round_.act("ann", "dealer_game")
    assert net(round_) == -10
    round_ = one_box("Ks Kd 7h 9c Jh", "Qs Jd 9d 5c 3s", rest="5h")  # dealer pairs fives; player's kings win 1:1
    round_.act("ann", "play")
    round_.act("ann", "dealer_game")
    assert net(round_) == 20 - 10


def test_one_dealer_draw_serves_every_box_that_bought() -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=1000)
    round_.place_bets("ann", 2, 10)
    round_.deal(Deck.stacked("Ks Kd 7h 9c Jh  As Ad 7c 8c 2h  Qs Jd 9d 5c 3s  5h"))
    round_.act("ann", "play")
    round_.act("ann", "play")
    round_.act("ann", "dealer_game")
    round_.act("ann", "decline")
    assert round_.result().boxes == {("ann", 1): 20 - 10, ("ann", 2): 10}


def test_third_box_is_blind() -> None:
    round_ = RussianRound.new()
    events = round_.place_bets("ann", 1, 10, balance=1000) + round_.place_bets("ann", 2, 5)
    events += round_.place_bets("ann", 3, 7)
    assert sum(move.amount for move in all_moves(events)) == 10 + 5 + 21
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  Ks Kd 4h 5c 6c  As Ad 9s 5s 3s"))
    round_.act("ann", "fold")
    round_.act("ann", "fold")
    assert round_.is_over
    assert round_.result().boxes[("ann", 3)] == 14 * 0 - 21  # kings lose to aces


def test_boxes_are_shown_when_their_turn_comes() -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=1000)
    round_.place_bets("ann", 2, 10)
    events = round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  As Ad 9s 5s 3s"))
    shown = [e for e in events if isinstance(e, BoxCardsDealt)]
    assert [(e.box, e.visible_to) for e in shown] == [(1, "ann")]
    later = round_.act("ann", "fold")
    assert [e.box for e in later if isinstance(e, BoxCardsDealt)] == [2]


def test_each_players_first_box_is_shown_with_the_deal_and_agrees_with_what_he_sees() -> None:
    """RULES.md §3 (each box's cards shown only when its turn comes): a player's first box's turn comes with the
    deal, his later boxes' when the box before is decided; the private message (`BoxCardsDealt`) and `owner_sees`
    (his "my cards") say the same at every step."""
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=1000)
    round_.place_bets("ann", 2, 10)
    round_.place_bets("bob", 1, 10, balance=1000)
    round_.place_bets("bob", 2, 10)
    events = round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  Ks Kd 4h 5c 6c  8s 8d 4c 5d 6d  As Ad 9s 5s 3s"))
    told = {(e.player, e.box) for e in events if isinstance(e, BoxCardsDealt)}
    assert told == {("ann", 1), ("bob", 1)}
    assert {(box.owner, box.index) for box in round_.boxes if round_.owner_sees(box)} == told
    later = round_.act("ann", "fold")
    told |= {(e.player, e.box) for e in later if isinstance(e, BoxCardsDealt)}
    assert told == {("ann", 1), ("bob", 1), ("ann", 2)}
    assert {(box.owner, box.index) for box in round_.boxes if round_.owner_sees(box)} == told
    later = round_.act("ann", "fold")
    assert not [e for e in later if isinstance(e, BoxCardsDealt)], "Bob's box 1 was told with the deal"
    later = round_.act("bob", "fold")
    assert [(e.player, e.box) for e in later if isinstance(e, BoxCardsDealt)] == [("bob", 2)]


def test_draw_refused_when_the_bet_would_be_unaffordable() -> None:
    round_ = one_box("2s 3d 7h 9c Jh", "As Ad 9s 5s 3s", balance=35)
    assert round_.legal_actions().names == ("play", "fold")
    with pytest.raises(RuleError) as error:
        round_.act("ann", "buy")
    assert error.value.code == "short_of_chips"  # with what it needs, not "not possible now"


def test_after_a_draw_on_box_1_an_unaffordable_box_2_may_only_fold() -> None:
    round_ = RussianRound.new()
    round_.place_bets("ann", 1, 10, balance=65)
    round_.place_bets("ann", 2, 10)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  2c 3c 7d 9d Jd  As Ad 9s 5s 3s"))
    round_.act("ann", "exchange", ["2s", "3d"])
    round_.act("ann", "play")
    assert round_.legal_actions().names == ("fold",)


def test_exchange_replaces_the_chosen_cards_once() -> None:
    round_ = one_box("2s 3d 7h 9c Jh", "As Ad 9s 5s 3s", rest="Jd Jc")
    round_.act("ann", "exchange", ["2s", "3d"])
    assert set(round_.boxes[0].cards) == set(parse_cards("7h 9c Jh Jd Jc"))
    assert not round_.can_act("ann", "exchange", ["7h"])


@pytest.mark.parametrize("token", ["zz", "1x", "10", ""])
def test_exchanging_something_that_is_not_a_card_is_a_rule_error(token: str) -> None:
    round_ = one_box("2s 3d 7h 9c Jh", "As Ad 9s 5s 3s", rest="Jd Jc")
    before = round_.to_dict()
    with pytest.raises(RuleError) as error:
        round_.act("ann", "exchange", ["2s", token])
    assert error.value.code == "bad_card" and error.value.params == {"card": token}
    assert not round_.can_act("ann", "exchange", [token])
    assert round_.to_dict() == before


def test_a_card_that_is_not_one_is_quoted_inert_for_the_player_and_as_typed_in_the_log() -> None:
    round_ = one_box("2s 3d 7h 9c Jh", "As Ad 9s 5s 3s", rest="Jd Jc")
    with pytest.raises(RuleError) as error:
        round_.act("ann", "exchange", ["2s", "/fold"])
    assert (error.value.params, str(error.value)) == (
        {"card": "/\u2060fold"}, "'/fold' is not a card (write rank and suit, like As or Td)")


def test_paytable_and_options_are_data() -> None:
    rules = RussianRules(second_combination=False, paytable={**RussianRules().paytable, "full_house": 10})
    round_ = RussianRound.new(rules)
    round_.place_bets("ann", 1, 10, balance=1000)
    round_.deal(Deck.stacked("Ks Kd Kh 7c 7d As Kc 9d 5h 3s"))
    round_.act("ann", "play")
    assert net(round_) == 200
