"""Topping up at a cash table through Telegram: the top-up said in the group with the new stack, the wallet and the
refusals told privately, and a top-up asked for during a hand added when it ends."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import GROUP


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_seated_player_tops_up_between_hands_and_for_the_next_hand(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")  # Ann's wallet: 1,000 - 200
    await bot.command(ANN, "/join 150")
    assert bot.group()[-1].text == "ann tops up 150 chips: stack 350."
    assert api.chat(ANN["id"])[-1].text == "Your wallet: 650 chips."
    shown = len(bot.group_texts())
    await bot.command(ANN, "/join 1700")  # the maximum buy-in is 2,000: 1,650 more at most
    assert api.chat(ANN["id"])[-1].text == ("A top-up of 1,700 would take your stack (350) over the table's maximum "
                                            "buy-in (2,000): at most 1,650.")
    assert len(bot.group_texts()) == shown, "a refusal was shown in the group"

    await bot.command(ANN, "/deal")  # heads-up, Ann has the button and the small blind: she acts first
    await bot.command(ANN, "/join")
    assert api.chat(ANN["id"])[-1].text == ("Your stack is topped up to the table's buy-in (400) when this hand ends, "
                                            "before the next deal.")
    await bot.command(ANN, "/fold")  # 350 - 10 = 340: 60 up to the buy-in
    assert "ann tops up 60 chips: stack 400." in [sent.text for sent in bot.group()]
    assert api.chat(ANN["id"])[-1].text == "Your wallet: 590 chips."
    assert not any("wallet" in text for text in bot.group_texts()), "the wallet was told in the group"
    wallets = await bot.store.read(lambda tx: tx.balances("wallet:"))
    assert wallets == {f"wallet:tg:{GROUP['id']}:tg:101": 590, f"wallet:tg:{GROUP['id']}:tg:102": 800}
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
