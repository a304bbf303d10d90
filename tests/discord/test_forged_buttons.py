"""A button's custom id names a channel, but the table is always the channel the press came from: an id naming
another guild's table is refused and moves nothing."""

from __future__ import annotations

import pytest

from bot.discord.buttons import table_view
from bot.i18n import text
from bot.output import Actor, Place
from tests.bot.helpers import ledger_ok, press_label
from tests.discord.fake_discord import FakeDiscord

OTHER_GUILD = 910_000_000_000_000_777
OTHER_CHANNEL = 920_000_000_000_000_777


async def everything(bot) -> tuple[list[tuple], str | None, dict[str, int]]:
    """The ledger, the other guild's table and every wallet, to prove that nothing moved."""
    table_id = f"dc:{OTHER_CHANNEL}"

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
    message = dict(fake.channel_messages(fake.channels[0])[-1])
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
