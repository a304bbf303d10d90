"""Player-facing text: one folder of JSON catalogues per language in `bot/locales/`, looked up by key.

Each language is a folder (`bot/locales/en/`, `bot/locales/ru/`) of JSON files, one per part of the bot (`core.json`,
`holdem.json`, …); a language's messages are all its files merged. A key missing in a language falls back to English.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The messages of one language (empty for a language without a folder)."""
    folder = resources.files("bot.locales").joinpath(language)
    if not folder.is_dir():
        return {}
    messages: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            messages.update(json.loads(entry.read_text(encoding="utf-8")))
    return messages


@cache
def languages() -> tuple[str, ...]:
    """The languages that have a catalogue."""
    entries = resources.files("bot.locales").iterdir()
    return tuple(sorted(entry.name for entry in entries if entry.is_dir() and not entry.name.startswith("_")))


def placeholders(template: str) -> set[str]:
    """The `{names}` a message template expects."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def text(language: str, key: str, /, **params: object) -> str:
    """The message `key` in `language` (English when missing there), with its placeholders filled."""
    template = catalogue(language).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        raise KeyError(f"no message {key!r}")
    return template.format(**params)


def chat_language(settings: Mapping[str, object], locale: str | None = None) -> str:
    """The language to answer a chat in: its `/lang` choice, else the actor's platform `locale`, else the locale of
    the chat's first player (kept as the `locale` setting, for timers), else English."""
    for language in (settings.get("language"), locale, settings.get("locale")):
        if isinstance(language, str) and language in languages():
            return language
    return DEFAULT_LANGUAGE
