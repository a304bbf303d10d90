"""The slash commands: each one writes the chat command it stands for and hands it to the adapter, nothing more."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, TypeVar

import discord
from discord import app_commands

from bot.command_parser import MAX_AMOUNT
from bot.commands import COMMANDS
from bot.discord.replies import PREFIX
from bot.discord.translator import localized
from bot.i18n import DEFAULT_LANGUAGE, catalogue, languages, text
from engine.clock import MAX_ADJUST_MINUTES
from engine.house import GAMES as HOUSE_GAMES
from engine.schedule import PRESETS


class CommandRunner(Protocol):
    """What the slash commands hand their work to (the adapter): they do not import it, so imports point one way."""

    async def run_command(self, interaction: discord.Interaction, line: str,
                          mentioned: Mapping[str, str] | None = None) -> None:
        """Apply a slash command written as the chat command it stands for (`mentioned`: each member it names by his
        player id, by that id, as Discord shows him)."""

    async def refuse(self, interaction: discord.Interaction, key: str) -> None:
        """Answer a malformed command privately with the catalogue message `key`."""

    def exchange_positions(self, interaction: discord.Interaction) -> tuple[int, ...]:
        """The card positions `/exchange` may name at the table of the interaction's channel (its game's, none
        where it has no exchange): quick, for its suggestions within Discord's three seconds."""


T = TypeVar("T")
Chips = app_commands.Range[int, 1, MAX_AMOUNT]
AnteChips = app_commands.Range[int, 0, MAX_AMOUNT]
"""An ANTE: 0 places the side bet alone (Three Card Poker's PAIRPLUS), where the game allows it."""
GAMES = ("holdem", "omaha", *HOUSE_GAMES)
TOURNAMENT_ACTIONS = ("register", "status", "start", "pause", "resume", "skip", "cashout", "close")


def about(name: str) -> app_commands.locale_str:
    """A command's description, from the message catalogue: English, translated for members whose Discord
    speaks another language (see `CatalogueTranslator`). Where the chat's description names an option as it is
    typed in the chat, Discord has its own (`discord.about.<name>`), naming it as the member's Discord shows it."""
    key = f"discord.about.{name}" if f"discord.about.{name}" in catalogue(DEFAULT_LANGUAGE) else f"about.{name}"
    return localized(text(DEFAULT_LANGUAGE, key)[:100], key)


def _mentioned(member: discord.abc.User) -> dict[str, str]:
    """A member named by a command's option, as the adapter's `mentioned`: his player id and his display name."""
    return {f"{PREFIX}{member.id}": member.display_name}


def _name(name: str, group: str | None = None) -> app_commands.locale_str:
    """A command's name, translated where the catalogue has a name Discord accepts."""
    return localized(name, f"discord.name.{group}.{name}" if group else f"discord.name.{name}")


def _about(command: str, option: str) -> app_commands.locale_str:
    """An option's description, from the catalogue."""
    key = f"discord.option.{command}.{option}"
    return localized(text(DEFAULT_LANGUAGE, key), key)


def _options(command: str, *options: str) -> Callable[[T], T]:
    """Name and describe a command's options from the catalogue. The English name is the handler's parameter;
    members whose Discord speaks another language see its translation (`discord.param.<command>.<option>`), while
    Discord still sends each option by its English name, so the handler receives it as before."""

    def decorate(function: T) -> T:
        function = app_commands.describe(**{option: _about(command, option) for option in options})(function)
        return app_commands.rename(**{option: localized(option, f"discord.param.{command}.{option}")
                                      for option in options})(function)

    return decorate


def _choice(key: str, value: str) -> app_commands.Choice[str]:
    """A fixed choice named from the catalogue (`key`), translated like the options; the handler gets `value`."""
    return app_commands.Choice(name=localized(text(DEFAULT_LANGUAGE, key), key), value=value)


def _sub(name: str, group: str = "tournament") -> app_commands.locale_str:
    """A subcommand's description (`/tournament`, `/season`, `/export`), from the catalogue."""
    key = f"discord.about.{group}.{name}"
    return localized(text(DEFAULT_LANGUAGE, key), key)


def _line(*words: str | int | None) -> str:
    """A chat command from its words, leaving out the options not given."""
    return " ".join(str(word) for word in words if word)


def _choices(values: list[str], typed: str) -> list[app_commands.Choice[str]]:
    typed = typed.strip().lower()
    return [app_commands.Choice(name=value, value=value) for value in values if typed in value.lower()][:25]


def register(tree: app_commands.CommandTree[discord.Client], adapter: CommandRunner) -> None:
    """Add every command the service offers to the tree."""

    def simple(name: str, line: str | None = None) -> None:
        async def callback(interaction: discord.Interaction) -> None:
            await adapter.run_command(interaction, line or f"/{name}")

        tree.add_command(app_commands.Command(name=_name(name), description=about(name), callback=callback))

    for name in ("leave", "away", "deal", "balance", "organizers", "top", "cards", "table", "rabbit", "fold", "check",
                 "call", "allin", "play", "buy", "dealergame", "decline", "cashout", "rebuy", "addon", "odds", "show",
                 "muck"):
        simple(name)

    @tree.command(name=_name("clock"), description=about("clock"))
    @_options("clock", "tv")
    async def clock(interaction: discord.Interaction, tv: bool = False) -> None:
        await adapter.run_command(interaction, _line("/clock", "tv" if tv else None))

    @tree.command(name=_name("run"), description=about("run"))
    @_options("run", "times")
    @app_commands.choices(times=[_choice(f"button.run_{word}", word) for word in ("once", "twice")])
    async def run(interaction: discord.Interaction, times: str) -> None:
        await adapter.run_command(interaction, f"/run {times}")

    @tree.command(name=_name("automuck"), description=about("automuck"))
    @_options("automuck", "switch")
    @app_commands.choices(switch=[_choice(f"discord.choice.automuck.{word}", word) for word in ("on", "off")])
    async def automuck(interaction: discord.Interaction, switch: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/automuck", switch))

    @tree.command(name=_name("addbot"), description=about("addbot"))
    @_options("addbot", "name")
    async def addbot(interaction: discord.Interaction, name: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/addbot", name))

    @tree.command(name=_name("help"), description=about("help"))
    @_options("help", "command")
    async def help_(interaction: discord.Interaction, command: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/help", command))

    @help_.autocomplete("command")
    async def help_command(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        registered = {command.name for command in tree.get_commands()}  # (`/select` is the card buttons' alone)
        return _choices([cls.name for cls in COMMANDS if cls.name in registered], typed)

    @tree.command(name=_name("join"), description=about("join"))
    @_options("join", "chips")
    async def join(interaction: discord.Interaction, chips: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/join", chips))

    @tree.command(name=_name("back"), description=about("back"))
    @_options("back", "choice")
    @app_commands.choices(choice=[_choice(f"discord.choice.back.{word}", word) for word in ("post", "wait")])
    async def back(interaction: discord.Interaction, choice: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/back", choice))

    @tree.command(name=_name("straddle"), description=about("straddle"))
    @_options("straddle", "off")
    async def straddle(interaction: discord.Interaction, off: bool = False) -> None:
        await adapter.run_command(interaction, _line("/straddle", "off" if off else None))

    @tree.command(name=_name("pre"), description=about("pre"))
    @_options("pre", "choice", "chips")
    @app_commands.choices(choice=[_choice(f"discord.choice.pre.{word}", word)
                                  for word in ("checkfold", "check", "call", "callany")])
    async def pre(interaction: discord.Interaction, choice: str, chips: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/pre", choice, chips))

    @tree.command(name=_name("game"), description=about("game"))
    @_options("game", "game")
    @app_commands.choices(game=[_choice(f"game.{g}", g) for g in GAMES])
    async def game(interaction: discord.Interaction, game: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/game", game))

    @tree.command(name=_name("set"), description=about("set"))
    @_options("set", "name", "value")
    async def set_(interaction: discord.Interaction, name: str | None = None, value: str | None = None) -> None:
        if (name is None) != (value is None):
            await adapter.refuse(interaction, "discord.set_both")
            return
        await adapter.run_command(interaction, _line("/set", name, value))

    @tree.command(name=_name("grant"), description=about("grant"))
    @_options("grant", "player", "chips")
    async def grant(interaction: discord.Interaction, player: discord.Member, chips: Chips) -> None:
        await adapter.run_command(interaction, f"/grant {PREFIX}{player.id} {chips}", _mentioned(player))

    @tree.command(name=_name("history"), description=about("history"))
    @_options("history", "which")
    async def history(interaction: discord.Interaction, which: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/history", which))

    @tree.command(name=_name("stats"), description=about("stats"))
    @_options("stats", "player", "period")
    async def stats(interaction: discord.Interaction, player: discord.User | None = None,
                    period: app_commands.Range[str, 1, 8] | None = None) -> None:
        # a User, not a Member: someone who has left the server still has his statistics
        await adapter.run_command(interaction, _line("/stats", f"{PREFIX}{player.id}" if player else None, period),
                                  _mentioned(player) if player else None)

    @stats.autocomplete("period")
    async def stats_period(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return _choices(["7d", "30d", "90d", "365d", "all"], typed)

    _register_season(tree, adapter)
    _register_export(tree, adapter)

    @tree.command(name=_name("bet"), description=about("bet"))
    @_options("bet", "amount")
    async def bet(interaction: discord.Interaction, amount: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/bet", amount))

    @tree.command(name=_name("raise"), description=about("raise"))
    @_options("raise", "amount")
    async def raise_(interaction: discord.Interaction, amount: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/raise", amount))

    @tree.command(name=_name("pawn"), description=about("pawn"))
    @_options("pawn", "item")
    async def pawn(interaction: discord.Interaction, item: app_commands.Range[str, 1, 200]) -> None:
        await adapter.run_command(interaction, f"/pawn {' '.join(item.split())}")

    @tree.command(name=_name("ante"), description=about("ante"))
    @_options("ante", "amount", "box", "pairplus", "bonus")
    @app_commands.choices(box=[app_commands.Choice(name=str(n), value=n) for n in (1, 2, 3)])
    async def ante(interaction: discord.Interaction, amount: AnteChips, box: int | None = None,
                   pairplus: Chips | None = None, bonus: Chips | None = None) -> None:
        if pairplus and bonus:
            await adapter.refuse(interaction, "discord.one_side_bet")
            return
        line = f"/ante {amount}" + (f" box {box}" if box else "")
        line += f" pp {pairplus}" if pairplus else f" bonus {bonus}" if bonus else ""
        await adapter.run_command(interaction, line)

    @tree.command(name=_name("exchange"), description=about("exchange"))
    @_options("exchange", "cards")
    async def exchange(interaction: discord.Interaction, cards: app_commands.Range[str, 1, 40]) -> None:
        await adapter.run_command(interaction, f"/exchange {' '.join(cards.replace(',', ' ').split())}")

    @exchange.autocomplete("cards")
    async def exchange_cards(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        positions = adapter.exchange_positions(interaction)
        return [app_commands.Choice(name=option, value=option) for option in exchange_suggestions(typed, positions)]

    @tree.command(name=_name("lang"), description=about("lang"))
    @_options("lang", "language", "me")
    @app_commands.choices(language=[app_commands.Choice(name=code, value=code) for code in languages()])
    async def lang(interaction: discord.Interaction, language: str | None = None, me: bool = False) -> None:
        await adapter.run_command(interaction, _line("/lang", language, "me" if me else None))

    tournament = app_commands.Group(name=_name("tournament"), description=about("tournament"))

    def action(name: str) -> None:
        async def callback(interaction: discord.Interaction) -> None:
            await adapter.run_command(interaction, f"/tournament {name}")

        tournament.add_command(app_commands.Command(name=_name(name, "tournament"), description=_sub(name),
                                                    callback=callback))

    @tournament.command(name=_name("create", "tournament"), description=_sub("create"))
    @_options("tournament.create", "schedule")
    async def create(interaction: discord.Interaction, schedule: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/tournament create", schedule))

    @create.autocomplete("schedule")
    async def create_schedule(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return _choices(sorted(PRESETS), typed)

    for name in TOURNAMENT_ACTIONS:
        action(name)

    @tournament.command(name=_name("minutes", "tournament"), description=_sub("minutes"))
    @_options("tournament.minutes", "minutes")
    async def minutes(interaction: discord.Interaction,
                      minutes: app_commands.Range[int, -MAX_ADJUST_MINUTES, MAX_ADJUST_MINUTES]) -> None:
        await adapter.run_command(interaction, f"/tournament minutes {minutes}")

    @tournament.command(name=_name("redeem", "tournament"), description=_sub("redeem"))
    @_options("tournament.redeem", "item")
    async def redeem(interaction: discord.Interaction, item: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/tournament redeem", item))

    tree.add_command(tournament)


def _register_season(tree: app_commands.CommandTree[discord.Client], adapter: CommandRunner) -> None:
    """`/season standings`, `/season start [name]`, `/season end`."""
    season = app_commands.Group(name=_name("season"), description=about("season"))

    @season.command(name=_name("standings", "season"), description=_sub("standings", "season"))
    async def standings(interaction: discord.Interaction) -> None:
        await adapter.run_command(interaction, "/season")

    @season.command(name=_name("start", "season"), description=_sub("start", "season"))
    @_options("season.start", "name")
    async def start(interaction: discord.Interaction, name: app_commands.Range[str, 1, 60] | None = None) -> None:
        await adapter.run_command(interaction, _line("/season start", " ".join(name.split()) if name else None))

    @season.command(name=_name("end", "season"), description=_sub("end", "season"))
    async def end(interaction: discord.Interaction) -> None:
        await adapter.run_command(interaction, "/season end")

    tree.add_command(season)


def _register_export(tree: app_commands.CommandTree[discord.Client], adapter: CommandRunner) -> None:
    """`/export ledger` and `/export tournament [number]`: the files come back ephemerally, to the organizer alone."""
    export = app_commands.Group(name=_name("export"), description=about("export"))

    @export.command(name=_name("ledger", "export"), description=_sub("ledger", "export"))
    async def ledger(interaction: discord.Interaction) -> None:
        await adapter.run_command(interaction, "/export ledger")

    @export.command(name=_name("tournament", "export"), description=_sub("tournament", "export"))
    @_options("export.tournament", "number")
    async def tournament(interaction: discord.Interaction,
                         number: app_commands.Range[int, 1, 10**9] | None = None) -> None:
        await adapter.run_command(interaction, _line("/export tournament", number))

    tree.add_command(export)


def command_mentions(synced: Iterable[app_commands.AppCommand]) -> dict[str, str]:
    """Discord's mention of each command the sync registered (`CommandTree.sync` returns them with their ids), by its
    name as a text writes it after `/` (`fold`, `tournament redeem`): `</fold:123>`; a group's subcommands each by
    its own, `</tournament redeem:456>` (the group's id), since a group runs only as one of them."""
    mentions: dict[str, str] = {}
    for command in synced:
        subcommands = [option for option in command.options if isinstance(option, app_commands.AppCommandGroup)]
        for subcommand in subcommands:
            mentions[subcommand.qualified_name] = subcommand.mention
        if not subcommands:
            mentions[command.name] = command.mention
    return mentions


def exchange_suggestions(typed: str, positions: Iterable[int]) -> list[str]:
    """Completions for `/exchange` at a table whose game may exchange the cards at `positions` (none: nothing to
    suggest, and `/exchange` says why): the positions typed so far, cleaned, and each way to add one more."""
    offered = [str(position) for position in positions]
    if not offered:
        return []
    chosen: list[str] = []
    for word in typed.replace(",", " ").split():
        if word in offered and word not in chosen:
            chosen.append(word)
    base = " ".join(chosen)
    options = [base] if base else []
    options += [f"{base} {n}".strip() for n in offered if n not in chosen]
    return options[:25]
