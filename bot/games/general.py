"""The commands every table answers alike, whatever its game: help, balance, grants, organizers, languages, the choice
of game, odds, the clock page's link, seasons and a player's cards (the service hands them on here, `GENERAL`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import commands as cmd
from bot.command_parser import is_round_key, unknown_command
from bot.games import Controller, Retelling
from bot.games.clock_page import post_clock_page_link
from bot.games.context import Action, private_language
from bot.games.odds import odds_command
from bot.games.seasons import season_command
from bot.i18n import DEFAULT_LANGUAGE, catalogue, language_choices, language_label, languages, text
from bot.render import story
from bot.store import held_account
from bot.store.pauses import tables_of_chat
from engine.reasons import grant_by
from engine.text import quote_input


@dataclass(frozen=True, slots=True)
class Hosting:
    """What the bot offers every table, as the general commands tell of it: the games a table may play (`/game`) and
    where players' browsers reach the clock pages (`/clock tv`; None when the bot serves none)."""

    games: tuple[str, ...]
    web_url: str | None


def usage_text(language: str, command: type[cmd.Command]) -> str:
    """A command's argument pattern in `language` (`usage.<name>`), else as the parser spells it."""
    key = f"usage.{command.name}"
    return text(language, key) if key in catalogue(DEFAULT_LANGUAGE) else command.usage


def _help_line(act: Action, controller: Controller, command: type[cmd.Command]) -> str:
    """A command as `/help` writes it: its word and, when it takes any, its arguments ("/raise amount"), as the
    table's game takes them where they differ (a Caribbean table's "/ante chips [box 1-3] [bonus 10]")."""
    usage = controller.usage(command, act.config, act.language) or usage_text(act.language, command)
    return f"/{command.name} {usage}".rstrip()


def _help(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    assert isinstance(command, cmd.Help)
    with act.privately(act.user):
        if command.topic:
            found = cmd.BY_WORD.get(command.topic)
            if found is None:
                unknown = unknown_command(command.topic, command.topic)
                raise act.refuse(f"parse.{unknown.code}", **unknown.params)
            act.tell(act.user, "help.one", command=_help_line(act, controller, found),
                     about=act.t(f"about.{found.name}"))
            return
        lines = [_help_line(act, controller, cls) + " — " + act.t(f"about.{cls.name}") for cls in cmd.COMMANDS]
        act.tell(act.user, "help.all", commands="\n".join(lines))


def _balance(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    """`/balance`: the wallet, and what the house tables of the chat keep of it for the player's boxes."""
    held = sum(act.balance(held_account(table_id, act.user)) for table_id in tables_of_chat(act.tx, act.place.chat_id))
    act.tell(act.user, "balance.held" if held else "balance", chips=act.balance(act.wallet(act.user)), held=held)


def _grant(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    assert isinstance(command, cmd.Grant)
    act.require_organizer()
    user_id = act.player_named(command.player)
    act.move(f"mint:{act.place.chat_id}", act.wallet(user_id), command.chips, grant_by(act.user))
    act.say("granted", player=act.name(user_id), chips=command.chips)


def _organizers(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    names = act.organizers()
    act.tell(act.user, "organizers.list" if names else "organizers.unnamed", names=", ".join(names))


def _lang(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    """`/lang`: the chat's language and yours; `/lang ru`: the chat's, for organizers (a table in play is shown again
    in it); `/lang ru me`: anyone's own language for what only he reads (his cards, refusals, help), kept per chat in
    the `private_languages` setting. The story of a hand in play is told again in the chat's new language; the
    chat's other tables retell theirs when shown next (`/table`: the adapters show them at once), as the count of
    the chat's changes of language (`story.LANGUAGE_CHANGES`) tells them to."""
    assert isinstance(command, cmd.Lang)
    if command.language is None:
        act.tell(act.user, "lang.current", language=language_label(act.language), choices=language_choices())
        mine = private_language(act.chat_settings, act.user)
        if mine is not None:
            act.tell(act.user, "lang.mine", language=language_label(mine))
        return
    if command.language not in languages():
        raise act.refuse("lang.unknown", language=quote_input(command.language), choices=language_choices())
    if command.personal:
        chosen = functools.partial(_with_own_language, act.user, command.language)
        act.chat_settings = chosen(act.chat_settings)
        act.tx.change_chat_settings(act.place.chat_id, chosen)  # the others' choices as stored now kept
        act.tell(act.user, "lang.set_mine", language=language_label(command.language))
        return
    if not act.is_organizer:
        raise act.organizer_refusal("lang.organizer_only", language=command.language)
    changed = act.language != command.language  # another count of the chat's changes: its tables' stories retell
    act.tx.change_chat_settings(act.place.chat_id, functools.partial(_with_chat_language, command.language, changed))
    act.chat_settings = act.tx.chat_settings(act.place.chat_id)
    act.language = command.language
    act.say("lang.set", language=language_label(command.language))
    if isinstance(controller, Retelling):  # the state's story too, replayed or not (the chat's other tables: /table)
        controller.retell(act)
    if controller.is_busy(act) and not act.replaying:  # its message, buttons included, in the new language at once
        act.show_table(controller.table_message(act))


def _with_chat_language(language: str, changed: bool, settings: dict[str, Any]) -> dict[str, Any]:
    """The chat's settings with `language` the chat's (`/lang ru`), its count of changes (`story.LANGUAGE_CHANGES`)
    one up when it `changed`."""
    return {**settings, "language": language,
            story.LANGUAGE_CHANGES: settings.get(story.LANGUAGE_CHANGES, 0) + changed}


def _with_own_language(user: str, language: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The chat's settings with `language` the player's own (`/lang ru me`), beside the other players' choices."""
    return {**settings, "private_languages": {**settings.get("private_languages", {}), user: language}}


def _game(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    """`/game`: the table's game, said to the actor; `/game russian`: the organizer's choice of another game, which
    starts the table afresh in it (its settings gone, the new game's defaults in force), only with nobody seated and
    no hand or round in play. The game the table already plays is answered so, its settings kept."""
    assert isinstance(command, cmd.Game)
    if command.game is None:
        with act.privately(act.user):
            act.tell(act.user, "game.current", game=act.t(f"game.{act.config['game']}"),
                     choices=", ".join(hosting.games))
        return
    if command.game not in hosting.games:
        raise act.refuse("game.unknown", game=quote_input(command.game), choices=", ".join(hosting.games))
    if command.game == act.config["game"]:  # nothing to choose: its settings stay (anyone may ask, in a round too)
        raise act.refuse("game.already", game=act.t(f"game.{command.game}"))
    act.require_organizer()
    if controller.is_busy(act):
        key = controller.current_key(act)
        if key is None:
            raise act.refuse("game.seated")
        raise act.refuse("game.busy_round" if is_round_key(key) else "game.busy")
    act.config = {"game": command.game}
    act.state = {}
    act.say("game.set" if command.game in ("holdem", "omaha") else "game.set_house",
            game=act.t(f"game.{command.game}"))


def _odds(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    with act.privately(act.user):  # the answer is the actor's alone
        odds_command(act, controller, command)


def _clock(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    """`/clock tv` posts the link of the tournament's clock page (the bot knows its address); `/clock` is the game's."""
    assert isinstance(command, cmd.Clock)
    if command.tv:
        post_clock_page_link(act, hosting.web_url)
    else:
        controller.handle(act, command)


def _season(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    season_command(act, command)


def _cards(hosting: Hosting, act: Action, controller: Controller, command: cmd.Command) -> None:
    """"My cards" (`/cards`): the actor's cards for him alone, and the public table drawn again, its story retold
    first after the chat's `/lang` at another of its tables (as `/table` does)."""
    if isinstance(controller, Retelling):
        controller.retell(act)
    act.show_table(controller.table_message(act))
    with act.privately(act.user):  # his cards, and their picture's titles, in his language
        private = controller.private_view(act, act.user)
        act.reply.tell(act.user, private or act.t("no_cards"))
        picture = getattr(controller, "private_picture", None)
        if private and picture is not None:
            picture(act, act.user)


GENERAL: dict[type[cmd.Command], Callable[[Hosting, Action, Controller, cmd.Command], None]] = {
    cmd.Help: _help,
    cmd.Balance: _balance,
    cmd.Grant: _grant,
    cmd.Organizers: _organizers,
    cmd.Lang: _lang,
    cmd.Game: _game,
    cmd.Cards: _cards,
    cmd.Clock: _clock,
    cmd.Season: _season,
    cmd.Odds: _odds,
}
"""Each general command's handler: the service hands a command here before its table's game sees it."""
