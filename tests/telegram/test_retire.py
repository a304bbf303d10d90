"""Old table messages lose their buttons once the table moved on to a new message, end to end against the fake Bot
API and its flood limits: as the least urgent request, behind every reply, and after a restart when a crash left them
waiting; a hand's message keeps what it showed, the seats between hands no longer say what the next hand waited for."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.retiring import LEASE_SECONDS
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running
from tests.telegram.fake_api import GROUP, LIMITED, FakeBotApi, Request, Sent
from tests.telegram.test_delivery import hand_of
from tests.telegram.test_forum_pace import wait_for
from tests.telegram.test_games import play_out, to_act
from tests.telegram.test_order import DAN

SITS_DOWN = "dan sits down with 200 chips."
MOVED = "\n\n⬇ The table moved below."
SEATS_AFTER_HAND_1 = "Texas Hold'em — seats:\n  ann — 220\n  Bob Brown — 180\n  cat — 200\nHand #1: ann wins 40."
"""The seats between hands as `between_hands` leaves them, without what the next hand waits for (`seats_record`)."""


def with_buttons(bot: Running) -> list[Sent]:
    """The group's messages that show buttons, oldest first."""
    return [sent for sent in bot.group() if sent.buttons()]


def retiring(params: dict[str, Any]) -> bool:
    """Whether an `editMessageText` retires an old seats message: its text now ends saying the table moved below."""
    return str(params["text"]).endswith(MOVED)


def is_retirement(call: Request) -> bool:
    """Whether a request took an old message's buttons away: a hand's keeping its text (`editMessageReplyMarkup`),
    the seats' saying the table moved below (`editMessageText`)."""
    return call.method == "editMessageReplyMarkup" or (call.method == "editMessageText" and retiring(call.params))


def retirements(api: FakeBotApi) -> list[float]:
    """When each request that took an old message's buttons away reached Telegram (answered or not)."""
    return [call.at for call in api.requests if is_retirement(call)]


async def between_hands(bot: Running) -> Sent:
    """Ann and Bob play hand 1 out and Cat sits down between hands (the hand's message becomes the seats with a Deal
    button); returns hand 1's message."""
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    first = bot.table_message()
    await play_out(bot, first)
    await bot.command(CAT, "/join 200")
    assert [button["text"] for button in bot.api.messages[GROUP["id"], first.message_id].buttons()] == ["Deal"]
    return first


async def between_hands_then_deal(bot: Running) -> tuple[Sent, Sent]:
    """`between_hands`, then Ann deals hand 2; returns hand 1's message and hand 2's."""
    first = await between_hands(bot)
    await bot.command(ANN, "/deal")
    second = bot.table_message()
    assert second.message_id != first.message_id and "hand #2" in second.text
    return first, second


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_next_hands_message_leaves_the_old_ones_without_buttons(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    first, second = await between_hands_then_deal(bot)
    assert api.messages[GROUP["id"], first.message_id].text.endswith("\nBetween hands: the next deal comes in a "
                                                                     "moment, or press Deal.")
    await bot.adapter.flush(retired=True)
    assert with_buttons(bot) == [second], "only the hand in play offers buttons"
    # the seats message shown before hand 1, and hand 1's (the seats since it ended): one request each, a message
    # without buttons costs none; each keeps who sat and who won, not the Deal it no longer offers
    retired = [api.messages[GROUP["id"], int(call.params["message_id"])] for call in api.requests
               if is_retirement(call)]
    assert [sent.text for sent in retired] == [
        "Texas Hold'em — seats:\n  ann — 200\n  Bob Brown — 200" + MOVED,
        SEATS_AFTER_HAND_1 + MOVED]
    assert retired[1].message_id == first.message_id

    await play_out(bot, second)  # hand 2 ends with no buttons on its message, and the next deal follows at once
    await bot.command(ANN, "/deal")
    await bot.adapter.flush(retired=True)
    assert len(with_buttons(bot)) == 1 and "hand #3" in with_buttons(bot)[0].text
    assert len(retirements(api)) == 2, "hand 2's message showed no buttons: nothing to retire"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
@pytest.mark.telegram_allows_429  # the restarted bot's budget starts empty; Telegram remembers the last minute
async def test_the_seats_shown_when_the_bot_stopped_are_retired_as_their_record_after_the_restart(make_bot,
                                                                                                   api) -> None:
    """The seats between hands shown when the bot stops (no hand in play: not shown again at the start) are left
    reading who sat and who won once the restarted bot deals the next hand, not the Deal they no longer offer."""
    bot = await make_bot("holdem", seed=11)
    first = await between_hands(bot)
    await bot.stop()

    again = await make_bot("holdem", seed=11)
    await again.command(ANN, "/deal")
    await again.adapter.flush(retired=True)
    assert api.messages[GROUP["id"], first.message_id].text == SEATS_AFTER_HAND_1 + MOVED
    assert with_buttons(again) == [again.table_message()] and "hand #2" in again.table_message().text


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_seats_posted_anew_below_leave_the_old_message_reading_their_record(make_bot, api) -> None:
    """`/table` between hands posts the seats anew below, with the Deal button: the old message is left reading who
    sat and who won, and that the table moved below, not the Deal it no longer offers."""
    bot = await make_bot("holdem", seed=11)
    first = await between_hands(bot)
    await bot.command(BOB, "/table")
    await bot.adapter.flush(retired=True)
    assert api.messages[GROUP["id"], first.message_id].text == SEATS_AFTER_HAND_1 + MOVED
    table = bot.table_message()
    assert table.message_id != first.message_id and [button["text"] for button in table.buttons()] == ["Deal"]
    assert table.text == SEATS_AFTER_HAND_1 + "\nBetween hands: the next deal comes in a moment, or press Deal."
    assert with_buttons(bot) == [table]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_house_rounds_message_leaves_the_old_ones_without_buttons(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=5)
    await bot.command(ANN, "/game russian")
    rounds = []
    for _ in range(2):
        for user in (ANN, BOB):
            await bot.command(user, "/ante 10")
        await bot.press(BOB, bot.table_message(), "deal")
        rounds.append(bot.table_message())
        await play_out(bot, rounds[-1])
    for user in (ANN, BOB):
        await bot.command(user, "/ante 10")  # round 3's bets: its message is posted with a Deal button
    await bot.adapter.flush(retired=True)
    assert len({sent.message_id for sent in rounds}) == 2
    current = with_buttons(bot)
    assert len(current) == 1 and current[0].message_id > rounds[-1].message_id, "only round 3's message"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_retirement_goes_after_the_replies_of_a_group_held_by_a_429(make_bot, api) -> None:
    """Telegram holds the whole group after a 429, so a retirement it refused waits too; once the group may send
    again, the player's reply is the first request it gets, and the retirements come after it. The test decides what
    the bot hears when: the retirement is refused while Dan's line is on its way and the press's table edit waits
    behind it."""
    bot = await make_bot("holdem", seed=11)
    api.hold("editMessageText", retiring)  # the first old message's retirement waits unanswered until the test says
    _, second = await between_hands_then_deal(bot)
    await wait_for(lambda: retirements(api), "the first retirement on its way")  # (unanswered)
    api.hold("sendMessage")
    await bot.handled(await api.push(api.command_update(DAN, "/join 200")))
    await wait_for(lambda: [call["text"] for call in api.calls("sendMessage")][-1:] == [SITS_DOWN], "Dan's line")
    user = to_act(second)
    assert user is not None
    update, _ = api.press_update(user, second, second.button("call")["callback_data"])
    await bot.handled(await api.push(update))  # its table edit queued behind Dan's line
    since = len(api.requests)
    refused = time.monotonic()
    api.fail("editMessageText", 429, "Too Many Requests: retry after 1", retiring, retry_after=1)
    api.release("editMessageText")
    await wait_for(lambda: bot.adapter.outbox.rate_limited == 1, "the 429")  # the group is held for a second
    api.release("sendMessage")
    await bot.adapter.flush(retired=True)
    group = [call for call in api.requests[since:]
             if call.method in LIMITED and int(call.params["chat_id"]) == GROUP["id"]]
    assert [(call.method, int(call.params["message_id"]) == second.message_id, is_retirement(call))
            for call in group] == [
        ("editMessageText", True, False), ("editMessageText", False, True), ("editMessageText", False, True)], \
        "once the group could send, the reply went first, and the retirements behind it"
    # no sooner than the hold allowed (that it goes no later is test_outbox's, on a fake clock load cannot stretch)
    assert group[0].at >= refused + 1, "the reply waited out the group's hold (retry after 1 s)"
    assert with_buttons(bot) == [api.messages[GROUP["id"], second.message_id]]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
@pytest.mark.telegram_allows_429  # the restarted bot's budget starts empty; Telegram remembers the last minute
async def test_a_retirement_a_crash_left_waiting_is_sent_after_the_restart_once(make_bot, api) -> None:
    """The store keeps an old message from when the table moved on until it lost its buttons: the process dies with
    two retirements waiting (Telegram left the first unanswered, then refused it and held the group), and the
    restarted bot sends them, after showing its tables again, one request per message; a press on an old message
    meanwhile changes nothing."""
    bot = await make_bot("holdem", seed=11)
    api.hold("editMessageText", retiring)  # no old message loses its buttons before the test says
    first, second = await between_hands_then_deal(bot)  # (hand 1's message queued to retire when hand 2's was posted)
    api.refuse("editMessageText", 429, "Too Many Requests: retry after 30", retiring, retry_after=30)
    outbox = bot.adapter.outbox
    await wait_for(lambda: outbox.rate_limited and outbox.retiring(GROUP["id"]) == 2,
                   "both retirements refused")  # (the group held 30 s: no more tries)
    waiting = outbox.retiring(GROUP["id"])
    assert waiting == 2, "the seats message shown before hand 1, and hand 1's"
    await outbox.close(0)  # the process dies: nothing more goes out
    await bot.stop()
    api.release("editMessageText")  # the restarted bot's requests are answered as usual
    old = [sent for sent in with_buttons(bot) if sent.message_id != second.message_id]
    assert len(old) == waiting and first.message_id in [sent.message_id for sent in old]
    deal = api.messages[GROUP["id"], first.message_id].button("deal")["callback_data"]
    crashed = time.monotonic()

    again = await make_bot("holdem", seed=11)
    hand = await hand_of(again)
    assert hand is not None and hand.hand_number == 2
    answer = await again.press_data(ANN, api.messages[GROUP["id"], first.message_id], deal)  # (buttons gone or not)
    assert answer.get("text") in ("Already done.", "This hand is over.")  # the stale-button checks' answer
    assert (await hand_of(again)).to_dict() == hand.to_dict(), "the stale Deal dealt nothing"  # type: ignore[union-attr]
    await again.adapter.flush(retired=True)
    assert with_buttons(again) == [api.messages[GROUP["id"], second.message_id]]
    after = [call for call in api.requests if call.at > crashed]
    retired = [int(call.params["message_id"]) for call in after if is_retirement(call) and call not in api.rejected]
    assert sorted(retired) == [sent.message_id for sent in old], "each once (a try the group's limit refused waits)"
    shown = [call.at for call in after if call.method == "editMessageText" and not is_retirement(call)]
    assert shown and min(call.at for call in after if is_retirement(call)) > shown[0], \
        "the table in play was shown again first"
    assert await again.service.memory.claim_retiring("telegram", LEASE_SECONDS) == []

    await play_out(again, api.messages[GROUP["id"], second.message_id])  # hand 2 plays on in its own message
    await again.command(BOB, "/deal")
    await again.adapter.flush(retired=True)
    current = with_buttons(again)
    assert len(current) == 1 and "hand #3" in current[0].text
    assert await again.store.read(lambda tx: tx.check_ledger()) == []
