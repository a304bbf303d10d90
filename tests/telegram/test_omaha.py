"""Pot-Limit Omaha and the rabbit hunt through Telegram: four hole cards each, pot-limit buttons, an over-the-pot raise
refused with the limit named, and `/rabbit` after a hand that ended before the river."""

from __future__ import annotations

import re

import pytest

from bot.telegram.render import place_of
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import GROUP
from tests.telegram.test_games import command_of, play_out, to_act

CARD = r"[2-9TJQKA][♠♥♦♣]"
TABLE = place_of(GROUP["id"], None).table_id


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_pot_limit_omaha_hand_by_three_users_in_a_group(make_bot, api) -> None:
    bot = await make_bot("omaha", seed=11)
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/join 400")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert table.text.split("\n")[0] == "Omaha — hand #1 · blinds 10/20 · pot-limit"
    assert re.fullmatch(f"Your cards: {CARD} {CARD} {CARD} {CARD}", api.chat(ANN["id"])[-1].text)
    answer = await bot.press(BOB, table, "my cards")
    assert re.fullmatch(f"Your cards: {CARD} {CARD} {CARD} {CARD}", answer["text"])

    # under the gun, three-handed: pot 30, call 20 → raise to at most 20 + 50 = 70; the pot button says so
    first = to_act(table)
    assert first is not None
    assert [command_of(button) for button in table.buttons() if command_of(button).startswith("raise")] == [
        "raise 40", "raise 45", "raise 70"]  # min, ½ pot, pot
    rows = await bot.store.read(lambda tx: tx.ledger_rows(TABLE, "h1"))
    before = table.text
    await bot.command(first, "/raise 71")
    refusal = [sent.text for sent in (*bot.group(), *api.chat(first["id"])) if "Pot limit" in sent.text]
    assert refusal == ["Pot limit: you can bet or raise to at most 70, not 71."]
    assert bot.api.messages[GROUP["id"], table.message_id].text == before, "the refused raise changed nothing"
    assert await bot.store.read(lambda tx: tx.ledger_rows(TABLE, "h1")) == rows, "no chip moved"

    pot = next(button for button in table.buttons() if command_of(button) == "raise 70")
    assert pot["text"] == "Pot: 70"
    await bot.press_data(first, table, pot["callback_data"])
    after = bot.api.messages[GROUP["id"], table.message_id].text
    assert "raises to 70" in after

    await play_out(bot, table)
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
    assert (await bot.store.read(lambda tx: tx.history(TABLE, "h1")))[0]["variant"] == "omaha"
    showdown = [sent.text for sent in bot.group() if sent.text.startswith("Showdown — ")]
    assert len(showdown) == 1  # seed 11: the checks and calls go to a showdown of three hands
    lines = showdown[0].split("\n")  # shown in turn: the hand beaten by one already up is mucked (automuck)
    shown = [line.removeprefix("Showdown — ") for line in lines if line.startswith("Showdown — ")]
    mucked = [line for line in lines if line.endswith(" mucks.")]
    assert len(shown) == 2 and len(mucked) == 1
    assert all(re.fullmatch(f".+: {CARD} {CARD} {CARD} {CARD} \\(.+\\)", hand) for hand in shown)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_rabbit_hunt_after_a_hand_that_ended_before_the_river(make_bot, api) -> None:
    bot = await make_bot("omaha", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/start", private_chat(user))
        await bot.command(user, "/join 400")
    await bot.command(ANN, "/rabbit")  # refusals are answered privately
    assert api.chat(ANN["id"])[-1].text == "No hand has finished here yet: there is nothing to hunt."
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    await bot.command(BOB, "/rabbit")
    assert api.chat(BOB["id"])[-1].text == \
        "Wait for the hand to end: the rabbit hunt shows the cards of a finished hand."
    first = to_act(table)
    assert first is not None
    await bot.command(first, "/fold")  # heads-up, the button folds preflop: five cards were still to come
    await bot.command(CAT, "/rabbit")  # any player of the chat may ask
    text = bot.group()[-1].text
    assert re.fullmatch(f"🐇 cat hunts the rabbit of hand #1: the board would have been "
                        f"{CARD} {CARD} {CARD} {CARD} {CARD}. Nothing changes.", text), text
    holes = {card for user in (ANN, BOB) for sent in api.chat(user["id"]) if sent.text.startswith("Your cards: ")
             for card in re.findall(CARD, sent.text)}
    assert len(holes) == 8 and not holes & set(re.findall(CARD, text)), "the rabbit comes from the undealt cards"
    await bot.command(ANN, "/rabbit")
    assert bot.group()[-1].text.split(": ")[1:] == text.split(": ")[1:], "the same cards, asked again"
    history = await bot.store.read(lambda tx: tx.history(TABLE, "h1"))
    hunts = [event for event in history if event["kind"] == "RabbitHunted"]
    assert [event["player"] for event in hunts] == [f"tg:{CAT['id']}", f"tg:{ANN['id']}"]  # marked in the history
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
