"""The outbox on its own, with a stub bot: what happens to a message whose request failed on the network, how
chats share the bot's budget (private chats first, groups in turn, never more than the bot may send), and how a
table state that comes late gives way to the newer one its message shows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.clock import FakeClock
from bot.output import OldMessage, PostedMessage, TableMessage
from bot.retiring import MAX_WAITING
from bot.table_states import TableStates
from bot.telegram.budget import Limits
from bot.telegram.memory import Memory
from bot.telegram.outbox import DocumentOp, Outbox, RetireOp, TableOp, TextOp
from bot.telegram.render import place_of
from tests.telegram.test_forum_pace import WAIT_LIMIT, wait_for

GROUP = -100500
TABLE = "tg:-100500:0"


class FlakyBot:
    """Sends nothing the first time (the connection drops), then records each text."""

    def __init__(self) -> None:
        self.failures = 1
        self.sent: list[str] = []

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        if self.failures:
            self.failures -= 1
            raise NetworkError("httpx.ReadError: ")
        self.sent.append(text)


async def test_a_message_whose_request_failed_on_the_network_is_sent_again() -> None:
    bot = FlakyBot()
    outbox = Outbox(bot, memory=None, limits=Limits(time_scale=100))  # type: ignore[arg-type]
    outbox.send_text(TextOp(-100500, None, "Bob sits down."))
    assert await outbox.flush(timeout=5)
    assert bot.sent == ["Bob sits down."]
    await outbox.close(0)


class RecordingBot:
    """Answers every request at once and records which chat it was for, what it carried, and when it came."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, float]] = []

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        self.sent.append((chat_id, text, time.monotonic()))
        await asyncio.sleep(0)

    async def send_document(self, chat_id: int, document: bytes, *, filename: str, **kwargs: Any) -> None:
        self.sent.append((chat_id, filename, time.monotonic()))
        await asyncio.sleep(0)


async def test_a_private_chat_goes_first_the_groups_take_turns_and_the_bot_stays_within_its_budget() -> None:
    bot = RecordingBot()
    limits = Limits(bot=(3, 1.0), time_scale=10)  # the whole bot: 3 requests in any 0.1 s
    outbox = Outbox(bot, memory=Memory(Kept()), limits=limits)  # type: ignore[arg-type]
    groups = {-100501: "A", -100502: "B", -100503: "C"}
    for number in (1, 2, 3):  # files, so that nothing joins: each is one request
        for chat_id, name in groups.items():
            outbox.send_document(DocumentOp(chat_id, None, f"{name}{number}", b"hand"))
    outbox.send_text(TextOp(101, None, "Your cards: As Kd", private_to=101))  # queued last, sent first
    assert await outbox.flush(timeout=5)
    await outbox.close(0)
    assert [what for _, what, _ in bot.sent] == ["Your cards: As Kd", "A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3",
                                                 "C3"]
    window = limits.bot[1] / limits.time_scale
    stamps = [at for _, _, at in bot.sent]
    assert max(sum(1 for other in stamps if stamp <= other < stamp + window) for stamp in stamps) <= 3
    assert stamps[-1] - stamps[0] >= 3 * window * 0.9, "10 requests at 3 a window take more than three windows"


class TableBot:
    """Posts and edits table messages, recording each request's text."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> SimpleNamespace:
        self.sent.append(text)
        return SimpleNamespace(message_id=len(self.sent))

    async def edit_message_text(self, text: str, **kwargs: Any) -> None:
        self.sent.append(text)


class Kept:
    """The service's keeping of the table messages (`service.memory`), in memory: the old ones waiting to lose their
    buttons, by chat and message id."""

    def __init__(self) -> None:
        self.retiring: dict[tuple[str, int], OldMessage] = {}

    async def remember_table_message(self, platform: str, table_id: str, posted: PostedMessage, *,
                                     retiring: OldMessage | None = None) -> None:
        if retiring is not None:
            self.retiring[retiring.place.chat_id, retiring.message_id] = retiring

    async def forget_retiring(self, platform: str, chat_id: str, message_ids: Iterable[int]) -> None:
        for message_id in message_ids:
            self.retiring.pop((chat_id, message_id), None)


async def test_a_table_state_that_comes_late_never_hides_the_newer_one_its_message_shows() -> None:
    """The service produced each pair in this order, but the older state reached the outbox after the newer one was
    shown (a timer's reply that waited for its chat): the message keeps the newer state, and no request is spent."""
    bot, states = TableBot(), TableStates()
    outbox = Outbox(bot, Memory(Kept()), Limits(time_scale=100), states)  # type: ignore[arg-type]

    async def show(state: tuple[int, TableMessage]) -> None:
        outbox.show_table(TableOp(TABLE, GROUP, None, state[1], "en", state[0]))
        assert await outbox.flush(timeout=5)

    timer = states.number(TABLE, TableMessage("h1", "Hand 1: Ann is using the time bank", (), "tg:1"))
    press = states.number(TABLE, TableMessage("h1", "Hand 1: Ann calls; Bob to act", (), "tg:2"))
    await show(press)
    await show(timer)
    last_of_hand = states.number(TABLE, TableMessage("h1", "Hand 1: Bob folds; Ann wins"))
    deal = states.number(TABLE, TableMessage("h2", "Hand 2: Bob to act", (), "tg:2"))
    await show(deal)
    await show(last_of_hand)  # an older hand's state: never posted below the newer hand's message
    await outbox.close(0)
    assert bot.sent == ["Hand 1: Ann calls; Bob to act", "Hand 2: Bob to act"]


async def test_a_table_state_about_to_be_sent_gives_way_to_a_newer_one_of_its_hand() -> None:
    """A newer state was numbered while the older one waited (its reply is still on its way to the outbox): the
    request shows the newer one at once, and the newer one's own op then costs nothing."""
    bot, states = TableBot(), TableStates()
    outbox = Outbox(bot, Memory(Kept()), Limits(time_scale=100), states)  # type: ignore[arg-type]
    older = states.number(TABLE, TableMessage("h1", "Hand 1: Ann to act", (), "tg:1"))
    newer = states.number(TABLE, TableMessage("h1", "Hand 1: Ann calls; Bob to act", (), "tg:2"))
    for version, message in (older, newer):
        outbox.show_table(TableOp(TABLE, GROUP, None, message, "en", version))
        assert await outbox.flush(timeout=5)
    await outbox.close(0)
    assert bot.sent == ["Hand 1: Ann calls; Bob to act"]


async def test_a_table_state_about_to_be_sent_never_shows_a_newer_one_whose_announcement_is_not_read_yet() -> None:
    """Bob sits down while the table's older state is about to be sent (his reply is still on its way to the
    outbox): the older state gives way to his, which goes after "Bob sits down"; two requests, as when the older
    one showed his seat at once and his own then cost nothing."""
    bot, states = TableBot(), TableStates()
    outbox = Outbox(bot, Memory(Kept()), Limits(time_scale=100), states)  # type: ignore[arg-type]
    older = states.number(TABLE, TableMessage("h1", "Seats: Ann"))
    newer = states.number(TABLE, TableMessage("h1", "Seats: Ann, Bob"), announced=True)
    outbox.show_table(TableOp(TABLE, GROUP, None, older[1], "en", older[0]))
    assert await outbox.flush(timeout=5)
    outbox.send_text(TextOp(GROUP, None, "Bob sits down with 200 chips."))
    outbox.show_table(TableOp(TABLE, GROUP, None, newer[1], "en", newer[0], announced=True))
    assert await outbox.flush(timeout=5)
    await outbox.close(0)
    assert bot.sent == ["Bob sits down with 200 chips.", "Seats: Ann, Bob"]


async def test_a_table_asked_for_anew_is_posted_as_it_stood_when_a_newer_state_is_not_announced_yet() -> None:
    """`/table`, then Bob sits down before its state is sent: the table is still posted anew below (what `/table`
    asked for), as it stood before him; his line, then the edit showing his seat, follow."""
    bot, states = TableBot(), TableStates()
    outbox = Outbox(bot, Memory(Kept()), Limits(time_scale=100), states)  # type: ignore[arg-type]
    asked = states.number(TABLE, TableMessage("h1", "Seats: Ann"))
    newer = states.number(TABLE, TableMessage("h1", "Seats: Ann, Bob"), announced=True)
    outbox.show_table(TableOp(TABLE, GROUP, None, asked[1], "en", asked[0], repost=True))
    assert await outbox.flush(timeout=5)
    outbox.send_text(TextOp(GROUP, None, "Bob sits down with 200 chips."))
    outbox.show_table(TableOp(TABLE, GROUP, None, newer[1], "en", newer[0], announced=True))
    assert await outbox.flush(timeout=5)
    await outbox.close(0)
    assert bot.sent == ["Seats: Ann", "Bob sits down with 200 chips.", "Seats: Ann, Bob"]


class SlowRetiringBot(RecordingBot):
    """Answers every request at once, except a retirement (`editMessageReplyMarkup`), which takes `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    async def edit_message_reply_markup(self, *, chat_id: int, message_id: int, reply_markup: None) -> None:
        await asyncio.sleep(self.seconds)
        self.sent.append((chat_id, f"retired {message_id}", time.monotonic()))


async def test_a_retirement_waits_behind_every_reply_and_for_room_to_spare() -> None:
    """Queued with replies, the retirement goes after them; and only once the group's budget could still send a
    reply at once after it (two requests back to back leave one of the three: the retirement waits a step)."""
    bot = SlowRetiringBot(0)
    limits = Limits(time_scale=30)  # a step of the spread: 60 / 18 / 30 s
    outbox = Outbox(bot, memory=Memory(Kept()), limits=limits)  # type: ignore[arg-type]
    outbox.retire(RetireOp(GROUP, 7))
    outbox.send_document(DocumentOp(GROUP, None, "one", b"1"))
    outbox.send_document(DocumentOp(GROUP, None, "two", b"2"))
    assert await outbox.flush(timeout=5, retired=True)
    await outbox.close(0)
    assert [what for _, what, _ in bot.sent] == ["one", "two", "retired 7"]
    step = limits.group[1] / (limits.group[0] - limits.group_burst + 1) / limits.time_scale
    assert bot.sent[2][2] - bot.sent[0][2] >= step * 0.9, "it took no room a reply could have used at once"


async def test_a_retirement_in_flight_never_holds_a_reply() -> None:
    """Telegram answers a retirement slowly: a reply queued meanwhile goes at once, beside it, not after it."""
    bot = SlowRetiringBot(0.5)
    outbox = Outbox(bot, memory=Memory(Kept()), limits=Limits(time_scale=30))  # type: ignore[arg-type]
    outbox.retire(RetireOp(GROUP, 7))
    await asyncio.sleep(0.05)  # in flight
    outbox.send_document(DocumentOp(GROUP, None, "Bob calls", b"1"))
    assert await outbox.flush(timeout=5)
    assert [what for _, what, _ in bot.sent] == ["Bob calls"]  # sent while the retirement was still on its way
    assert await outbox.flush(timeout=5, retired=True)
    assert [what for _, what, _ in bot.sent] == ["Bob calls", "retired 7"]
    await outbox.close(0)


class RefusedRetiringBot(RecordingBot):
    """Answers every request at once, except the first retirement, which Telegram refuses 429: retry after
    `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__()
        self.refusals = [retry_after]

    async def edit_message_reply_markup(self, *, chat_id: int, message_id: int, reply_markup: None) -> None:
        if self.refusals:
            raise RetryAfter(self.refusals.pop())
        self.sent.append((chat_id, f"retired {message_id}", time.monotonic()))


async def test_a_429_holds_the_group_for_its_retry_after_no_longer() -> None:
    """Telegram refuses a retirement 429, retry after 1 s: the group is held, and the reply queued meanwhile goes
    the moment the second is over, not before, not later, and the retirement after it; a private chat is not held.
    The budget and the hold count on a fake clock the test moves, so a loaded machine changes nothing: a moment
    before the second is over the dispatcher, woken by the private message, sends that and not the reply; at the
    second it sends the reply."""
    bot, clock = RefusedRetiringBot(1), FakeClock()
    outbox = Outbox(bot, memory=Memory(Kept()), limits=Limits(time_scale=30), clock=clock)  # type: ignore[arg-type]
    outbox.retire(RetireOp(GROUP, 7))
    await wait_for(lambda: outbox.rate_limited == 1, "the retirement refused")
    outbox.send_text(TextOp(GROUP, None, "Bob calls."))
    clock.advance(0.75)
    outbox.send_text(TextOp(101, None, "Your cards: As Kd", private_to=101))
    await wait_for(lambda: bot.sent, "the private message")
    assert [what for _, what, _ in bot.sent] == ["Your cards: As Kd"], "the group is still held"
    clock.advance(0.25)
    assert await outbox.flush(timeout=WAIT_LIMIT, retired=True), "the group sent to once the second was over"
    assert [what for _, what, _ in bot.sent] == ["Your cards: As Kd", "Bob calls.", "retired 7"]
    await outbox.close(0)


async def test_a_retirement_of_a_chat_the_bot_left_is_dropped() -> None:
    bot = SlowRetiringBot(0)
    outbox = Outbox(bot, memory=Memory(Kept()), limits=Limits(time_scale=30))  # type: ignore[arg-type]
    outbox._queue(GROUP).blocked_until = time.monotonic() + 60  # a 429 holds the group
    outbox.retire(RetireOp(GROUP, 7))
    outbox.retire(RetireOp(GROUP, 7))  # the same message again: one request
    assert outbox.retiring(GROUP) == 1
    outbox.forget(GROUP)  # the group refused the bot (403)
    assert await outbox.flush(timeout=1, retired=True)
    assert bot.sent == []
    await outbox.close(0)


class GoneRetiringBot(SlowRetiringBot):
    """Answers every retirement at once, except that message 8 is gone (somebody deleted it)."""

    async def edit_message_reply_markup(self, *, chat_id: int, message_id: int, reply_markup: None) -> None:
        if message_id == 8:
            raise BadRequest("Message to edit not found")
        await super().edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=reply_markup)


async def test_the_store_forgets_an_old_message_once_retired_or_given_up_on() -> None:
    """The old messages the store kept across a restart are queued again and forgotten once done with: retired,
    refused as gone, or given up on past `MAX_WAITING`; those still waiting (a 429 holds the group) stay kept."""
    bot, kept = GoneRetiringBot(0), Kept()
    outbox = Outbox(bot, memory=Memory(kept), limits=Limits(time_scale=30))  # type: ignore[arg-type]
    place = place_of(GROUP, None)

    async def after_a_restart(*message_ids: int) -> None:
        waiting = [OldMessage(place, message_id) for message_id in message_ids]
        kept.retiring.update({(place.chat_id, old.message_id): old for old in waiting})
        await outbox.retire_again(waiting)

    await after_a_restart(7, 8)
    assert await outbox.flush(timeout=5, retired=True)
    assert [what for _, what, _ in bot.sent] == ["retired 7"]
    assert kept.retiring == {}, "retired, or gone"

    outbox._queue(GROUP).blocked_until = time.monotonic() + 60  # a 429 holds the group
    await after_a_restart(*range(100, 100 + MAX_WAITING + 2))
    assert sorted(message_id for _, message_id in kept.retiring) == list(range(102, 100 + MAX_WAITING + 2))
    await outbox.close(0)  # the process stops: those still waiting stay kept for the next start
    assert len(kept.retiring) == MAX_WAITING
