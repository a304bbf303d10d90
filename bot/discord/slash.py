"""The slash commands: each one writes the chat command it stands for and hands it to the adapter, nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.commands import COMMANDS, MAX_AMOUNT
from bot.i18n import DEFAULT_LANGUAGE, languages, text
from engine.house import GAMES as HOUSE_GAMES
from engine.schedule import PRESETS

if TYPE_CHECKING:
    from bot.discord.adapter import DiscordAdapter

Chips = app_commands.Range[int, 1, MAX_AMOUNT]
GAMES = ("holdem", *HOUSE_GAMES)
TOURNAMENT_ACTIONS = ("register", "start", "pause", "resume", "skip", "cashout", "close")


def about(name: str) -> str:
    """A command's description, from the message catalogue (English: Discord shows it before any chat language)."""
    return text(DEFAULT_LANGUAGE, f"about.{name}")[:100]


def _line(*words: str | int | None) -> str:
    """A chat command from its words, leaving out the options not given."""
    return " ".join(str(word) for word in words if word)


def _choices(values: list[str], typed: str) -> list[app_commands.Choice[str]]:
    typed = typed.strip().lower()
    return [app_commands.Choice(name=value, value=value) for value in values if typed in value.lower()][:25]


def register(tree: app_commands.CommandTree[discord.Client], adapter: DiscordAdapter) -> None:
    """Add every command the service offers to the tree."""

    def simple(name: str, line: str | None = None) -> None:
        async def callback(interaction: discord.Interaction) -> None:
            await adapter.run_command(interaction, line or f"/{name}")

        tree.add_command(app_commands.Command(name=name, description=about(name), callback=callback))

    for name in ("leave", "deal", "balance", "top", "cards", "table", "fold", "check", "call", "allin", "play",
                 "buy", "dealergame", "decline", "clock", "cashout", "odds"):
        simple(name)

    @tree.command(name="addbot", description=about("addbot"))
    @app_commands.describe(name="the computer player's name, or “remove <name>” (organizer)")
    async def addbot(interaction: discord.Interaction, name: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/addbot", name))

    @tree.command(name="help", description=about("help"))
    @app_commands.describe(command="a command to explain")
    async def help_(interaction: discord.Interaction, command: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/help", command))

    @help_.autocomplete("command")
    async def help_command(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return _choices([cls.name for cls in COMMANDS], typed)

    @tree.command(name="join", description=about("join"))
    @app_commands.describe(chips="Hold'em buy-in from your wallet (the table's default when left out)")
    async def join(interaction: discord.Interaction, chips: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/join", chips))

    @tree.command(name="game", description=about("game"))
    @app_commands.describe(game="the game to play here (organizer); leave out to see the current one")
    @app_commands.choices(game=[app_commands.Choice(name=text(DEFAULT_LANGUAGE, f"game.{g}"), value=g) for g in GAMES])
    async def game(interaction: discord.Interaction, game: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/game", game))

    @tree.command(name="set", description=about("set"))
    @app_commands.describe(name="the setting (leave out to list them)", value="its new value")
    async def set_(interaction: discord.Interaction, name: str | None = None, value: str | None = None) -> None:
        if (name is None) != (value is None):
            await adapter.refuse(interaction, "discord.set_both")
            return
        await adapter.run_command(interaction, _line("/set", name, value))

    @tree.command(name="grant", description=about("grant"))
    @app_commands.describe(player="who receives the chips", chips="how many")
    async def grant(interaction: discord.Interaction, player: discord.Member, chips: Chips) -> None:
        await adapter.run_command(interaction, f"/grant dc:{player.id} {chips}")

    @tree.command(name="history", description=about("history"))
    @app_commands.describe(which="how many hands (3 by default), or “tournament” for the whole tournament as a file")
    async def history(interaction: discord.Interaction, which: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/history", which))

    @tree.command(name="stats", description=about("stats"))
    @app_commands.describe(player="whose statistics (yours by default)")
    async def stats(interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await adapter.run_command(interaction, _line("/stats", f"dc:{player.id}" if player else None))

    @tree.command(name="bet", description=about("bet"))
    @app_commands.describe(amount="chips to bet (house games: the BET is fixed by the ANTE)")
    async def bet(interaction: discord.Interaction, amount: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/bet", amount))

    @tree.command(name="raise", description=about("raise"))
    @app_commands.describe(amount="the total to raise to (fixed-limit tables: leave out)")
    async def raise_(interaction: discord.Interaction, amount: Chips | None = None) -> None:
        await adapter.run_command(interaction, _line("/raise", amount))

    @tree.command(name="pawn", description=about("pawn"))
    @app_commands.describe(item="clothing, e.g. “leather jacket” (no socks, belts, jewellery, accessories, watches)")
    async def pawn(interaction: discord.Interaction, item: app_commands.Range[str, 1, 200]) -> None:
        await adapter.run_command(interaction, f"/pawn {' '.join(item.split())}")

    @tree.command(name="ante", description=about("ante"))
    @app_commands.describe(amount="the ANTE", box="which of your boxes (1 when left out)",
                           pairplus="PAIRPLUS side bet (Three Card Poker)", bonus="bonus side bet (Caribbean Poker)")
    @app_commands.choices(box=[app_commands.Choice(name=str(n), value=n) for n in (1, 2, 3)])
    async def ante(interaction: discord.Interaction, amount: Chips, box: int | None = None,
                   pairplus: Chips | None = None, bonus: Chips | None = None) -> None:
        if pairplus and bonus:
            await adapter.refuse(interaction, "discord.one_side_bet")
            return
        line = f"/ante {amount}" + (f" box {box}" if box else "")
        line += f" pp {pairplus}" if pairplus else f" bonus {bonus}" if bonus else ""
        await adapter.run_command(interaction, line)

    @tree.command(name="exchange", description=about("exchange"))
    @app_commands.describe(cards="positions 1-5 of the cards to exchange, e.g. “2 5”")
    async def exchange(interaction: discord.Interaction, cards: app_commands.Range[str, 1, 40]) -> None:
        await adapter.run_command(interaction, f"/exchange {' '.join(cards.replace(',', ' ').split())}")

    @exchange.autocomplete("cards")
    async def exchange_cards(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=option, value=option) for option in exchange_suggestions(typed)]

    @tree.command(name="lang", description=about("lang"))
    @app_commands.describe(language="the chat's language; leave out to see it")
    @app_commands.choices(language=[app_commands.Choice(name=code, value=code) for code in languages()])
    async def lang(interaction: discord.Interaction, language: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/lang", language))

    tournament = app_commands.Group(name="tournament", description=about("tournament"))

    def action(name: str) -> None:
        async def callback(interaction: discord.Interaction) -> None:
            await adapter.run_command(interaction, f"/tournament {name}")

        tournament.add_command(app_commands.Command(name=name, description=f"/tournament {name}", callback=callback))

    @tournament.command(name="create", description="create a tournament (organizer)")
    @app_commands.describe(schedule="a preset name, or levels like “10/20 20m, 20/40 20m”")
    async def create(interaction: discord.Interaction, schedule: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/tournament create", schedule))

    @create.autocomplete("schedule")
    async def create_schedule(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return _choices(sorted(PRESETS), typed)

    for name in TOURNAMENT_ACTIONS:
        action(name)

    @tournament.command(name="minutes", description="change the level length (organizer)")
    @app_commands.describe(minutes="minutes per level")
    async def minutes(interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 600]) -> None:
        await adapter.run_command(interaction, f"/tournament minutes {minutes}")

    @tournament.command(name="redeem", description="redeem a pawned item")
    @app_commands.describe(item="the item's number (leave it out to list your pawned items)")
    async def redeem(interaction: discord.Interaction, item: str | None = None) -> None:
        await adapter.run_command(interaction, _line("/tournament redeem", item))

    tree.add_command(tournament)


def exchange_suggestions(typed: str) -> list[str]:
    """Completions for `/exchange`: the positions typed so far, cleaned, and each way to add one more."""
    chosen: list[str] = []
    for word in typed.replace(",", " ").split():
        if word in "12345" and len(word) == 1 and word not in chosen:
            chosen.append(word)
    base = " ".join(chosen)
    options = [base] if base else []
    options += [f"{base} {n}".strip() for n in "12345" if n not in chosen]
    return options[:25]
