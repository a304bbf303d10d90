"""Discord: the chat is the guild, so `/lang ru` typed in one channel is every channel's language. Each table of the
guild with players seated is shown again in it at once (its text and its buttons), through its channel's queue."""

from __future__ import annotations

import asyncio

from bot.i18n import text
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_games import current_table
from tests.discord.test_table_options import seat


def labels(fake: FakeDiscord, message_id: int) -> list[str]:
    return [str(button.get("label")) for button in fake.buttons(fake.messages[message_id])]


async def test_lang_redraws_every_table_of_the_guild_with_players_seated(fake: FakeDiscord, make_bot) -> None:
    """Ann chooses Russian in the first channel, where nobody sits. The second channel's hand in play (the story so
    far too) and the thread's seats between hands (its players seated, no hand dealt) are each edited once into
    Russian, the second channel only once Discord lets it (a 429 holds it a second); the first channel gets its
    answer alone."""
    thread = fake.add_thread(fake.channels[0])
    bot = await make_bot(default_game="holdem")
    here, playing = fake.channels
    ann = fake.add_member("Ann")
    await fake.slash(ann, here, "balance")  # the guild's first player organizes it
    cat, _ = await seat(fake, playing, ("Cat", "Dan"))
    await fake.slash(cat, playing, "deal")
    await seat(fake, thread, ("Eve", "Fay"))
    await bot.settled()
    hand, seats = (int([m for m in fake.channel_messages(channel) if m["components"]][-1]["id"])
                   for channel in (playing, thread))
    assert text("en", "button.my_cards") in labels(fake, hand)
    edits = {message_id: fake.edits_of(message_id) for message_id in (hand, seats)}
    fake.limit_channel(playing, 1.0)

    chosen = await fake.slash(ann, here, "lang", language="ru")
    await bot.settled()

    assert chosen.texts() == ["Язык чата: русский (ru)."]
    tables = (f"/channels/{thread}/messages/{seats}", f"/channels/{playing}/messages/{hand}")
    since = [(method, path) for at, method, path, status in fake.timeline if at >= chosen.sent_at and status != 429]
    assert since[0] == ("POST", f"/interactions/{chosen.id}/{chosen.token}/callback")  # answered before anything
    assert [request for request in since if request[1] in tables] == [("PATCH", path) for path in tables]  # held last
    assert not [request for request in since if request[1].startswith(f"/channels/{here}/")]
    assert {message_id: fake.edits_of(message_id) - edits[message_id] for message_id in (hand, seats)} == {
        hand: 1, seats: 1}
    assert fake.messages[hand]["content"] == (  # the story of the hand too
        "Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
        "Борд: — · Банк: 30\n"
        "▶ Cat · 190 Ⓓ ставка 10\n"
        "  Dan · 180 ставка 20\n"
        "\n"
        "Раздача №1: баттон — Cat, блайнды 10/20. Карты розданы — нажмите «Мои карты», чтобы посмотреть свои.\n"
        "Cat ставит малый блайнд 10.\n"
        "Dan ставит большой блайнд 20.\n"
        "▶ Ход: Cat, для колла 10 (⏱ 60\xa0с).\n"
        f"<@{cat.id}>")
    assert text("ru", "button.my_cards") in labels(fake, hand)
    assert fake.messages[seats]["content"].startswith("Техасский холдем — места:\n  Eve — 200\n  Fay — 200\n")
    assert labels(fake, seats) == ["Сдать", text("ru", "button.my_cards")]
    bob = fake.add_member("Bob")
    redrawn = [fake.edits_of(message_id) for message_id in (hand, seats)]
    refused = await fake.slash(bob, here, "lang", language="en")  # only the organizer chooses: nothing is redrawn
    await bot.settled()
    assert refused.ephemeral_text().startswith("Язык чата выбирает только организатор — Ann;")
    assert [fake.edits_of(message_id) for message_id in (hand, seats)] == redrawn


async def test_after_a_restart_a_table_is_shown_in_its_guilds_language(fake: FakeDiscord, turns, make_bot) -> None:
    """A Russian guild's hand is in play when the bot dies with the table's edit still queued (a 429 held it). The
    restart shows the table again as it stands, before anyone touched it: the "my cards" button the adapter adds (the
    scripted game draws none) is in Russian. The board used to take every table it read back from the store for an
    English one until an interaction told it otherwise, so that edit offered "My cards"."""
    bot = await make_bot()
    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, channel, "join")
    await fake.slash(ann, channel, "lang", language="ru")
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = int(current_table(fake, channel)["id"])
    assert labels(fake, table) == ["Check", text("ru", "button.my_cards")]
    fake.limit_channel(channel, 1.0)  # Discord makes the channel wait: the table's edit waits its turn
    await fake.slash(ann, channel, "check")
    while not fake.limited:
        await asyncio.sleep(0.01)
    await bot.adapter.delivery.close()  # the process dies: what was queued is lost
    await bot.stop()
    assert "→ Bob" not in fake.messages[table]["content"]

    await bot.start()
    await bot.settled()

    assert "→ Bob" in fake.messages[table]["content"]
    assert labels(fake, table) == ["Check", text("ru", "button.my_cards")]


async def test_lang_redraws_a_table_whose_game_writes_the_same_text_in_every_language(fake: FakeDiscord, turns,
                                                                                       make_bot) -> None:
    """The scripted game's table reads the same in every language; only the "my cards" button the adapter adds is the
    guild's. `/lang ru` in the first channel redraws the second channel's hand with that button in Russian: the board
    used to compare the redrawn state with the one shown by its text and the game's buttons alone, found them equal
    and left "My cards" as it was."""
    bot = await make_bot()
    here, playing = fake.channels
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, playing, "join")
    await fake.slash(ann, playing, "deal")
    await bot.settled()
    table = int(current_table(fake, playing)["id"])
    assert labels(fake, table) == ["Check", text("en", "button.my_cards")]
    edits = fake.edits_of(table)

    await fake.slash(ann, here, "lang", language="ru")
    await bot.settled()

    assert fake.edits_of(table) == edits + 1
    assert labels(fake, table) == ["Check", text("ru", "button.my_cards")]
