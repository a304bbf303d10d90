"""Player-facing text: one JSON catalogue per language in `bot/locales/`, looked up by key with placeholders."""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The messages of one language (empty for a language without a file)."""
    try:
        text = resources.files("bot.locales").joinpath(f"{language}.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    messages: dict[str, str] = json.loads(text)
    return messages


@cache
def languages() -> tuple[str, ...]:
    """The languages that have a catalogue."""
    files = resources.files("bot.locales").iterdir()
    return tuple(sorted(entry.name.removesuffix(".json") for entry in files if entry.name.endswith(".json")))


def placeholders(template: str) -> set[str]:
    """The `{names}` a message template expects."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def text(language: str, key: str, /, **params: object) -> str:
    """The message `key` in `language` (English when missing there), with its placeholders filled."""
    template = catalogue(language).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        raise KeyError(f"no message {key!r}")
    return template.format(**params)
