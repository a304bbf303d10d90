"""Playing at Telegram's pace, end to end against the fake Bot API and its flood limits: the send budget, chats served
independently, presses answered first, timers that never wait, pauses when the bot is removed, supergroup
migrations, groups that refuse pictures, and the private-chat hint once per player."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import pytest

import engine.holdem as engine
from bot.telegram.hints import start_payload, table_of_payload
from bot.telegram.ops import TextOp
from bot.telegram.render import place_of
from tests.bot.helpers import resumed_table
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running, private_chat
from tests.telegram.fake_api import GROUP, FakeBotApi
from tests.telegram.test_forum_pace import wait_for
from tests.telegram.test_games import command_of, play_out, to_act

DAN = {"id": 104, "is_bot": False, "first_name": "Dan", "username": "dan"}
EVE = {"id": 105, "is_bot": False, "first_name": "Eve", "username": "eve"}
FAY = {"id": 106, "is_bot": False, "first_name": "Fay", "username": "fay"}
SIX = (ANN, BOB, CAT, DAN, EVE, FAY)
BY_KEY = {f"tg:{user['id']}": user for user in SIX}
OTHER = {"id": -100600, "type": "supergroup", "title": "Second table"}
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
TABLE = place_of(GROUP["id"], None).table_id


def group_requests(api: FakeBotApi, chat_id: int = GROUP["id"]) -> list[float]:
    """When each limited request to a chat arrived."""
    return [call.at for call in api.requests if call.method.startswith(("send", "edit"))
            and int(call.params.get("chat_id", 0)) == chat_id]


def busiest_minute(stamps: list[float], minute: float = 60.0) -> int:
    """The most requests in any `minute` (60 s, or less on a fast clock)."""
    return max((sum(1 for other in stamps if stamp <= other < stamp + minute) for stamp in stamps), default=0)


async def hand_of(bot: Running, table_id: str = TABLE) -> engine.Hand | None:
    stored = await bot.store.read(lambda tx: resumed_table(bot.store, tx, table_id))
    assert stored is not None
    data = (stored[1] or {}).get("hand")
    return engine.Hand.from_dict(data) if data else None


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_six_player_hand_with_instant_presses_provokes_no_429(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    for user in SIX:
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    presses = 0
    while (hand := await hand_of(bot)) is not None and hand.to_act is not None:
        user = BY_KEY[hand.to_act]
        for word in ("check", "call"):  # as fast as the test can press: never waiting for the group to show it
            update, query_id = api.press_update(user, table, f"h1|{word}")
            await bot.handled(await api.push(update))
            presses += 1
            if not (api.answer(query_id) or {}).get("show_alert"):
                break
    assert presses >= 20
    await asyncio.sleep(2)  # what the budget lets through in a minute (on the fast clock: a minute is 2 s)
    assert api.rejected == []
    assert busiest_minute(group_requests(api), 60 / api.flood.time_scale) <= 20
    for text in bot.group_texts():
        assert not CARD.search(text.split("Showdown")[0]), f"a card was shown in the group: {text!r}"
    await bot.adapter.outbox.close(0)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_fast_hand_is_shown_to_its_end_within_the_budget(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    for user in SIX[:3]:
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    while (hand := await hand_of(bot)) is not None and hand.to_act is not None:
        for word in ("check", "call"):
            update, query_id = api.press_update(BY_KEY[hand.to_act], table, f"h1|{word}")
            await bot.handled(await api.push(update))
            if not (api.answer(query_id) or {}).get("show_alert"):
                break
    await bot.adapter.flush()
    assert api.rejected == []
    final = api.messages[GROUP["id"], table.message_id]
    assert to_act(final) is None  # the final state is shown, however many states were skipped on the way
    assert len(api.calls("editMessageText")) < len(final.history) + 5


async def test_a_429_in_one_group_does_not_delay_another_groups_answer(make_bot, api) -> None:
    bot = await make_bot("duel")
    api.fail("sendMessage", 429, "Too Many Requests: retry after 10", retry_after=10)
    await bot.handled(await api.push(api.command_update(ANN, "/join")))  # the group waits out its 10 s
    await wait_for(lambda: api.calls("sendMessage"), "the group's line refused")
    await bot.handled(await api.push(api.command_update(BOB, "/join", OTHER)))
    await wait_for(lambda: api.chat(OTHER["id"]), "the other group answered")
    assert [sent.text for sent in api.chat(OTHER["id"])] == ["Bob Brown sits down."]
    assert api.chat(GROUP["id"]) == []  # answered while the first group still waits its 10 s, and only that group
    await bot.adapter.outbox.close(0)


async def test_chats_are_handled_at_once_and_one_chats_updates_one_after_another(make_bot, api) -> None:
    bot = await make_bot("duel")
    group = place_of(GROUP["id"], None)
    handle = bot.service.handle
    held = asyncio.Event()
    seen: list[str] = []  # the group's commands as the service starts and ends them

    async def held_in_the_group(place: Any, actor: Any, text: str) -> Any:
        if place != group:
            return await handle(place, actor, text)
        seen.append(f"{actor.name} starts")
        if len(seen) == 1:
            await held.wait()  # the group's first command takes long (a slow database, say)
        reply = await handle(place, actor, text)
        seen.append(f"{actor.name} ends")
        return reply

    bot.service.handle = held_in_the_group  # type: ignore[method-assign]
    try:
        first = await api.push(api.command_update(ANN, "/join"))
        await wait_for(lambda: seen, "Ann's command started")
        second = await api.push(api.command_update(BOB, "/join"))  # the same group: waits for Ann's
        await bot.handled(await api.push(api.command_update(CAT, "/join", OTHER)))  # another group: not held
        await wait_for(lambda: api.chat(OTHER["id"]), "the other group answered")
        assert [sent.text for sent in api.chat(OTHER["id"])] == ["cat sits down."]
        assert seen == ["ann starts"], "the group's second update waits for its first"
    finally:
        held.set()
    await bot.handled(first)
    await bot.handled(second)
    await bot.adapter.flush()
    assert seen == ["ann starts", "ann ends", "Bob Brown starts", "Bob Brown ends"]
    shown = "\n".join(bot.group_texts())
    assert shown.index("ann sits down.") < shown.index("Bob Brown sits down.")


async def test_a_failed_callback_answer_still_delivers_the_table_update(make_bot, api) -> None:
    bot = await make_bot("duel")
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    api.fail("answerCallbackQuery", 400, "Bad Request: query is too old and response timeout expired or query ID "
             "is invalid")
    await bot.press(ANN, table, "check")
    assert api.messages[GROUP["id"], table.message_id].text.startswith("Round 1\nann checks\nTo act: Bob Brown")
    assert not any("Sorry" in text for text in bot.group_texts())
    first = api.requests.index(next(call for call in api.requests if call.method == "answerCallbackQuery"))
    assert all(call.method != "editMessageText" for call in api.requests[:first])  # answered before the edit


async def test_a_timer_never_waits_on_the_network(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/clock")
    api.delays["sendMessage"] = 2.0  # Telegram is slow
    bot.clock.current += 301
    assert await bot.service.scheduler.fire_due() == 1
    assert bot.group()[-1].text != "Level 2 in 5 minutes: blinds 20/40."  # back while it takes Telegram 2 s
    await bot.adapter.flush()
    assert bot.group()[-1].text == "Level 2 in 5 minutes: blinds 20/40."


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_press_that_meets_the_turn_timer_leaves_the_newest_state_shown(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.seat_three_and_deal()
    table = bot.table_message()
    first = to_act(table)
    call = next(button for button in table.buttons() if command_of(button).split()[0] == "call")
    # the database thread is busy a moment (a VACUUM, say): the timer's job, which holds its table, waits its turn
    busy = asyncio.create_task(bot.store.outside_transaction(lambda connection: time.sleep(0.2)))
    await asyncio.sleep(0.01)
    bot.clock.current += 60  # his turn's time runs out just as he presses Call: the timer takes the table first
    firing = asyncio.create_task(bot.service.scheduler.fire_due())
    await asyncio.sleep(0.05)
    assert not firing.done(), "the timer's job waits for the database thread, its table held"
    update, _ = api.press_update(first, table, call["callback_data"])  # his press waits for the table
    await bot.handled(await api.push(update))
    await busy
    await firing  # the service made the timer's state (his time bank runs), then the press's (the next to act)
    await bot.adapter.flush()
    shown = api.messages[GROUP["id"], table.message_id]
    assert to_act(shown) not in (None, first), "the timer's older state was shown over the press's"
    assert not any("is using the time bank" in text for text in shown.history)
    follow = next(button for button in shown.buttons() if command_of(button).split()[0] in ("call", "check"))
    answer = await bot.press_data(to_act(shown), shown, follow["callback_data"])
    assert "text" not in answer, "the buttons shown were drawn for an older turn"


async def test_a_removed_bot_pauses_the_table_and_resumes_it_with_chips_intact(make_bot, api) -> None:
    bot, before = await heads_up_hand_dealt(make_bot)
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ANN)))
    await bot.fire_timers(3600)  # an hour: the turn time-out would have fired long ago
    assert not any("out of time" in text or "timed out" in text.lower() for text in bot.group_texts())
    assert (await hand_of(bot)).to_dict() == before.to_dict()  # type: ignore[union-attr]

    await bot.stop()  # the pause survives a restart
    bot = await make_bot("holdem", seed=3)
    await bot.fire_timers(3600)
    assert (await hand_of(bot)).to_dict() == before.to_dict()  # type: ignore[union-attr]

    await bot.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    assert not bot.service.is_paused(TABLE)
    await bot.fire_timers(20)  # within the grace a resumed turn gets: still nobody timed out
    assert (await hand_of(bot)).to_dict() == before.to_dict()  # type: ignore[union-attr]
    await bot.fire_timers(60)  # the turn's time runs out: the player's time bank runs (60 s), then the time-out
    assert "is using the time bank" in bot.table_message().text
    await bot.fire_timers(61)
    after = await hand_of(bot)
    assert after is None or after.to_dict() != before.to_dict()  # play went on: the turn timed out
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
    stacks = await bot.store.read(lambda tx: tx.balances("stack:"))
    wallets = await bot.store.read(lambda tx: tx.balances("wallet:"))
    assert sum(stacks.values()) + sum(wallets.values()) == 2000  # every chip of the two grants is still there


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_refuses_the_bot_pauses_its_table_until_a_message_comes_from_it(make_bot, api) -> None:
    """Kicked from the group, and the membership update never came: Telegram answers 403 Forbidden to its sends. The
    table pauses as when the bot is removed, rather than timing out players nobody can see; a message from the
    group says the bot is back in it."""
    bot = await make_bot("holdem", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    api.fail("editMessageText", 403, "Forbidden: bot was kicked from the supergroup chat")
    await bot.fire_timers(60)  # the turn's time runs out: the time bank starts, and its edit is refused
    assert bot.service.is_paused(TABLE)
    assert bot.adapter.outbox.pending(GROUP["id"]) == 0
    before = await hand_of(bot)
    await bot.fire_timers(3600)
    assert (await hand_of(bot)).to_dict() == before.to_dict()  # type: ignore[union-attr]

    await bot.command(ANN, "/table")  # added back: the group is heard from again
    assert not bot.service.is_paused(TABLE)
    await bot.fire_timers(61)  # the time bank runs on from where it stopped (with at least 30 s of grace)
    after = await hand_of(bot)
    assert after is None or after.to_dict() != before.to_dict()  # type: ignore[union-attr]  # play went on
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_press_on_a_paused_tables_button_resumes_it_as_a_message_does(make_bot, api) -> None:
    """A press on the table message's button, in the group that had refused the bot, left the table paused (only a
    message said the bot was back): the press was answered and nothing moved. Now the press says the group is
    reachable as a message does: the table plays on, and the press itself acts."""
    bot, before = await heads_up_hand_dealt(make_bot)
    api.fail("editMessageText", 403, "Forbidden: bot was kicked from the supergroup chat")
    await bot.fire_timers(60)  # the time bank's edit is refused: the table pauses
    assert bot.service.is_paused(TABLE)
    answer = await bot.press(BY_KEY[before.to_act], bot.table_message(), "Call")
    assert not bot.service.is_paused(TABLE)
    assert not answer.get("show_alert"), answer
    after = await hand_of(bot)
    assert after is not None and after.to_act != before.to_act, "the press called, and the turn moved on"
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


async def play_by_commands(bot: Running, chat: dict[str, Any]) -> None:
    """Play the hand in progress in `chat` to its end: whoever must act calls, or checks when nothing is owed."""
    table_id = place_of(chat["id"], None).table_id
    while (hand := await hand_of(bot, table_id)) is not None and hand.to_act is not None:
        word = "/call" if hand.legal_actions().call_amount else "/check"
        await bot.command(BY_KEY[hand.to_act], word, chat)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_supergroup_migration_keeps_wallets_and_the_hand(make_bot, api) -> None:
    old = {"id": -4001, "type": "group", "title": "Poker night"}
    new = {"id": -1004001, "type": "supergroup", "title": "Poker night"}
    bot = await make_bot("holdem", seed=3)
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB):
        await bot.command(user, "/join 200", old)
    await bot.command(ANN, "/deal", old)
    await play_by_commands(bot, old)  # one hand played to its end before the move: its history must move too
    await bot.command(ANN, "/deal", old)
    old_table = place_of(old["id"], None).table_id
    before = await hand_of(bot, old_table)
    wallets = await bot.store.read(lambda tx: tx.balances("wallet:"))
    assert set(wallets) == {"wallet:tg:-4001:tg:101", "wallet:tg:-4001:tg:102"}

    await bot.handled(await api.push(api.service_update(old, ANN, migrate_to_chat_id=new["id"])))
    await bot.handled(await api.push(api.service_update(new, ANN, migrate_from_chat_id=old["id"])))  # said twice

    new_table = place_of(new["id"], None).table_id
    moved = await hand_of(bot, new_table)
    assert before is not None and moved is not None and moved.to_dict() == before.to_dict()
    assert await bot.store.read(lambda tx: tx.balances("wallet:")) == {
        name.replace("tg:-4001", "tg:-1004001"): chips for name, chips in wallets.items()}
    assert await bot.store.read(lambda tx: tx.balances("wallet:tg:-4001:")) == {}
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []

    user = BY_KEY[moved.to_act or ""]
    await bot.command(user, "/call", new)  # the hand goes on in the supergroup
    shown = [sent for sent in api.chat(new["id"]) if sent.buttons()]
    assert shown and "hand #2" in shown[-1].text  # the same hand's table, now shown in the supergroup
    assert (await hand_of(bot, new_table)).to_dict() != before.to_dict()  # type: ignore[union-attr]

    await bot.command(ANN, "/history", new)  # the hand played before the move is the supergroup's history
    histories = [sent.text for sent in api.chat(ANN["id"]) if "PokerStars Hand #" in sent.text]
    assert histories and histories[-1].startswith("PokerStars Hand #1: "), [sent.text for sent in api.chat(ANN["id"])]


async def test_a_press_on_the_old_group_after_a_migration_reaches_the_moved_table(make_bot, api) -> None:
    old = {"id": -4003, "type": "group", "title": "Poker night"}
    new = {"id": -1004003, "type": "supergroup", "title": "Poker night"}
    bot = await make_bot("holdem", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200", old)
    await bot.command(ANN, "/deal", old)
    old_message = [sent for sent in api.chat(old["id"]) if sent.buttons()][-1]
    await bot.handled(await api.push(api.service_update(old, ANN, migrate_to_chat_id=new["id"])))
    api.migrated[old["id"]] = new["id"]  # Telegram refuses sends to the old group from now on
    new_table = place_of(new["id"], None).table_id
    moved = await hand_of(bot, new_table)
    assert moved is not None and moved.to_act is not None

    # the old group's table message still has its buttons, and its presses come with the old group's id
    answer = await bot.press_data(BY_KEY[moved.to_act], old_message, f"h{moved.hand_number}|call")
    assert not answer.get("show_alert"), answer
    after = await hand_of(bot, new_table)
    assert after is not None and after.to_dict() != moved.to_dict(), "the press reached the moved hand"
    assert await hand_of_or_none(bot, place_of(old["id"], None).table_id) is None, "no table under the old id"
    shown = [sent for sent in api.chat(new["id"]) if sent.buttons()]
    assert shown and "hand #1" in shown[-1].text  # the moved table is shown in the supergroup


async def heads_up_hand_dealt(make_bot: Any) -> tuple[Running, engine.Hand]:
    """A Hold'em bot (seed 3) whose Ann and Bob sat down with 200 chips each and were dealt a hand: the bot, and the
    hand as dealt."""
    bot = await make_bot("holdem", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    hand = await hand_of(bot)
    assert hand is not None and hand.to_act is not None
    return bot, hand


async def hand_of_or_none(bot: Running, table_id: str) -> engine.Hand | None:
    stored = await bot.store.read(lambda tx: tx.load_table(table_id))
    data = (stored[1] or {}).get("hand") if stored else None
    return engine.Hand.from_dict(data) if data else None


async def test_a_send_refused_as_migrated_moves_the_chat_and_arrives(make_bot, api) -> None:
    old = {"id": -4002, "type": "group", "title": "Poker night"}
    bot = await make_bot("duel")
    await bot.command(ANN, "/join", old)
    api.migrated[old["id"]] = -1004002
    await bot.command(BOB, "/join", old)
    assert [sent.text for sent in api.chat(-1004002)] == ["Bob Brown sits down."]
    assert await bot.service.tables_of("tg:-1004002") == ["tg:-1004002:0"]
    assert await bot.service.tables_of("tg:-4002") == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_refused_photos_turn_pictures_off_with_one_notice_and_no_bytes_in_logs(make_bot, api, caplog) -> None:
    api.no_photos.add(GROUP["id"])
    bot = await make_bot("holdem", seed=11)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    with caplog.at_level(logging.DEBUG, logger="bot"):
        await bot.command(ANN, "/deal")
        await play_out(bot, bot.table_message())
        await bot.command(ANN, "/deal")
        await play_out(bot, bot.table_message())
    assert len(api.calls("sendPhoto")) == 1  # the first refusal turned them off
    notices = [text for text in bot.group_texts() if "I may not send pictures" in text]
    assert len(notices) == 1
    assert any(text.startswith("Showdown — ") for text in bot.group_texts()), "the showdown's text still came"
    for record in caplog.records:
        line = record.getMessage() + (str(record.exc_info[1]) if record.exc_info else "")
        assert "PNG" not in line and "\\x89" not in line, line[:200]
    await bot.stop()
    again = await make_bot("holdem", seed=11)  # remembered across a restart
    assert GROUP["id"] in again.adapter.memory.no_photos
    await again.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    assert GROUP["id"] not in again.adapter.memory.no_photos  # allowed again: pictures come back


async def test_the_private_chat_hint_is_posted_once_per_player(make_bot, api) -> None:
    bot = await make_bot("duel")
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    for _ in range(3):
        await bot.command(BOB, "/check")  # out of turn, and Bob has no private chat with the bot
    hints = [text for text in bot.group_texts() if text.startswith("Bob Brown, I can only answer you privately")]
    assert len(hints) == 1
    await bot.stop()
    again = await make_bot("duel")
    await again.command(BOB, "/check")
    assert len([text for text in again.group_texts() if text.startswith("Bob Brown, I can only")]) == 1


LINK = "https://t.me/pokerbot?start=cards_m100500"
"""The deep link that opens the bot's private chat (the fake Bot API's bot is @pokerbot), naming the group's table."""


async def five_quiet_minutes(bot: Running, user: dict[str, Any], *commands: str, why: str) -> None:
    """`user`'s `commands` add nothing to the group (a pointer or a link was posted just before); then five minutes
    pass, after which the next may."""
    count = len(bot.group())
    for command in commands:
        await bot.command(user, command)
    assert len(bot.group()) == count, why
    bot.clock.current += 300


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_after_the_hint_a_private_only_answer_gets_a_short_pointer_now_and_then(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join")
    await bot.command(ANN, "/balance")  # answered only privately, and Ann has no private chat with the bot
    assert bot.group()[-1].text == (f"@ann, I can only answer you privately: open a private chat with me ({LINK}), "
                                    "press Start, then send /balance here again."), "no “My cards” button to press"
    assert api.calls("sendMessage")[-1]["link_preview_options"] == {"is_disabled": True}  # no card of the bot
    await five_quiet_minutes(bot, ANN, "/balance", "/help",
                             why="the hint's link is just above: no pointer with it again a moment after")
    await bot.command(ANN, "/balance")  # not silence for long: a pointer, saying what to do
    assert bot.group()[-1].text == (f"@ann, I answer that only in private: open {LINK}, press Start, then send "
                                    "/balance here again.")
    await five_quiet_minutes(bot, ANN, "/help", "/balance",
                             why="one pointer in five minutes: the group is not filled with them")
    await bot.command(ANN, "/help")
    assert bot.group()[-1].text == (f"@ann, I answer that only in private: open {LINK}, press Start, then send /help "
                                    "here again.")
    await five_quiet_minutes(bot, ANN, why="one pointer in five minutes")
    await bot.command(ANN, "/help@pokerbot   tournament")  # what a tap on /help sends is another answer: the line
    assert bot.group()[-1].text == (f"@ann, I answer that only in private: open {LINK}, press Start, then send "
                                    "/\u2060help tournament here again."), "quoted as a quote is: no tap sends half"


JOIN_AGAIN = {
    "en": ("@ann, I can only answer you privately: open a private chat with me ({link}), press Start, then send /join "
           "here again.", "@ann, I answer that only in private: open {link}, press Start, then send /join here again."),
    "ru": ("@ann, я могу ответить вам только лично: откройте со мной личный чат ({link}), нажмите «Запустить» и снова "
           "отправьте здесь /join.",
           "@ann, на это я отвечаю только лично: откройте {link}, нажмите «Запустить» и снова отправьте здесь /join."),
}
"""The hint and the pointer to a player who typed /join with no private chat with the bot."""
HOW_TO_BET = {
    "en": "Russian Poker: place your ANTE with /ante chips (add “box 2” for a second box; box 3 plays blind: its BET "
          "goes on with the ANTE). Your cards come privately: press “My cards” to see them.",
    "ru": "Русский покер: ставьте АНТЕ командой /ante фишки (добавьте «box 2» — для второго бокса; бокс 3 играет "
          "втёмную: БЕТ ставится вместе с АНТЕ). Карты приходят лично вам: нажмите «Мои карты», чтобы их увидеть.",
}
"""What /join at a Russian Poker table tells the player privately."""


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_join_before_the_private_chat_says_to_open_it_press_start_and_join_again(make_bot, api,
                                                                                         language: str) -> None:
    """Ann joins a house table (how to bet is told privately) before she ever opened a private chat with the bot:
    the hint, and the pointer a later /join gets, say in one line what to do: open it, press Start, then /join
    again (the pointer was the link alone). Once she has, /join tells her privately and the group reads nothing."""
    ann = {**ANN, "language_code": language}
    bot = await make_bot("russian")
    await bot.command(ann, "/join")
    hint, pointer = JOIN_AGAIN[language]
    assert bot.group()[-1].text == hint.format(link=LINK)
    await five_quiet_minutes(bot, ann, "/join", why="the hint's link is just above")
    await bot.command(ann, "/join")
    assert bot.group()[-1].text == pointer.format(link=LINK)
    await bot.command(ann, "/start cards", private_chat(ann))  # she followed the link and pressed Start
    seen = len(bot.group())
    await bot.command(ann, "/join")
    assert len(bot.group()) == seen and api.chat(ann["id"])[-1].text == HOW_TO_BET[language]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_deal_before_the_private_chat_gives_its_link_once_and_the_table_keeps_its_hint(make_bot, api) -> None:
    """Ann deals before she ever opened a private chat with the bot: the group reads its link once, with the hint,
    not again for her command a moment later; the table's own hint still names her (her cards of this hand and the
    next ones) until she opens it."""
    bot = await make_bot("holdem")
    await bot.seat_three_and_deal()
    assert bot.group()[-1].text == (f"@ann, I can only answer you privately: open a private chat with me ({LINK}) "
                                    "and send /start, or press “My cards”.")
    await five_quiet_minutes(bot, ANN, "/balance", why="the hint's link is just above")
    assert bot.table_message().text.endswith(
        "\n\n🂠 Your cards stay private: press “My cards”. Bob Brown, cat, ann: open a private chat with me and send "
        "/start to get them there too.")


async def test_start_in_the_group_answers_with_the_private_chats_link(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(CAT, "/start")  # the hint says to: in the group
    assert bot.group()[-1].text == f"@cat, our private chat opens here (then press Start): {LINK}"
    count = len(bot.group())
    await five_quiet_minutes(bot, CAT, "/start@pokerbot", "/start",
                             why="the link is just above: one in five minutes, as the pointers")
    await bot.command(CAT, "/start@pokerbot")
    assert len(bot.group()) == count + 1
    assert bot.group()[-1].text == f"@cat, our private chat opens here (then press Start): {LINK}"
    await bot.command(CAT, "/start cards", private_chat(CAT))  # he followed the link and pressed Start
    assert api.chat(CAT["id"])[-1].text.startswith("Hello cat! From now on I send your cards")
    count = len(bot.group())
    await bot.command(CAT, "/start")  # now that he has one, /start in the group sends him /help there
    assert len(bot.group()) == count and "/join" in api.chat(CAT["id"])[-1].text


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_private_chats_link_brings_the_player_his_cards_of_the_hand_in_play(make_bot, api) -> None:
    """Following the link the group gave him, a player finds his cards of the hand in play in the private chat at
    once (before, only the greeting came, and he had to go back and press "My cards"): his alone, nothing in the
    group. A player not in the hand is told he has none, in his language; a link naming a table that is not there
    opens nothing; the old link (`start=cards`) only greets, as before."""
    bot = await make_bot("holdem")
    await bot.seat_three_and_deal()  # nobody has a private chat with the bot
    hint = bot.group()[-1].text  # Ann, to act, could not be told privately: the table has a “My cards” button
    assert hint == (f"@ann, I can only answer you privately: open a private chat with me ({LINK}) and send /start, "
                    "or press “My cards”.")
    cards = {user["id"]: (await bot.press(user, bot.table_message(), "my cards"))["text"] for user in (ANN, BOB, CAT)}
    assert all(alert.startswith("Your cards: ") for alert in cards.values()) and len(set(cards.values())) == 3
    await bot.command(BOB, "/start")  # Bob asks the group for the link
    assert bot.group()[-1].text == f"Bob Brown, our private chat opens here (then press Start): {LINK}"
    assert f"({LINK})" in hint
    await bot.adapter.flush(retired=True)  # the old table messages' buttons gone now, not while the links are used
    group = [(sent.text, sent.edits) for sent in bot.group()]

    for user in (ANN, BOB):  # each follows the link and presses Start
        await bot.command(user, "/start cards_m100500", private_chat(user))
        hello, *rest = [sent.text for sent in api.chat(user["id"])]
        assert hello.startswith(f"Hello {user.get('username') or 'Bob Brown'}! From now on I send your cards")
        assert any(cards[user["id"]] in text for text in rest), rest  # the text, or a picture's caption with it
        assert not [text for text in rest for other in cards.values() if other != cards[user["id"]] and other in text]
    assert [(sent.text, sent.edits) for sent in bot.group()] == group, "nothing more in the group"
    assert api.chat(CAT["id"]) == [], "nothing to a player who did not ask"

    await bot.command(CAT, "/start cards", private_chat(CAT))  # the old link
    assert [sent.text for sent in api.chat(CAT["id"])] == [
        "Hello cat! From now on I send your cards and private answers here. Play in your group with /join."]

    late = {"id": 107, "is_bot": False, "first_name": "Гоша", "language_code": "ru"}
    await bot.command(late, "/join 200")  # seated for the next hand
    await bot.command(late, "/start cards_m100500", private_chat(late))
    assert [sent.text for sent in api.chat(late["id"])][1:] == ["У вас нет карт в игре."]

    stranger = {"id": 108, "is_bot": False, "first_name": "Eve", "language_code": "en"}
    for payload in ("cards_m100500", "cards_m999_4"):  # never seen at the group; a table that is not there
        await bot.command(stranger, f"/start {payload}", private_chat(stranger))
        assert api.chat(stranger["id"])[-1].text == "You have no cards in play."
    assert await bot.service.player_name(place_of(GROUP["id"], None), "tg:108") == "tg:108", "not welcomed there"
    assert await bot.service.tables_of(place_of(-999, None).chat_id) == [], "no table opened"
    # Гоша's seat is shown by the hand's message, whose hint went with it: the three dealt in have their chats now
    table = [index for index, (shown, _) in enumerate(group) if shown.startswith("Hold'em — hand #1")]
    assert len(table) == 1 and group[table[0]][0].endswith(
        "\n\n🂠 Your cards stay private: press “My cards”. Bob Brown, cat, ann: open a private chat with me and send "
        "/start to get them there too.")
    group[table[0]] = (group[table[0]][0].rpartition("\n\n🂠")[0], group[table[0]][1] + 1)
    assert [(sent.text, sent.edits) for sent in bot.group()][:len(group)] == group


def test_the_links_start_payload_names_the_table_within_telegrams_limits() -> None:
    """Telegram's start parameter: up to 64 of A-Z, a-z, 0-9, _ and -; the sign of a group's id is a letter."""
    assert start_payload("tg:-100500:0") == "cards_m100500"
    assert start_payload("tg:-1009876543210:2147483647") == "cards_m1009876543210_2147483647"
    assert start_payload(None) == "cards"
    assert table_of_payload("cards_m100500") == (-100500, None)
    assert table_of_payload("cards_m1009876543210_2147483647") == (-1009876543210, 2147483647)
    assert table_of_payload("cards_4242_7") == (4242, 7)
    for payload in ("cards", "", "cards_-100500", "cards_m", "cards_m100500_", "xcards_m1", "cards_m1_2_3"):
        assert table_of_payload(payload) is None, payload


async def test_a_start_in_the_group_and_a_pointer_share_their_five_minutes(make_bot, api) -> None:
    """Each points the player to the private chat with its link: one of either in five minutes, the first five
    minutes after the hint (its link is just above)."""
    bot = await make_bot("duel")
    await bot.command(CAT, "/balance")  # answered only privately: the whole hint, the first time
    assert bot.group()[-1].text.startswith("@cat, I can only answer you privately")
    await five_quiet_minutes(bot, CAT, "/start", why="no link a moment after the hint's")
    await bot.command(CAT, "/start")
    assert bot.group()[-1].text == f"@cat, our private chat opens here (then press Start): {LINK}"
    count = len(bot.group())
    await bot.command(CAT, "/balance")
    assert len(bot.group()) == count, "no pointer a moment after the link"
    bot.clock.current += 300
    await bot.command(CAT, "/balance")
    assert bot.group()[-1].text == (f"@cat, I answer that only in private: open {LINK}, press Start, then send "
                                    "/balance here again.")
    await bot.command(CAT, "/start")
    assert len(bot.group()) == count + 1, "no link a moment after the pointer"


async def test_a_long_text_of_emoji_is_split_where_telegram_counts_its_length(make_bot, api) -> None:
    """Telegram counts a text's 4,096 in UTF-16 units, where an emoji beyond the Basic Multilingual Plane counts two:
    3,000 such characters (6,000 units) go as two messages it takes, not one it refuses."""
    bot = await make_bot("holdem", seed=11)
    ace = "\N{PLAYING CARD ACE OF SPADES}"
    bot.adapter.outbox.send_text(TextOp(GROUP["id"], None, ace * 3000))
    await bot.adapter.flush()
    assert [sent.text for sent in bot.group()] == [ace * 2048, ace * 952]
