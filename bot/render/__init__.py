"""Rendering: engine events and state into the chat's text (one module per game family)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card, format_cards


def cards_text(cards: Iterable[Card | str]) -> str:
    """Cards with suit symbols (`A♠ T♦`), from Card objects or their text."""
    return format_cards(card if isinstance(card, Card) else Card.parse(card) for card in cards)


def signed(chips: int) -> str:
    """A chip result with its sign: +40, −10, 0."""
    return f"+{chips}" if chips > 0 else (f"−{-chips}" if chips < 0 else "0")
