"""A player as the service meets him: a display name that can be stored and shown, and on his first command in a
chat a wallet with the starting grant (the chat's first player organizing it)."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from bot.i18n import languages
from bot.output import Actor, Place
from bot.store import Tx, wallet_account
from engine.reasons import Reason
from engine.text import clean_text, is_blank, is_storable


def cleaned(actor: Actor) -> Actor:
    """The actor with a display name (and id) that can be stored and shown (`clean_text`: no lone surrogate, no
    control character). A platform's name is cleaned rather than refused: the player cannot change it in the middle
    of a command. A name with nothing left to see (`is_blank`: zero-width characters alone) is replaced by the id."""
    name = clean_text(actor.name)
    user_id = actor.user_id if is_storable(actor.user_id) else clean_text(actor.user_id)
    name = user_id if is_blank(name) else name
    if name == actor.name and user_id == actor.user_id:
        return actor
    return dataclasses.replace(actor, name=name, user_id=user_id)


def welcome(tx: Tx, place: Place, actor: Actor, starting_grant: int) -> None:
    """Record the player as he comes (his name, his platform's language: `Tx.ensure_player`). His first command in a
    chat opens his wallet with the starting grant (the chat's `grant`, else `starting_grant`); the chat's first
    player organizes it (more organizers come from the platform's admin rights: `Actor.is_admin`) and, until someone
    sets one with /lang, gives it his platform's language. The settings are changed as stored when he comes
    (`Tx.change_chat_settings`), not as his action read them: another process may have changed them since."""
    new = tx.ensure_player(place.chat_id, actor.user_id, actor.name, actor.language)
    tx.change_chat_settings(place.chat_id, functools.partial(_welcomed, actor))
    if new:
        grant = int(tx.chat_settings(place.chat_id).get("grant", starting_grant))
        if grant > 0:
            tx.move(place.chat_id, f"mint:{place.chat_id}", wallet_account(place.chat_id, actor.user_id), grant,
                    Reason.WELCOME_GRANT)


def _welcomed(actor: Actor, settings: dict[str, Any]) -> dict[str, Any]:
    """The chat's settings once `actor` has come: him its organizer if it has none, his platform's language its
    language for timers if it has none (until someone sets one with /lang)."""
    if not settings.get("organizers"):
        settings["organizers"] = [actor.user_id]
    if not settings.get("locale") and actor.language in languages():
        settings["locale"] = actor.language
    return settings
