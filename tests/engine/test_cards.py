"""Cards: parsing, display, ordering, and the deck."""

import random

import pytest

from engine.cards import ALL_CARDS, Card, CardError, Deck, DeckError, Suit, format_cards, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("As", 14, Suit.SPADES), ("td", 10, Suit.DIAMONDS), ("10h", 10, Suit.HEARTS), ("2C", 2, Suit.CLUBS)],
)
def test_parse_accepts_the_usual_forms(text: str, rank: int, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("bad", ["Ax", "1s", "A", "Asd", "", "Zz", "11s"])
def test_parse_rejects_bad_tokens_and_quotes_them(bad: str) -> None:
    with pytest.raises(CardError) as error:
        Card.parse(bad)
    assert repr(bad) in str(error.value)
    assert isinstance(error.value, ValueError)


def test_parse_cards_reads_a_list_and_refuses_duplicates() -> None:
    assert [str(card) for card in parse_cards("As Kd, 7c")] == ["As", "Kd", "7c"]
    with pytest.raises(CardError, match="'as' appears twice"):
        parse_cards("As Kd as")


def test_text_and_display_forms() -> None:
    cards = parse_cards("As Td 2c 9h")
    assert [str(card) for card in cards] == ["As", "Td", "2c", "9h"]
    assert format_cards(cards) == "A♠ T♦ 2♣ 9♥"
    assert format_cards(cards, symbols=False) == "As Td 2c 9h"


def test_a_card_keeps_its_text_and_hashes_as_it_compares() -> None:
    """The text is worked out once, when the card is made (decks are written as text at every snapshot); it takes
    no part in comparing, ordering or the card's repr."""
    built = Card(10, Suit.DIAMONDS)
    assert built.text == str(built) == "Td" and repr(built) == "Card('Td')"
    assert [card.text for card in ALL_CARDS] == [card.rank_char + card.suit.value for card in ALL_CARDS]
    assert built == Card.parse("10d") and hash(built) == hash(Card.parse("td"))
    assert {built: 1}[Card(10, Suit("d"))] == 1  # a card made again is found by its hash
    assert Deck.from_list(["Td", "As"]).to_list() == ["Td", "As"]


def test_cards_order_by_rank_and_hash() -> None:
    assert Card.parse("2s") < Card.parse("3c") < Card.parse("As")
    assert len({Card.parse("As"), Card.parse("as"), Card.parse("Ks")}) == 2
    assert sorted(ALL_CARDS, key=lambda card: card.index) == list(ALL_CARDS)
    assert len(set(ALL_CARDS)) == 52


def test_deck_shuffles_from_the_injected_source() -> None:
    first = Deck(random.Random(7)).deal(52)
    again = Deck(random.Random(7)).deal(52)
    other = Deck(random.Random(8)).deal(52)
    assert first == again
    assert first != other
    assert sorted(first) == sorted(ALL_CARDS)


def test_stacked_deck_deals_given_cards_first_and_errors_past_the_end() -> None:
    deck = Deck.stacked("As Ks Qs")
    assert deck.remaining == 52
    assert [str(card) for card in deck.deal(3)] == ["As", "Ks", "Qs"]
    rest = deck.deal(49)
    assert len(set(rest)) == 49 and Card.parse("As") not in rest
    assert deck.remaining == 0
    with pytest.raises(DeckError):
        deck.deal_one()


def test_deck_round_trips_through_its_text_list() -> None:
    deck = Deck(random.Random(1))
    deck.deal(5)
    restored = Deck.from_list(deck.to_list())
    assert restored.deal(47) == deck.deal(47)


def test_a_deck_needs_a_random_source_or_an_order() -> None:
    with pytest.raises(TypeError, match="random source"):
        Deck(None)
    # a given order draws nothing random: the rest follows in the fixed order, by rank, then suit (c, d, h, s)
    deck = Deck.stacked("As")
    assert [str(card) for card in deck.deal(6)] == ["As", "2c", "2d", "2h", "2s", "3c"]
    assert [str(card) for card in deck.deal(46)][-4:] == ["Ks", "Ac", "Ad", "Ah"]
    assert Deck.from_list(["Kd", "2c"]).deal(2) == [Card.parse("Kd"), Card.parse("2c")]
