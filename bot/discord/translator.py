"""Slash commands in the members' own language: names and descriptions from the message catalogues."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LANGUAGE, catalogue, languages

NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for command and option names: letters of any script, digits, `-` and `_`, at most 32."""
DESCRIPTION_LIMIT = 100


def localized(message: str, key: str) -> app_commands.locale_str:
    """A command's name or description in English, with the catalogue key of its translations."""
    return app_commands.locale_str(message, key=key)


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord each command's name and description in every language with a catalogue (Russian), so a
    member whose client speaks it sees `/сесть — сесть за стол`; the command the bot runs stays the same."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The translation of `string` for `locale`, or None (Discord then shows the English)."""
        key = string.extras.get("key")
        language = locale.value.split("-")[0]
        if not key or language == DEFAULT_LANGUAGE or language not in languages():
            return None
        translated = catalogue(language).get(key)
        if translated is None:
            return None
        if context.location in (app_commands.TranslationContextLocation.command_name,
                                app_commands.TranslationContextLocation.group_name,
                                app_commands.TranslationContextLocation.parameter_name):
            return translated if NAME.match(translated) and translated == translated.lower() else None
        return translated[:DESCRIPTION_LIMIT]
