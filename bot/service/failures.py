"""The answer to an action the store could not keep (nothing changed either way): the player's wallet short of the
chips it moves, or a database that cannot save (the disk full, the file read-only)."""

from __future__ import annotations

import contextlib
import logging

from bot.i18n import DEFAULT_LANGUAGE, text
from bot.output import Actor, Place, Reply
from bot.service.language import LanguageOf
from bot.store import CannotSave

log = logging.getLogger(__name__)


async def short_of_chips(private_language_of: LanguageOf, place: Place | None, actor: Actor | None) -> Reply:
    """The wallet cannot pay what the action moves (`InsufficientFunds`): told to the actor alone."""
    return Reply(error=text(await private_language_of(place, actor), "not_enough_chips"))


async def cannot_save(language_of: LanguageOf, place: Place | None, actor: Actor | None, table_id: str,
                      error: CannotSave) -> Reply:
    """The database cannot save: logged, and said in the chat's language (the actor's platform's when even that
    cannot be read); raised again for a timer (no actor), which `bot.service.timers.fire_timer` tries again later."""
    log.error("table %s: the database cannot save (%s); the action was not kept", table_id, error)
    if actor is None:
        raise error
    language = actor.language or DEFAULT_LANGUAGE
    with contextlib.suppress(Exception):  # the chat's language, if the file can still be read
        language = await language_of(place, actor)
    return Reply(error=text(language, "cannot_save"))
