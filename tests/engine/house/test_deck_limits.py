"""One deck per round: a table takes no more boxes than the deck can deal, and draws shrink to the cards left.

Regressions for the bug hunt (`HOUSE_EXAMPLES`, many players): seven players on three boxes each made `deal` raise
DeckError in Russian, Caribbean and Three Card Poker, and late exchanges could empty the deck before the dealer's draw.
"""

import random

import pytest

from engine.cards import ALL_CARDS, Deck, parse_cards
from engine.common import RuleError, all_moves
from engine.house import GAMES
from engine.house.boxes import Limits
from engine.house.caribbean import CaribbeanRound, CaribbeanRules
from engine.house.russian import RussianRound, RussianRules
from engine.house.texas import TexasRound


def fill(round_, boxes: int) -> None:  # type: ignore[no-untyped-def]
    """Bets of 1 on `boxes` boxes, as many per player as the table allows."""
    per_player = round_.limits.max_boxes
    for number in range(boxes):
        player, box = f"p{number // per_player}", number % per_player + 1
        round_.place_bets(player, box, round_.limits.min_ante, side=0, balance=1000 if box == 1 else None)


@pytest.mark.parametrize(("game", "capacity"), [("russian", 9), ("caribbean", 9), ("three-card", 16), ("texas", 22)])
def test_the_table_takes_no_more_boxes_than_one_deck_deals(game: str, capacity: int) -> None:
    round_ = GAMES[game].new()  # type: ignore[attr-defined]
    fill(round_, capacity)
    assert round_.deck_capacity == capacity
    with pytest.raises(RuleError) as error:
        round_.place_bets("zed", 1, round_.limits.min_ante, balance=1000)
    assert error.value.code == "table_full"
    round_.deal(Deck(random.Random(7)))
    assert round_.spare_cards() >= 0


def test_russian_draws_shrink_to_the_deck_and_keep_the_dealers_card() -> None:
    # Nine boxes take 45 cards, the dealer 5: two are left, one kept for buying the dealer a game.
    dealer = parse_cards("2c 3d 5h 8s 9c")                     # no game: the dealer-game phase follows
    others = [card for card in ALL_CARDS if card not in dealer]
    round_ = RussianRound.new(RussianRules(blind_box=None))
    fill(round_, 9)
    round_.deal(Deck.stacked(others[:45] + dealer + others[45:]))
    assert round_.spare_cards() == 1
    first = round_.legal_actions()
    assert first.get("exchange") is not None and first.get("exchange").max_cards == 1  # type: ignore[union-attr]
    events = round_.act("p0", "buy")
    events += round_.act("p0", "play")
    assert round_.spare_cards() == 0 and round_.legal_actions().names == ("play", "fold")
    while round_.to_act and round_.phase.value == "deciding":
        player = round_.to_act[0]
        events += round_.act(player, "play")
    assert round_.phase.value == "dealer_game"
    events += round_.act("p0", "dealer_game")
    while not round_.is_over:
        events += round_.act(round_.to_act[0], "decline")  # type: ignore[index]
    assert round_.deck is not None and round_.deck.remaining == 0
    assert all(move.amount > 0 for move in all_moves(events))


def test_texas_exchange_shrinks_to_the_last_card() -> None:
    round_ = TexasRound.new()
    fill(round_, 22)                                            # 44 + 2 + 5 cards: one left
    round_.deal(Deck(random.Random(3)))
    round_.act("p0", "buy")
    for number in range(1, 22):
        round_.act(f"p{number}", "fold")
    assert round_.legal_actions().get("exchange").max_cards == 1  # type: ignore[union-attr]
    round_.act("p0", "exchange", [round_.boxes[0].cards[0]])
    assert round_.legal_actions().names == ("bet", "fold")


def test_a_free_exchange_moves_no_chips() -> None:
    round_ = CaribbeanRound.new(CaribbeanRules(exchange_fee=0))
    round_.place_bets("ann", 1, 10, balance=100)
    round_.deal(Deck.stacked("2s 5d 8h Jc Kd  As Kc 9d 5h 3s"))
    events = round_.act("ann", "exchange", ["2s", "5d"])
    assert not all_moves(events) and round_.wallets["ann"] == 90
    events += round_.act("ann", "fold")
    assert all(move.amount > 0 for move in all_moves(events))


def test_limits_whose_smallest_ante_is_above_the_largest_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        Limits(min_ante=50, max_ante=10)
    assert refused.value.code == "bad_limits" and refused.value.params == {"min": 50, "max": 10}
