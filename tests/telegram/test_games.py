"""Real games through Telegram: a Hold'em hand and a Russian Poker round played by three users in a group."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from bot.store import Store
from tests.bot.helpers import at, resumed_table
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running, private_chat
from tests.telegram.fake_api import GROUP, Sent

USERS = {"ann": ANN, "Bob Brown": BOB, "cat": CAT}
TO_ACT = re.compile(r"^▶ (.+?)(?: to act|, box \d+:)", re.MULTILINE)
PREFERENCE = ("check", "call", "play", "decline", "fold")
VERBS = {"fold": "folds.", "check": "checks.", "call": "calls", "raise": "raises to", "bet": "bets"}
"""How the table's story words each Hold'em command: `<name> <verb>…`."""
HOUSE_VERBS = {"play": "plays", "fold": "folds", "exchange": "exchanges", "decline": "does not"}
"""How it words a house-game decision: `<name>, box 1: <verb>…`."""


def to_act(message: Sent) -> dict[str, Any] | None:
    """The user the table message says must act, None when nobody must."""
    found = TO_ACT.search(message.text)
    return USERS[found.group(1)] if found else None


def command_of(button: dict[str, Any]) -> str:
    return str(button["callback_data"]).rsplit("|", 1)[1]


def group_texts_in_order(bot: Running) -> list[str]:
    """Every text sent or edited into the group (a picture's caption too), in the order the bot sent them."""
    return [request.params.get("text") or request.params.get("caption") or "" for request in bot.api.requests
            if request.method in ("sendMessage", "editMessageText", "sendPhoto")
            and int(request.params["chat_id"]) == GROUP["id"]]


async def play_out(bot: Running, table: Sent, choose=None, pressed: list[tuple[str, str]] | None = None) -> int:
    """Press buttons on the table message for whoever it says must act, until nobody must; returns the presses
    (and adds to `pressed` who pressed which command, by display name)."""
    names = {user["id"]: name for name, user in USERS.items()}
    for presses in range(60):
        current = bot.api.messages[GROUP["id"], table.message_id]
        user = to_act(current)
        if user is None:
            return presses
        buttons = [button for button in current.buttons() if command_of(button) != "cards"]
        button = (choose(current, buttons) if choose else None) or next(
            button for word in PREFERENCE for button in buttons if command_of(button).split()[0] == word)
        before = current.text, current.reply_markup
        if pressed is not None:
            pressed.append((names[user["id"]], command_of(button)))
        answer = await bot.press_data(user, current, button["callback_data"])
        after = bot.api.messages[GROUP["id"], table.message_id]
        assert (after.text, after.reply_markup) != before, f"{button} changed nothing: {answer}"
    raise AssertionError("the hand did not end")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_holdem_hand_by_three_users_in_a_group(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.command(ANN, "/start", private_chat(ANN))
    await bot.seat_three_and_deal()
    table = bot.table_message()
    assert "hand #1" in table.text.split("\n")[0].lower()  # "Hold'em — hand #1 · blinds …"
    hole = {"ann": api.chat(ANN["id"])[-1].text}
    assert hole["ann"].startswith("Your cards: ")
    for name, user in (("Bob Brown", BOB), ("cat", CAT)):
        answer = await bot.press(user, table, "my cards")
        assert answer["show_alert"] is True and answer["text"].startswith("Your cards: ")
        hole[name] = answer["text"]
    assert len(set(hole.values())) == 3

    pressed: list[tuple[str, str]] = []
    presses = await play_out(bot, table, pressed=pressed)
    assert presses >= 3
    final = api.messages[GROUP["id"], table.message_id]
    assert to_act(final) is None and not [b for b in final.buttons() if command_of(b) != "cards"]
    told = final.history  # the table message tells every action across its edits
    for name, command in pressed:
        assert any(f"\n{name} {VERBS[command.split()[0]]}" in text for text in told), (name, command)
    later = [sent for sent in bot.group() if sent.message_id > table.message_id]
    assert len(later) == 1 and later[0].text.startswith("Showdown — "), "no narration message, only the showdown's"
    assert later[0].photo is not None, "the showdown's text is its picture's caption: one message, one request"
    texts = group_texts_in_order(bot)
    showdown = next(index for index, text in enumerate(texts) if "Showdown" in text)
    cards = {name: text.removeprefix("Your cards: ").split(" · ")[0] for name, text in hole.items()}
    for text in texts[:showdown]:
        for name, shown in cards.items():
            assert shown not in text, f"{name}'s cards {shown} were in the group before the showdown: {text!r}"
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_russian_poker_round_by_three_users_with_an_exchange(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=5)
    await bot.command(ANN, "/game russian")
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/ante 10")
    table = bot.table_message()
    await bot.press(CAT, table, "deal")
    table = bot.table_message()
    boxes = {}
    for user in (ANN, BOB, CAT):
        answer = await bot.press(user, table, "my cards")
        found = re.search(r"box 1: (.+)", answer["text"])
        assert answer["show_alert"] is True and found, answer
        boxes[user["first_name"]] = found.group(1).strip()
    exchanged: list[str] = []

    def choose(current: Sent, buttons: list[dict[str, Any]]) -> dict[str, Any] | None:
        # the first player to act picks cards 2 and 5 by buttons and exchanges them; everyone else plays on
        user = to_act(current)
        if exchanged and exchanged[0] != user["first_name"]:
            return None
        commands = [command_of(button) for button in buttons]
        if "exchange 2 5" in commands:
            exchanged.append(user["first_name"])
            return buttons[commands.index("exchange 2 5")]
        for command, button in zip(commands, buttons, strict=True):
            if command.startswith("select") and command.split()[1:] in (["2"], ["2", "5"]):
                if not exchanged:
                    exchanged.append(user["first_name"])
                return button
        return None

    pressed: list[tuple[str, str]] = []
    await play_out(bot, table, choose, pressed)
    assert exchanged, "no exchange was offered"
    told = api.messages[GROUP["id"], table.message_id].history  # every decision, told in the table message
    decisions = [(name, command) for name, command in pressed if not command.startswith("select")]
    assert len(decisions) >= 3
    for name, command in decisions:
        assert any(f"\n{name}, box 1: {HOUSE_VERBS[command.split()[0]]}" in text for text in told), (name, command)
    later = [sent for sent in bot.group() if sent.message_id > table.message_id]
    assert len(later) == 1 and "Round over: " in later[0].text, "no narration message, only the result's"
    assert later[0].photo is not None, "the result is its picture's caption: one message, one request"
    shown = [button["text"] for request in api.requests if request.method == "editMessageText"
             for row in (request.params.get("reply_markup") or {}).get("inline_keyboard", []) for button in row]
    assert "☑ 2" in shown and "☑ 5" in shown  # the card choice was drawn as buttons
    texts = group_texts_in_order(bot)
    over = next(index for index, text in enumerate(texts) if "Round over" in text)
    for text in texts[:over]:
        for name, cards in boxes.items():
            assert cards not in text, f"{name}'s box {cards} was in the group during the round: {text!r}"
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
@pytest.mark.telegram_allows_429  # the restarted bot's budget starts empty; Telegram remembers the last minute
async def test_a_restart_in_the_middle_of_a_holdem_hand_resumes_with_working_buttons(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=3)
    await bot.seat_three_and_deal()
    table = bot.table_message()
    first = to_act(table)
    await bot.press_data(first, table, next(b["callback_data"] for b in table.buttons()
                                            if command_of(b) in ("call", "check")))
    before_restart = api.messages[GROUP["id"], table.message_id]
    await bot.stop()

    restarted = time.monotonic()
    again = await make_bot("holdem", seed=3)
    assert await play_out(again, before_restart) >= 1  # the buttons of the message posted before the restart work
    assert all(call.at >= restarted for call in api.rejected), "a 429 only where the budget was forgotten"
    final = api.messages[GROUP["id"], table.message_id]
    assert to_act(final) is None
    hand_messages = [sent for sent in again.group() if sent.history[0] == table.history[0]]
    assert hand_messages == [final]  # the same message was edited, not a new one posted
    assert await again.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_hand_voided_at_start_up_is_announced_in_the_group(make_bot, api, tmp_path) -> None:
    bot = await make_bot("holdem", seed=3)
    await bot.seat_three_and_deal()
    await bot.stop()
    store = await Store.open(bot.path)

    def corrupt(tx) -> None:  # a snapshot this version cannot read back
        [table_id] = [table_id for table_id in tx.table_ids()
                      if (resumed_table(store, tx, table_id)[1] or {}).get("hand")]
        config, state = resumed_table(store, tx, table_id)
        del state["hand"]["deck"]
        tx.save_table(table_id, tx.load_table_json(table_id)[0], config, state)

    await store.transact(corrupt, now=bot.clock.now())
    await store.close()

    again = await make_bot("holdem", seed=3)
    for _ in range(100):  # the service kept the announcement until the adapter subscribed; it is sent from a task
        await again.adapter.flush()
        if any("could not be resumed" in sent.text for sent in again.group()):
            break
        await asyncio.sleep(0.01)
    voided = [sent.text for sent in again.group() if "could not be resumed" in sent.text]
    assert voided == ["Hand #1 could not be resumed after a restart: it is void and every chip went back to whoever "
                      "put it in."]
    assert await again.store.read(lambda tx: tx.check_ledger()) == []


async def home_night_started(make_bot: Any, players: tuple[dict[str, Any], ...] = (ANN, BOB, CAT),
                             private: tuple[dict[str, Any], ...] = ()) -> Running:
    """A Hold'em bot (seed 5) whose group started a `home-night` tournament at 18:00 with `players` (ann, Bob and cat
    unless told), ann creating it, after those in `private` opened their private chat with the bot: its first hand is
    dealt."""
    bot: Running = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    for user in private:
        await bot.command(user, "/start", private_chat(user))
    await bot.command(ANN, "/tournament create home-night")
    for user in players:
        await bot.command(user, "/join")
    await bot.command(ANN, "/tournament start")
    return bot


async def test_the_tournament_clock_is_announced_in_the_group(make_bot, api) -> None:
    bot = await home_night_started(make_bot)
    assert any("Level 1: limits 10/20" in text for text in group_texts_in_order(bot))
    table = bot.table_message()
    assert to_act(table) is not None  # the first hand's buttons are up
    for moment, announcement in ((at(18, 55), "⏱ Break in 5 minutes."), (at(18, 59), "⏱ Break in 1 minute."),
                                 (at(19, 0, 1), "⏸ Break until 20:00."), (at(19, 55), "to 50/100 in 5 minutes."),
                                 (at(19, 59), "in 1 minute."), (at(20, 0, 1), "▶ Play resumes: limits 50/100.")):
        await bot.fire_timers_at(moment)  # each when its timer fires: a late one is replaced by the clock's state
        assert any(announcement in sent.text for sent in bot.group()[-3:]), announcement


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_table_posts_the_table_anew_at_the_bottom_and_moves_its_buttons_there(make_bot, api) -> None:
    """In a busy group the table message scrolls out of sight: `/table` brings it to the bottom, with its buttons;
    the old message keeps what it showed, without buttons, and says the table moved below."""
    bot = await make_bot("holdem", seed=5)
    await bot.seat_three_and_deal()
    await bot.adapter.flush(retired=True)  # (the seats message shown before the deal has lost its Deal button)
    old = bot.table_message()
    shown, requests = (old.text, old.reply_markup), len(api.requests)
    await bot.command(BOB, "/table")
    await bot.adapter.flush(retired=True)  # the old message is taken out of play last, after everything else
    new = bot.group()[-1]
    assert new.message_id != old.message_id and (new.text, new.reply_markup) == shown
    assert old.text == f"{shown[0]}\n\n⬇ The table moved below." and old.buttons() == []  # (as the group shows it)
    assert [request.method for request in api.requests[requests:] if request.method != "getUpdates"] == [
        "sendMessage", "editMessageText"]  # two requests: the table below, the old message without its buttons
    user = to_act(new)
    assert user is not None
    await bot.press(user, new, "call")  # play goes on in the new message
    assert new.text != shown[0] and len(new.history) == 2
    assert old.history[-1] == f"{shown[0]}\n\n⬇ The table moved below."  # not edited again
    await bot.command(CAT, "/status")  # its other name
    assert bot.table_message().message_id not in (old.message_id, new.message_id)


async def test_a_house_tables_commands_read_as_typed_in_the_group(make_bot, api) -> None:
    """Discord names `/ante`'s options as its slash command shows them (`bot.discord.typed`); a Telegram group types
    its commands, and reads them as typed: the game's announcement and the table's "bets are open"."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/game three-card")
    await bot.command(ANN, "/ante 10 pp 10")
    assert bot.group_texts()[0] == "This table now plays Three Card Poker: place your ANTE with /ante chips."
    assert bot.table_message().text == (
        "Three Card Poker — round 1\nBets are open: /ante chips [box 1-3] [pp chips], then /deal (or wait a moment).\n"
        "  ann · box 1 · ANTE 10 · PAIRPLUS 10 · waiting\n\nann bets on box 1: ANTE 10, PAIRPLUS 10.")
