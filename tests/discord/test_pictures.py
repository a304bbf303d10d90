"""Table pictures on Discord: posted in the channel at the showdown (and at the flop with `pictures streets`; a message
of their own), and a player's own cards as an ephemeral attachment only he sees."""

from __future__ import annotations

import pytest

from bot.i18n import text
from bot.output import Picture, Place, Reply
from tests.discord.fake_discord import EPHEMERAL, GUILD_ID
from tests.discord.test_games import current_table, play_out
from tests.discord.test_showdown import stack_deck

PNG = b"\x89PNG\r\n\x1a\n"
MY_CARDS = text("en", "button.my_cards")


async def heads_up(fake, make_bot, pictures: str = "on"):
    """Ann and Bob sit down (`/set pictures` as given) and Ann deals: the bot, the channel and the two members."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(members[0], channel, "set", name="pictures", value=pictures)
    await fake.slash(members[0], channel, "deal")
    await bot.settled()
    return bot, channel, members


async def test_a_picture_of_the_table_is_attached_at_the_showdown_only_by_default(fake, make_bot) -> None:
    bot, channel, _ = await heads_up(fake, make_bot)
    await play_out(fake, bot, channel, "check", "call")
    with_pictures = [m for m in fake.channel_messages(channel) if m["attachments"]]
    assert [a["description"] for m in with_pictures for a in m["attachments"]] == ["Hand #1 · showdown"]


async def test_a_picture_of_the_table_is_attached_at_the_flop_with_pictures_streets(fake, make_bot) -> None:
    bot, channel, _ = await heads_up(fake, make_bot, "streets")
    assert not any(m["attachments"] for m in fake.channel_messages(channel)), "no picture before the flop"
    await play_out(fake, bot, channel, "check", "call")
    with_pictures = [m for m in fake.channel_messages(channel) if m["attachments"]]
    flop = [m for m in with_pictures if any("flop" in (a["description"] or "") for a in m["attachments"])]
    assert flop, [m["content"] for m in with_pictures]
    assert flop[0]["content"] == ""  # a message of its own, so a denied upload loses no text
    pictured = next(index for index, version in enumerate(fake.versions) if version["id"] == flop[0]["id"])
    assert any("\nFlop: " in version["content"] for version in fake.versions[:pictured]), \
        "the table message tells of the flop before its picture"
    assert all(data.startswith(PNG) for m in with_pictures for data in fake.files_of(m))


async def test_own_cards_picture_is_ephemeral(fake, make_bot) -> None:
    bot, channel, members = await heads_up(fake, make_bot)
    table = current_table(fake, channel)
    mine = await fake.press(members[1], table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert len(mine.messages) == 1 and mine.messages[0]["flags"] & EPHEMERAL
    files = fake.files_of(mine.messages[0])
    assert len(files) == 1 and files[0].startswith(PNG)
    assert not any(m["attachments"] for m in fake.channel_messages(channel))


def shown_since(fake, since: int) -> list[tuple[str, str, list[str]]]:
    """What the channel showed since the `since`th version, in order: each version as a new message or an edit of
    one, its text and its pictures' descriptions."""
    return [("edit" if version["edited_timestamp"] else "new", version["content"],
             [attached["description"] for attached in version["attachments"]])
            for version in fake.versions[since:] if not version["flags"] & EPHEMERAL]


SHOWDOWN = ("Showdown — Bob: J♠ 4♥ (three of a kind, fours, ace kicker)\nAnn mucks.\n"
            "Bob wins the main pot (40) with three of a kind, fours, ace kicker.")
FINAL_TABLE = ("Hold'em — hand #1 · blinds 10/20 · home-limit\nBoard: 4♠ 2♣ 6♠ A♥ 4♣ · Pot: 0\n"
               "  Ann · 180 Ⓓ\n  Bob · 220\n\n"
               "River: 4♣ (board 4♠ 2♣ 6♠ A♥ 4♣)\nBob checks.\nAnn checks.\n"
               f"{SHOWDOWN}\nThe hand is over.")


async def river_checked_to_ann(fake, make_bot, monkeypatch):
    """Heads-up from a stacked deck, checked and called to the river, where Ann is to act: the bot, the channel,
    Ann and the table message."""
    stack_deck(monkeypatch, "Js 6d 4h 9s 7c 4s 2c 6s 8d Ah 9d 4c")
    bot, channel, (ann, bob) = await heads_up(fake, make_bot)
    for member, name in ((ann, "call"), (bob, "check"), (bob, "check"), (ann, "check"), (bob, "check"),
                         (ann, "check"), (bob, "check")):
        await fake.slash(member, channel, name)
    await bot.settled()
    await bot.adapter.delivery.retired()  # (the seats' message left for the hand's)
    return bot, channel, ann, current_table(fake, channel)


async def test_a_showdown_pressed_reads_its_lines_with_its_picture_then_the_tables_end(fake, make_bot,
                                                                                     monkeypatch) -> None:
    """Ann's check ends the hand: the channel reads the showdown's lines with the hand's picture under them, as
    one message, then the table message's final edit; nothing after (a picture alone after the table's end read
    as a stray)."""
    bot, _, ann, table = await river_checked_to_ann(fake, make_bot, monkeypatch)
    since = len(fake.versions)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    assert shown_since(fake, since) == [("new", SHOWDOWN, ["Hand #1 · showdown"]), ("edit", FINAL_TABLE, [])]
    assert fake.limited == []


async def test_a_showdown_by_command_reads_its_lines_with_its_picture_then_the_tables_end(fake, make_bot,
                                                                                        monkeypatch) -> None:
    bot, channel, ann, _ = await river_checked_to_ann(fake, make_bot, monkeypatch)
    since = len(fake.versions)
    await fake.slash(ann, channel, "check")
    await bot.settled()
    assert shown_since(fake, since) == [("new", SHOWDOWN, ["Hand #1 · showdown"]), ("edit", FINAL_TABLE, [])]


@pytest.mark.parametrize("told_by_discord", [True, False], ids=["permissions-known", "permissions-unsaid"])
async def test_without_attach_files_a_showdown_pressed_still_reads_its_picture_under_its_lines(
        fake, make_bot, monkeypatch, told_by_discord: bool) -> None:
    """The bot may not attach files in the channel (its interactions say so, or not): an interaction's reply may
    attach them all the same (Discord lets responses and follow-ups attach files whatever the bot's Attach Files),
    so the showdown reads as with the permission, and nothing is named missing."""
    fake.denied_uploads.add(fake.channels[0])
    fake.hide_denial = not told_by_discord
    bot, _, ann, table = await river_checked_to_ann(fake, make_bot, monkeypatch)
    since = len(fake.versions)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    assert shown_since(fake, since) == [("new", SHOWDOWN, ["Hand #1 · showdown"]), ("edit", FINAL_TABLE, [])]


@pytest.mark.parametrize("told_by_discord", [True, False], ids=["permissions-known", "upload-refused"])
async def test_without_attach_files_a_timers_picture_is_left_out_and_the_permission_named(
        fake, make_bot, told_by_discord: bool) -> None:
    """A picture the channel's queue posts as a message of the bot's own (a timer's reply: no interaction) needs
    Attach Files: its line goes alone and the missing permission is named once."""
    channel = fake.channels[0]
    fake.denied_uploads.add(channel)
    fake.hide_denial = not told_by_discord
    bot = await make_bot()
    if told_by_discord:  # an interaction from the channel tells the bot its permissions there
        await fake.slash(fake.add_member("Ann"), channel, "balance")
        await bot.settled()
    place = Place(f"dc:{GUILD_ID}", f"dc:{channel}")
    since = len(fake.versions)
    await bot.adapter.on_timer(place, Reply(public=["Time is up."], pictures=[Picture(PNG + b"board", "The board")]))
    await bot.settled()
    assert shown_since(fake, since) == [("new", "Time is up.", []),
                                        ("new", text("en", "discord.need_attach_files"), [])]


async def test_a_picture_goes_under_its_own_replys_lines_only(fake, turns, make_bot) -> None:
    """A clock line, then another reply's picture with no lines of its own, both waiting in the channel's queue: the
    picture is not put under the clock line, which it has nothing to do with."""
    bot = await make_bot()
    place = Place(f"dc:{GUILD_ID}", f"dc:{fake.channels[0]}")
    since = len(fake.versions)
    await bot.adapter.on_timer(place, Reply(public=["Clock: level 2 begins."]))
    await bot.adapter.on_timer(place, Reply(pictures=[Picture(PNG + b"board", "The board")]))
    await bot.settled()
    assert shown_since(fake, since) == [("new", "Clock: level 2 begins.", []), ("new", "", ["The board"])]
