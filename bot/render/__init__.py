"""Rendering: engine events and state into the chat's text (one module per game family)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import Signed
from engine.cards import Card, format_cards


def cards_text(cards: Iterable[Card | str]) -> str:
    """Cards with suit symbols (`A♠ T♦`), from Card objects or their text."""
    return format_cards(card if isinstance(card, Card) else Card.parse(card) for card in cards)


def signed(chips: int) -> Signed:
    """A chip result with its sign (+40, −10, 0), written per language when it is a message's parameter."""
    return Signed(chips)
