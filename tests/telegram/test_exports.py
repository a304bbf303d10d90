"""`/export ledger` through Telegram: the CSV file goes to the organizer's private chat, never to the group."""

from __future__ import annotations

import csv
import io

import pytest

from tests.bot.helpers import at
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import GROUP


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_ledger_export_goes_to_the_organizers_private_chat(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(BOB, "/export ledger")  # refused privately: the group reads only where to read why
    assert api.documents == []
    assert bot.group_texts()[-1] == ("Bob Brown, I can only answer you privately: open a private chat with me "
                                     "(https://t.me/pokerbot?start=cards_m100500), press Start, then send "
                                     "/\u2060export ledger here again.")
    before = bot.group_texts()
    await bot.command(ANN, "/export ledger")
    ((chat_id, name, content),) = api.documents
    assert chat_id == ANN["id"] != GROUP["id"] and name == "ledger-2026-11-29.csv"
    rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))
    assert [(row["reason"], row["to player"], row["chips"]) for row in rows] == [
        ("welcome grant", "ann", "1000"), ("buy-in", "ann", "200"),  # Ann goes by her username
        ("welcome grant", "Bob Brown", "1000"), ("buy-in", "Bob Brown", "200")]
    assert any(text.startswith("The chat's ledger, 4 rows, is in the file") for text in
               (sent.text for sent in api.chat(ANN["id"])))
    assert bot.group_texts() == before, "nothing of the ledger reaches the group"
