"""Presses of buttons the bot did not draw on the message as it is now. A button's custom id names a channel, but the
table is always the channel the press came from: an id naming another guild's table is refused and moves nothing. A
button the bot has since taken off its message (a client's refresh lags) is answered as any press of an old hand's
button, and moves nothing either."""

from __future__ import annotations

import copy

import pytest

from bot.discord.buttons import table_view
from bot.i18n import text
from bot.output import Actor, Place
from tests.bot.helpers import ledger_ok, press_label
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_games import action, current_table, play_out

OTHER_GUILD = 910_000_000_000_000_777
OTHER_CHANNEL = 920_000_000_000_000_777


async def everything(bot, table_id: str = f"dc:{OTHER_CHANNEL}") -> tuple[list[tuple], str | None, dict[str, int]]:
    """The ledger, a table (the other guild's) and every wallet, to prove that nothing moved."""

    def read(tx):
        rows = tx.every_move()
        return rows, tx.load_table_json(table_id), tx.balances("wallet:")

    return await bot.service.store.read(read)


@pytest.mark.parametrize("command", ["play", "cards"])
async def test_a_custom_id_naming_another_guilds_channel_is_refused(fake: FakeDiscord, make_bot, command: str) -> None:
    bot = await make_bot()
    ann = fake.add_member("Ann")
    # Ann also plays Three Card Poker in another guild where this bot runs: a round is waiting for her decision
    elsewhere, her = Place(f"dc:{OTHER_GUILD}", f"dc:{OTHER_CHANNEL}"), Actor(f"dc:{ann.id}", "Ann")
    assert (await bot.service.handle(elsewhere, her, "/game three-card")).error is None
    assert (await bot.service.handle(elsewhere, her, "/ante 10")).error is None
    round_ = await bot.service.handle(elsewhere, her, "/deal")
    assert round_.table is not None and round_.table.to_act == her.user_id

    # here, in this guild's channel, a message carries that other table's buttons (their ids name its channel)
    await fake.slash(ann, fake.channels[0], "join")
    await bot.settled()
    message = fake.channel_messages(fake.channels[0])[-1]
    message["components"] = table_view(OTHER_CHANNEL, round_.table, "en").to_components()
    payload = f"{round_.table.key}|cards" if command == "cards" else press_label(round_, command)
    forged = next(item["custom_id"] for item in fake.buttons(message) if item["custom_id"].endswith(payload))
    before = await everything(bot)
    pressed = await fake.press(ann, message, forged)
    await bot.settled()

    assert pressed.ephemeral_text() == text("en", "discord.other_table")
    assert await everything(bot) == before
    # her ante is still on the other table's box, and its PLAY kept for it
    assert before[2][f"wallet:dc:{OTHER_GUILD}:dc:{ann.id}"] == 980
    await ledger_ok(bot.service)


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_button_the_bot_has_since_taken_off_its_message_is_answered_in_the_members_language(
        fake: FakeDiscord, make_bot, locale: str) -> None:
    """Ann's client still shows hand 1's Fold after the hand ended and the bot edited its message. Her press comes with
    the message as Discord has it now, without that button, so discord.py finds no item to hand it to: the adapter
    answers it as any old hand's button (it went unanswered, and she read "This interaction failed")."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    ann.locale = locale
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    old = copy.deepcopy(current_table(fake, channel))  # as Ann's client still shows it
    fold = action(fake, old, "fold")
    await play_out(fake, bot, channel, "fold")
    assert fold not in [button["custom_id"] for button in fake.buttons(fake.messages[int(old["id"])])]
    before, said = await everything(bot, f"dc:{channel}"), len(fake.public_versions())

    stale = await fake.press(ann, old, fold)
    await bot.settled()
    assert stale.ephemeral_text() == text(locale[:2], "stale_button")
    assert stale.texts(ephemeral=False) == [] and fake.public_versions()[said:] == []
    assert await everything(bot, f"dc:{channel}") == before
    assert fake.failed == []
    await ledger_ok(bot.service)
