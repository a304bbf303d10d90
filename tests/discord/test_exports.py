"""Seasons, exports and the statistics' period on Discord: the slash commands are synced with their subcommands, an
export's CSV files come back ephemerally to the organizer alone, and anyone else is told why not."""

from __future__ import annotations

import csv
import io

from tests.discord.test_games import play_out, start_tournament


async def test_season_and_export_through_slash_commands(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    _, commands = fake.synced[-1]
    by_name = {command["name"]: command for command in commands}
    assert {option["name"] for option in by_name["season"]["options"]} == {"standings", "start", "end"}
    assert {option["name"] for option in by_name["export"]["options"]} == {"ledger", "tournament"}
    assert {option["name"] for option in by_name["stats"]["options"]} == {"player", "period"}
    assert by_name["season"]["name_localizations"]["ru"] == "сезон"

    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    started = await fake.slash(ann, channel, "season", subcommand="start", name="Winter")
    await bot.settled()
    assert started.texts(ephemeral=False)[0].startswith("Season “Winter” has begun")
    await start_tournament(fake, bot, channel, ann, bob)
    await play_out(fake, bot, channel, "check", "call")
    await fake.slash(ann, channel, "tournament", subcommand="close")
    await bot.settled()
    standings = await fake.slash(bob, channel, "season", subcommand="standings")
    await bot.settled()
    assert standings.texts(ephemeral=False)[0].startswith("Season “Winter”, standings after 1 tournament:\n1. ")

    refused = await fake.slash(bob, channel, "export", subcommand="ledger")
    await bot.settled()
    assert refused.ephemeral_text() == "Only the organizer — Ann — exports the chat's records."
    assert not [item for item in fake.files if item[1].endswith(".csv")]

    sent = await fake.slash(ann, channel, "export", subcommand="tournament", number=1)
    await bot.settled()
    files = {name: (where, content, ephemeral) for where, name, content, ephemeral in fake.files
             if name.endswith(".csv")}
    assert set(files) == {"tournament-1.csv", "tournament-1-transfers.csv"}
    assert all(where == channel and ephemeral for where, _, ephemeral in files.values())
    players = list(csv.DictReader(io.StringIO(files["tournament-1.csv"][1].decode("utf-8-sig"))))
    assert sorted(row["player"] for row in players) == ["Ann", "Bob"]
    assert sent.texts(ephemeral=False) == []

    stats = await fake.slash(ann, channel, "stats", player=bob, period="30d")
    await bot.settled()
    assert stats.texts(ephemeral=False)[0].splitlines()[0] == "Bob over the last 30 days: 1 hand played, 0 won"
