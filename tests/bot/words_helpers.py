"""An `Action` for rendering tests: no database, players named by their ids, every reply collected."""

from __future__ import annotations

import random
from typing import Any

from bot.games.context import Action
from bot.output import Place


class _Names:
    """What rendering asks of a transaction: a player's name (here his id, capitalised), and his platform's language
    (none known: he is told things in the action's language)."""

    def player_name(self, chat_id: str, user_id: str) -> str:
        return user_id.capitalize()

    def player_locale(self, chat_id: str, user_id: str) -> str | None:
        return None


def render_action(language: str = "en", state: dict[str, Any] | None = None, now: float = 0.0) -> Action:
    """An action in `language` whose reply collects what rendering says."""
    return Action(tx=_Names(), place=Place("chat", "chat/table"), actor=None, language=language,  # type: ignore[arg-type]
                  config={}, state=state or {}, now=now, rng=random.Random(1), chat_settings={})
