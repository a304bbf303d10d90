"""Old table messages lose their buttons once the table moved on to a new message, end to end against the fake
Discord and its per-channel buckets: the least urgent request, beside the channel's replies, never ahead of them."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.discord.delivery import RETIRE_AFTER, Delivery
from bot.i18n import text
from bot.output import OldMessage
from bot.retiring import LEASE_SECONDS
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, Member, until
from tests.discord.test_games import action, current_table, play_out, to_act
from tests.discord.test_order import PLACE, Channel, delivery_to
from tests.loop_timers import LoopTimers


def with_buttons(fake: FakeDiscord, channel: int) -> list[dict[str, Any]]:
    """The channel's messages that show buttons, oldest first."""
    return [message for message in fake.channel_messages(channel) if fake.buttons(message)]


LEFT_AFTER_HAND_1 = {
    "en": "Texas Hold'em — seats:\n  Ann — 220\n  Bob — 180\n  Cat — 200\nHand #1: Ann wins 40.\n\n"
          "⬇ The table moved below.",
    "ru": "Техасский холдем — места:\n  Ann — 220\n  Bob — 180\n  Cat — 200\nРаздача №1: Ann выигрывает 40.\n\n"
          "⬇ Стол перенесён ниже."}
"""What hand 1's message (`between_hands`) is left reading once the table moved on: who sat and who won, then that
the table moved below, in each language."""


def named(fake: FakeDiscord, name: str) -> Member:
    """The member of the fake guild called `name`."""
    return next(member for member in fake.members.values() if member.name == name)


async def between_hands(fake: FakeDiscord, bot: Any, channel: int, language: str = "en") -> dict[str, Any]:
    """Ann and Bob play hand 1 out and Cat sits down between hands (the hand's message becomes the seats with a Deal
    button), in the channel's `language` (Ann, its first player, chooses it); returns hand 1's message."""
    ann, bob, cat = (fake.add_member(name) for name in ("Ann", "Bob", "Cat"))
    if language != "en":
        await fake.slash(ann, channel, "lang", language=language)
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    first = current_table(fake, channel)
    await play_out(fake, bot, channel, "check", "call")
    await fake.slash(cat, channel, "join", chips=200)
    await bot.settled()
    deal = text(language, "button.deal")
    assert deal in [button["label"] for button in fake.buttons(fake.messages[int(first["id"])])]
    return first


async def deal(fake: FakeDiscord, bot: Any, channel: int, first: dict[str, Any]) -> dict[str, Any]:
    """Ann deals the next hand; returns its message, posted below `first`."""
    await fake.slash(named(fake, "Ann"), channel, "deal")
    await bot.settled()
    second = current_table(fake, channel)
    assert second["id"] != first["id"]
    return second


async def between_hands_then_deal(fake: FakeDiscord, bot: Any, channel: int,
                                  language: str = "en") -> tuple[dict[str, Any], dict[str, Any]]:
    """`between_hands`, then Ann deals hand 2; returns hand 1's message and hand 2's."""
    first = await between_hands(fake, bot, channel, language)
    return first, await deal(fake, bot, channel, first)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_next_hands_message_leaves_the_old_ones_without_buttons(fake, make_bot, language: str) -> None:
    """Hand 1's message, the seats with a Deal button since the hand ended, is left reading who sat and who won
    hand 1, then that the table moved below: not "or press Deal" with no Deal button."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    first, second = await between_hands_then_deal(fake, bot, channel, language)
    await bot.adapter.delivery.retired()
    assert [message["id"] for message in with_buttons(fake, channel)] == [second["id"]]
    assert fake.messages[int(first["id"])]["content"] == LEFT_AFTER_HAND_1[language]
    assert fake.limited == []


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_seats_shown_when_the_bot_stopped_are_retired_as_their_record_after_the_restart(
        fake, make_bot, language: str) -> None:
    """The seats between hands shown when the bot stops (no hand in play: not shown again at the start) are left
    reading who sat and who won once the restarted bot deals the next hand, not the Deal they no longer offer."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    first = await between_hands(fake, bot, channel, language)
    await bot.stop()

    await bot.start()
    await bot.settled()
    second = await deal(fake, bot, channel, first)
    await bot.adapter.delivery.retired()
    assert fake.messages[int(first["id"])]["content"] == LEFT_AFTER_HAND_1[language]
    assert [message["id"] for message in with_buttons(fake, channel)] == [second["id"]]


async def test_seats_a_press_changed_are_retired_as_the_press_left_them_after_the_restart(fake, make_bot) -> None:
    """Ann, back between hands, presses "Post the big blind now": the press edits the seats itself (no line of the
    channel's queue comes after it), so it is the press that keeps what they are to be left reading, Ann no longer
    waiting for the big blind; the bot restarts, Ann deals hand 2, and the old message reads the seats as the press
    left them."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, dan = (fake.add_member(name) for name in ("Ann", "Bob", "Dan"))
    for member in (ann, bob, dan):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "away")
    await fake.slash(dan, channel, "deal")
    await bot.settled()
    await play_out(fake, bot, channel, "fold")
    await fake.slash(ann, channel, "back")
    await bot.settled()
    first = current_table(fake, channel)
    waiting = "Texas Hold'em — seats:\n  Ann — 200{status}\n  Bob — 190\n  Dan — 210\nHand #1: Dan wins 20."
    assert first["content"] == waiting.format(status=" (waiting for the big blind)") + (
        "\nBetween hands: the next deal comes in a moment, or press Deal.")
    pressed = await fake.press(ann, first, fake.button(first, "Post the big blind now"))
    await bot.settled()
    assert pressed.callback_type in (6, 7) and pressed.texts() == [
        "Ann is back and posts the big blind in the next hand."]
    assert fake.messages[int(first["id"])]["content"] == waiting.format(status="") + (
        "\nBetween hands: the next deal comes in a moment, or press Deal.")
    await bot.stop()

    await bot.start()
    await bot.settled()
    second = await deal(fake, bot, channel, first)
    await bot.adapter.delivery.retired()
    assert fake.messages[int(first["id"])]["content"] == waiting.format(status="") + "\n\n⬇ The table moved below."
    assert [message["id"] for message in with_buttons(fake, channel)] == [second["id"]]


async def test_the_table_asked_for_between_hands_is_linked_not_posted_anew(fake, make_bot) -> None:
    """`/table` between hands answers with a link to the seats message, which stays the table's message, with its
    Deal button and what the next hand waits for: nothing is posted below, so no old message is left reading
    "… or press Deal." without its Deal button (on Telegram the table is posted anew below, and the old one retired)."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    first = await between_hands(fake, bot, channel)
    posted = len(fake.channel_messages(channel))
    asked = await fake.slash(named(fake, "Bob"), channel, "table")
    await bot.settled()
    await bot.adapter.delivery.retired()
    assert asked.texts() == [f"The table: https://discord.com/channels/{GUILD_ID}/{channel}/{first['id']}"]
    assert len(fake.channel_messages(channel)) == posted
    assert with_buttons(fake, channel) == [fake.messages[int(first["id"])]]
    assert fake.messages[int(first["id"])]["content"] == (
        "Texas Hold'em — seats:\n  Ann — 220\n  Bob — 180\n  Cat — 200\nHand #1: Ann wins 40.\n"
        "Between hands: the next deal comes in a moment, or press Deal.")


async def test_an_old_between_hands_message_says_who_won_and_the_table_moved_and_keeps_no_button(fake,
                                                                                               make_bot) -> None:
    """Hand 1 ends and its message becomes the seats with a Deal button; Cat and Fay sit down, Ann goes away and Dan
    deals hand 2; later Ann is back and hand 3 is dealt. Each old message is left without buttons, showing the seats
    it last showed and who won the hand, then that the table moved below: never a Deal button, nor a word of one,
    nor seats that read as the table's now."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, dan, cat, fay = (fake.add_member(name) for name in ("Ann", "Bob", "Dan", "Cat", "Fay"))
    for member in (ann, bob, dan):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    first = current_table(fake, channel)
    await play_out(fake, bot, channel, "check", "call")
    for member, chips in ((cat, 300), (fay, 200)):
        await fake.slash(member, channel, "join", chips=chips)
    await fake.slash(ann, channel, "away")
    await fake.slash(dan, channel, "deal")
    await bot.settled()
    second = current_table(fake, channel)
    await play_out(fake, bot, channel, "fold")
    await fake.slash(ann, channel, "back")
    await fake.slash(dan, channel, "deal")
    await bot.settled()
    third = current_table(fake, channel)
    await bot.adapter.delivery.retired()

    assert [message["id"] for message in with_buttons(fake, channel)] == [third["id"]]
    old = fake.messages[int(first["id"])]
    assert old["content"] == (
        "Texas Hold'em — seats:\n  Ann — 180 (sitting out)\n  Bob — 240\n  Dan — 180\n  Cat — 300\n  Fay — 200\n"
        "Hand #1: Bob wins 60.\n\n⬇ The table moved below.")
    assert old["components"] == []
    old = fake.messages[int(second["id"])]  # Fay, Bob and Dan fold: Cat's unmatched 10 comes back, she wins 2 × 10
    assert old["content"] == (
        "Texas Hold'em — seats:\n  Ann — 180 (waiting for the big blind)\n  Bob — 240\n  Dan — 170\n  Cat — 310\n"
        "  Fay — 200\nHand #2: Cat wins 20.\n\n⬇ The table moved below.")
    assert old["components"] == []
    assert fake.limited == []


async def test_a_press_during_a_429_is_answered_at_once_and_the_retirement_waits(fake, make_bot) -> None:
    """Discord holds the channel's edits for three seconds: a press on the hand is answered in its own message at
    once (its interaction's bucket: the retirement, in a task of its own, holds up no reply), and the old message
    loses its buttons once the channel may be edited again. (What makes the retirement wait here is discord.py
    waiting out the 429 it met, not the delivery, which counts only the bot's own edits.)"""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    first, second = await between_hands_then_deal(fake, bot, channel)
    fake.limit_channel(channel, 3.0)
    loop_limited = asyncio.get_running_loop().time()
    limited = time.monotonic()
    pressed = await fake.press(to_act(fake, second), second, action(fake, second, "call", "check"))
    assert pressed.callbacks[0]["type"] == 7, "the press updated the table message itself"
    await bot.settled()
    await bot.adapter.delivery.retired()
    assert time.monotonic() - limited >= 2.5, "the retirement waited out the channel's 429"
    assert [message["id"] for message in with_buttons(fake, channel)] == [second["id"]]
    retired_at = [at for at, method, path, status in fake.timeline
                  if method == "PATCH" and path.endswith(f"/messages/{first['id']}") and status == 200]
    assert retired_at and retired_at[-1] >= loop_limited + 2.5, "its edit went through once the hold was over"
    answered_at = [at for at, method, path, status in fake.timeline
                   if path == f"/interactions/{pressed.id}/{pressed.token}/callback"]
    assert answered_at[0] < retired_at[-1], "the press was answered while the channel was held"


def edits_since(fake: FakeDiscord, since: float) -> list[tuple[float, int]]:
    """The edits of messages that reached the fake since `since` (the event loop's clock): when, and which message."""
    return [(at, int(path.rpartition("/")[2])) for at, method, path, status in fake.timeline
            if at > since and method == "PATCH" and "/messages/" in path and status == 200]


async def stop_then_start_again(fake: FakeDiscord, bot: Any, channel: int, *, crash: bool) -> None:
    """Ann and Bob play hand 1 out and hand 2 is dealt; the bot stops before the old messages' buttons went
    (`RETIRE_AFTER`), killed or cleanly, and starts again: the old messages lose their buttons then, each with one
    request, after the table in play was shown again."""
    first, second = await between_hands_then_deal(fake, bot, channel)
    old = [int(message["id"]) for message in with_buttons(fake, channel) if message["id"] != second["id"]]
    assert int(first["id"]) in old and len(old) == 2, "the seats message shown before hand 1, and hand 1's"
    if crash:
        await bot.adapter.delivery.close()  # the process dies (power cut, OOM kill): what was queued is lost
    await bot.stop()
    stopped = asyncio.get_running_loop().time()
    assert edits_since(fake, stopped) == []
    assert len(with_buttons(fake, channel)) == 3, "the old messages still show their buttons"

    await bot.start()
    await bot.settled()
    await bot.adapter.delivery.retired()
    assert [message["id"] for message in with_buttons(fake, channel)] == [second["id"]]
    edits = edits_since(fake, stopped)
    assert sorted(message for _, message in edits if message != int(second["id"])) == old, "each once"
    shown_again = [at for at, message in edits if message == int(second["id"])]
    assert shown_again and all(at > shown_again[0] for at, message in edits if message in old), \
        "after the table in play was shown again"
    assert await bot.service.memory.claim_retiring("discord", LEASE_SECONDS) == []


async def test_a_retirement_a_crash_left_waiting_is_sent_after_the_restart_once(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    await stop_then_start_again(fake, bot, fake.channels[0], crash=True)


async def test_a_retirement_a_clean_stop_left_waiting_is_sent_after_the_restart_once(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    await stop_then_start_again(fake, bot, fake.channels[0], crash=False)


async def test_the_retirer_sleeps_while_the_channel_is_busy_and_retires_as_soon_as_it_is_not(
        fake: FakeDiscord, make_bot: Any, loop_timers: LoopTimers) -> None:
    """An old message waits to lose its buttons while the channel's sender is held (a reply waits for its
    interaction to answer): the retirer looks once and sleeps, however long the hold, instead of looking again every
    moment; the hold ends, and the message loses its buttons at once: the end of the reply's send wakes the retirer,
    which retires at that one look, the channel's next request after the reply. At once is the retirer asking the
    event loop for no timer of its own at all (the message's own wait was over before the hold ended): any delay it
    added before the edit would be one."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    _, second = await between_hands_then_deal(fake, bot, channel)
    delivery = bot.adapter.delivery
    await delivery.retired()
    [place] = delivery.places()
    gate = asyncio.Event()
    delivery.queue(place, texts=["held"], gate=gate)
    looked, timers = delivery.retirer_wakes, len(loop_timers.asked)
    await delivery.retire_again([OldMessage(place, int(second["id"]))])
    await asyncio.sleep(RETIRE_AFTER * 1.5)  # past the message's own wait: only the held reply keeps it
    assert delivery.retirer_wakes - looked == 1, "it looked once, then slept"
    assert fake.buttons(fake.messages[int(second["id"])]), "not before the reply"
    since = len(fake.timeline)
    gate.set()
    await until(lambda: not fake.buttons(fake.messages[int(second["id"])]), "the old message's buttons gone")
    await delivery.retired()
    assert delivery.retirer_wakes - looked == 2, "woken once, by the reply's end, and it retired at that look"
    assert [(method, path) for _, method, path, _ in fake.timeline[since:]] == [
        ("POST", f"/channels/{channel}/messages"), ("PATCH", f"/channels/{channel}/messages/{second['id']}")]
    assert loop_timers.asked_by(Delivery._retire_all, timers) == [], "it waited for the reply alone, with no timer"


async def test_an_old_message_loses_its_buttons_retire_after_seconds_after_it_was_queued_no_sooner_or_later(
        loop_timers: LoopTimers) -> None:
    """Counted on a fake clock the test moves, so a loaded machine changes nothing: the retirer, looking a moment
    before the old message's `RETIRE_AFTER` is over (the channel's sender, done with a reply, wakes it), leaves it;
    looking when it is over, it retires it at that look, asking the event loop for no timer of its own."""
    clock, channel = FakeClock(), Channel()
    _, delivery = delivery_to(channel, clock)
    await delivery.retire_again([OldMessage(PLACE, 7)])
    await until(lambda: delivery.retirer_wakes == 1, "the retirer's first look")

    async def look_after(seconds: float, reply: str) -> int:
        """Let `seconds` pass, then a reply is sent, whose end wakes the retirer; returns how many timers the loop
        had been asked for before the reply (`LoopTimers.asked_by`'s `since`)."""
        clock.advance(seconds)
        looked, timers = delivery.retirer_wakes, len(loop_timers.asked)
        delivery.queue(PLACE, texts=[reply])
        await delivery.settled()
        await until(lambda: delivery.retirer_wakes > looked, "the retirer's look after the reply")
        return timers

    await look_after(RETIRE_AFTER - 1 / 64, "Bob calls.")
    assert channel.seen == [("send", "Bob calls.")], "a moment before its time: not yet"
    timers = await look_after(1 / 64, "Cat folds.")
    await until(lambda: len(channel.seen) == 3, "the old message's buttons gone")  # (a later due time never comes)
    assert channel.seen == [("send", "Bob calls."), ("send", "Cat folds."), ("edit", "")]
    assert loop_timers.asked_by(Delivery._retire_all, timers) == [], "retired at the look that found it due"
    await delivery.close()
