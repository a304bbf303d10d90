"""Rendering: engine events and state into the chat's text (one module per game family)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.i18n import Signed, message
from engine.cards import Card, format_cards


@dataclass(frozen=True)
class Voice:
    """What rendering writes with: the reader's language and the players' display names (renderers take this
    view, never a controller's context)."""

    language: str
    name: Callable[[str], str] = str
    """A player's display name from his id."""

    # written out, not generated: see bot/compiled.py
    def __init__(self, language: str, name: Callable[[str], str] = str) -> None:
        object.__setattr__(self, "language", language)
        object.__setattr__(self, "name", name)

    def t(self, key: str, /, **params: object) -> str:
        """A message in this voice's language."""
        return message(self.language, key, params)


@dataclass(frozen=True)
class Told:
    """A private message for one player: its catalogue key and parameters, written in his own language when told."""

    player: str
    key: str
    params: dict[str, object] = field(default_factory=dict)

    # written out, not generated: see bot/compiled.py
    def __init__(self, player: str, key: str, params: dict[str, object] | None = None) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", {} if params is None else params)


@dataclass
class Narration:
    """What a batch of events says: the story's lines (for the table message), the public notice the chat should
    notice (empty for none), and the private messages."""

    lines: list[str] = field(default_factory=list, init=False)
    notice: str = field(default="", init=False)
    told: list[Told] = field(default_factory=list, init=False)

    # written out, not generated: see bot/compiled.py
    def __init__(self) -> None:
        self.lines = []
        self.notice = ""
        self.told = []


def cards_text(cards: Iterable[Card | str]) -> str:
    """Cards with suit symbols (`A♠ T♦`), from Card objects or their text."""
    return format_cards(card if isinstance(card, Card) else Card.parse(card) for card in cards)


def signed(chips: int) -> Signed:
    """A chip result with its sign (+40, −10, 0), written per language when it is a message's parameter."""
    return Signed(chips)
