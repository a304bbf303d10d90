"""Playing cards, their text forms, and a deck shuffled from an injected random source."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

RANK_CHARS = "23456789TJQKA"
"""Rank letters from two (value 2) to ace (value 14)."""


class Suit(StrEnum):
    """The four suits, by their letter in the card text form."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit as a display symbol (♣ ♦ ♥ ♠)."""
        return _SYMBOLS[self]


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class CardError(ValueError):
    """Card text that cannot be read: the message quotes the bad token."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card: rank 2..14 (ace is 14) and suit; ordered by rank, then suit letter."""

    rank: int
    suit: Suit
    text: str = field(init=False, repr=False, compare=False)
    """The card as text, `As` (`str(card)`): kept, since every snapshot writes a whole deck as text."""

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise CardError(f"rank {self.rank!r} is not 2..14")
        object.__setattr__(self, "text", RANK_CHARS[self.rank - 2] + str.__str__(self.suit))

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read `As`, `td`, `10h`; raise CardError quoting the token otherwise."""
        known = _BY_TEXT.get(token)
        if known is not None:  # the canonical text form: saved states are full of it
            return known
        text = token.strip()
        if len(text) == 3 and text[:2] == "10":
            text = "T" + text[2]
        if len(text) != 2:
            raise CardError(f"{token!r} is not a card (write rank and suit, like As or Td)")
        rank_char, suit_char = text[0].upper(), text[1].lower()
        if rank_char not in RANK_CHARS:
            raise CardError(f"{token!r} has an unknown rank {text[0]!r}")
        try:
            suit = Suit(suit_char)
        except ValueError:
            raise CardError(f"{token!r} has an unknown suit {text[1]!r}") from None
        return cls(RANK_CHARS.index(rank_char) + 2, suit)

    @property
    def rank_char(self) -> str:
        """The rank as one character (`A`, `T`, `2`)."""
        return RANK_CHARS[self.rank - 2]

    @property
    def index(self) -> int:
        """A dense number 0..51 (rank-major), handy for tables and bitmasks."""
        return (self.rank - 2) * 4 + "cdhs".index(self.suit)

    @property
    def display(self) -> str:
        """The card with its suit symbol, like `A♠`."""
        return self.rank_char + self.suit.symbol

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:  # as equality (rank and suit), without the generated tuple and the enum's hash
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in Suit)
"""The 52 cards in a fixed order (by rank, then suit)."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards from `"As Kd 7c"` (spaces or commas) or a list of tokens; duplicates are an error."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    for token in tokens:
        card = Card.parse(token)
        if card in cards:
            raise CardError(f"{token!r} appears twice")
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card], *, symbols: bool = True) -> str:
    """Cards as display text, `A♠ T♦` (or `As Td` with symbols=False)."""
    return " ".join(card.display if symbols else str(card) for card in cards)


class DeckError(ValueError):
    """Dealing more cards than the deck holds."""


class Deck:
    """A 52-card deck, shuffled once from the given random source, dealt from the top.

    `Deck(rng)` shuffles; `stacked` and `from_list` give the order instead (and pass no random source).
    """

    def __init__(self, rng: random.Random | None, *, _order: list[Card] | None = None) -> None:
        if _order is None:
            if rng is None:
                raise TypeError("a deck needs a random source to shuffle, or its order")
            _order = list(ALL_CARDS)
            rng.shuffle(_order)
        self._cards = _order

    @classmethod
    def stacked(cls, top: str | Iterable[Card], rng: random.Random | None = None) -> Deck:
        """A deck that deals the given cards first, then the rest (shuffled by `rng`, else in fixed order)."""
        first = parse_cards(top) if isinstance(top, str) else list(top)
        if len(set(first)) != len(first):
            raise CardError("a stacked deck cannot hold the same card twice")
        rest = [card for card in ALL_CARDS if card not in set(first)]
        if rng is not None:
            rng.shuffle(rest)
        return cls(None, _order=first + rest)

    @classmethod
    def from_list(cls, cards: Iterable[str]) -> Deck:
        """Rebuild a deck from its remaining cards' text (see `to_list`)."""
        return cls(None, _order=[Card.parse(token) for token in cards])

    def to_list(self) -> list[str]:
        """The remaining cards, top first, as text (for saving a table)."""
        return [card.text for card in self._cards]

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return len(self._cards)

    def deal(self, count: int = 1) -> list[Card]:
        """Take `count` cards from the top."""
        if count < 0 or count > len(self._cards):
            raise DeckError(f"cannot deal {count} cards: {len(self._cards)} left")
        dealt = self._cards[:count]
        del self._cards[:count]  # in place: the deck's list is its own
        return dealt

    def deal_one(self) -> Card:
        """Take the top card."""
        return self.deal(1)[0]
