"""Which language each answer is in (the chat's, or only the player's), and the words answering a command that could
not be read (its usage at this table, a command of another game, the table's side bet)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot import commands as cmd
from bot.command_parser import SIDE_WORDS
from bot.games import Controller
from bot.games.context import private_language, wrong_game_text
from bot.games.general import usage_text
from bot.i18n import DEFAULT_LANGUAGE, catalogue, chat_language, own_language, text
from bot.output import Actor, Place
from bot.service.action_log import LiveTable
from bot.store import Store

LanguageOf = Callable[[Place | None, Actor | None], Awaitable[str]]
"""`Service.language` or `Service.private_language_of`: the language of an answer at a place, for an actor."""


async def chat_language_at(store: Store, place: Place | None, actor: Actor | None) -> str:
    """The language of what the chat reads at `place` (`bot.i18n.chat_language`: the chat's `/lang`, else its
    first player's, else `actor`'s platform's, else the default); `private_language_at` for what only he reads."""
    if place is None:
        return DEFAULT_LANGUAGE
    settings = await store.read(lambda tx: tx.chat_settings(place.chat_id))
    return chat_language(settings, actor.language if actor else None)


async def private_language_at(store: Store, place: Place | None, actor: Actor | None) -> str:
    """The language of an answer only `actor` reads: his own choice (`/lang ru me`), else the chat's `/lang`,
    else his platform's, else `chat_language_at`'s (`bot.i18n.own_language`)."""
    if place is None or actor is None:
        return await chat_language_at(store, place, actor)
    settings = await store.read(lambda tx: tx.chat_settings(place.chat_id))
    return _private_language(settings, actor)


def remembered_private_language(store: Store, place: Place | None, actor: Actor) -> str:
    """`private_language_at` from the chat's settings the store remembers in memory (`Store.remembered_settings`),
    never from the database: for the apology for an error, which must not wait on it or fail with it. Without them
    (or a place), the actor's platform's language."""
    return _private_language({} if place is None else store.remembered_settings(place.chat_id), actor)


def _private_language(settings: dict[str, Any], actor: Actor) -> str:
    return private_language(settings, actor.user_id) or own_language(settings, actor.language)


@dataclass(frozen=True)
class TableGames:
    """Where the game a table plays is found: its live table, else its stored one (the service's, as they stand)."""

    store: Store
    controllers: Mapping[str, Controller]
    default_game: str
    live: Mapping[str, LiveTable]

    async def game_at(self, place: Place) -> tuple[str, Controller | None, dict[str, Any]]:
        """The game the place's table plays, its controller (None for a game no longer offered) and the table's
        config."""
        live = self.live.get(place.table_id)
        if live is not None:
            config = live.config
        else:
            loaded = await self.store.read(lambda tx: tx.load_table(place.table_id))
            config = loaded[0] if loaded is not None else {}
        game = str(config.get("game", self.default_game))
        return game, self.controllers.get(game), config


async def parse_error_text(games: TableGames, place: Place, actor: Actor, error: cmd.CommandError) -> str:
    """What a command that could not be read is answered, in the language only `actor` reads: a command of another
    game named as such, a usage as this table's game states it, a side bet the table does not take refused as such
    (whatever its amount), an option in the player's words."""
    language = await private_language_at(games.store, place, actor)
    kind = error.command_type
    of_a_game = kind if kind is not None and any(other.uses(kind) for other in games.controllers.values()) else None
    params: dict[str, object] = dict(error.params)
    command = params.get("command")
    usage_of = cmd.BY_WORD.get(command) if "usage" in params and isinstance(command, str) else None
    what = params.get("what")
    # the table's game, read once, and only for an answer that depends on it
    game, controller, config = (await games.game_at(place) if of_a_game or usage_of or what in SIDE_WORDS
                                else ("", None, {}))
    if of_a_game is not None and controller is not None and not controller.uses(of_a_game):
        return wrong_game_text(language, of_a_game.name, game)  # `/ante` at a Hold'em table: not used here
    if usage_of is not None:
        table_usage = controller.usage(usage_of, config, language) if controller else None
        params["usage"] = table_usage or usage_text(language, usage_of)
    if what in SIDE_WORDS:  # a malformed amount: the table's game names its own side bet, and refuses the other's
        side = None if controller is None else controller.side_bet  # None: a table of another game
        if side == "":
            return text(language, "rule.no_side_bet")
        if side and SIDE_WORDS[what] != side:  # `pp x` at Caribbean Poker: no amount would make it a bet there
            return text(language, "house.other_side_bet", asked=text(language, f"stake.{SIDE_WORDS[what]}"),
                        stake=text(language, f"stake.{side}"))
        params["what"] = what = side or what
    if what is not None and f"parse.what.{what}" in catalogue(DEFAULT_LANGUAGE):  # `ante`, `pp`… translated
        params["what"] = text(language, f"parse.what.{what}")
    return text(language, f"parse.{error.code}", **params)
