"""What a channel reads comes in the order it happened: a table state about to be shown never shows a newer one whose
announcement ("Bob sits down.") waits behind it, unread (the delivery queue and the table board, with a stub client),
and a button press whose reply has a public line says it before the table shows its effect (through the fake Discord,
each request after the press in order)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.clock import Clock
from bot.discord.board import TableBoard
from bot.discord.delivery import Delivery
from bot.output import Place, TableMessage
from tests.discord.fake_discord import ACK_SECONDS, APP_ID, FakeDiscord, Interaction, Member, until
from tests.discord.test_adapter import database_thread_busy
from tests.discord.test_games import current_table
from tests.discord.test_table_options import fold_to_the_end, seat

CHANNEL = 930_000_000_000_000_001
PLACE = Place("dc:1", f"dc:{CHANNEL}")


class Channel:
    """Records what the bot posts and edits in one channel, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    async def send(self, content: str = "", **kwargs: Any) -> SimpleNamespace:
        self.seen.append(("send", content))
        return SimpleNamespace(id=len(self.seen))

    def get_partial_message(self, message_id: int) -> SimpleNamespace:
        async def edit(content: str = "", **kwargs: Any) -> None:
            self.seen.append(("edit", content))
        return SimpleNamespace(edit=edit)

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return self


class Kept:
    """The service's keeping of the table messages, forgetful (the old ones waiting to lose their buttons too)."""

    async def remember_table_message(self, *args: Any, **kwargs: Any) -> None:
        pass

    async def forget_retiring(self, *args: Any) -> None:
        pass


def delivery_to(channel: Channel, clock: Clock | None = None) -> tuple[TableBoard, Delivery]:
    """A table board and a delivery queue in English that post to the one `channel` (on `clock`, the real one by
    default)."""
    board = TableBoard(Kept(), channel, language=lambda place: asyncio.sleep(0, "en"))  # type: ignore[arg-type]
    delivery = Delivery(channel, board, language=lambda place: asyncio.sleep(0, "en"),  # type: ignore[arg-type]
                        lost=lambda place, texts: None, clock=clock)
    return board, delivery


async def test_a_table_state_about_to_be_shown_never_shows_a_newer_one_whose_announcement_is_not_read_yet() -> None:
    """Ann's state is being shown when Bob sits down: his state is numbered, his reply's part not queued yet (the
    adapter is between the two). The channel reads "Bob sits down.", then the table showing his seat, and nothing
    showed it before; two requests, as when Ann's state showed his seat at once and his own then cost nothing."""
    channel = Channel()
    board, delivery = delivery_to(channel)
    first = TableMessage("h1", "Seats: Ann")
    delivery.queue(PLACE, table=(board.want(PLACE.table_id, CHANNEL, first), first))
    await delivery.settled()
    ann = TableMessage("h1", "Seats: Ann (ready)")
    delivery.queue(PLACE, table=(board.want(PLACE.table_id, CHANNEL, ann), ann))
    bob = TableMessage("h1", "Seats: Ann (ready), Bob")
    bob_state = (board.want(PLACE.table_id, CHANNEL, bob, announced=True), bob)
    await delivery.settled()  # Ann's state is shown meanwhile
    delivery.queue(PLACE, texts=["Bob sits down."], table=bob_state)
    await delivery.settled()
    await delivery.close()
    assert channel.seen == [("send", "Seats: Ann"), ("send", "Bob sits down."), ("edit", "Seats: Ann (ready), Bob")]


def after(fake: FakeDiscord, pressed: Interaction) -> list[str]:
    """Every request the bot made since the press that Discord took (not its 429s), in order: the press's callback,
    its follow-up, the edit of its pressed message through it, or a channel's message posted or edited (the channel's
    buckets)."""
    named = {("POST", f"/interactions/{pressed.id}/{pressed.token}/callback"): f"callback {pressed.callback_type}",
             ("POST", f"/webhooks/{APP_ID}/{pressed.token}"): "follow-up",
             ("PATCH", f"/webhooks/{APP_ID}/{pressed.token}/messages/@original"): "edit of the pressed message"}
    return [named.get((method, path), f"{method} {'channel' if path.startswith('/channels/') else path}")
            for at, method, path, status in fake.timeline if at >= pressed.sent_at and status != 429]


def said(pressed: Interaction) -> str:
    """The one line the press gave the channel (a public follow-up)."""
    [line] = pressed.texts(ephemeral=False)
    return line


ANNOUNCED = ["callback 6", "follow-up", "edit of the pressed message"]
"""A press with a public line: acknowledged at once, the line posted, then the pressed message shows its effect."""


async def test_a_member_back_by_the_button_is_announced_before_the_table_shows_him_waiting(fake, make_bot) -> None:
    """Dan, back after a hand dealt without him, presses "Wait for the big blind": the channel reads 'Dan is back
    and waits for the big blind.' (the press's follow-up), then the pressed table message is edited to show it. The
    press updated the table message first and the line followed as a channel message."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, _, _, dan = await seat(fake, channel, ("Ann", "Bob", "Cat", "Dan"))
    await fake.slash(ann, channel, "deal")
    await fake.slash(dan, channel, "away")
    await bot.settled()
    await fold_to_the_end(fake, bot, channel)
    await fake.slash(ann, channel, "deal")
    await fake.slash(dan, channel, "back")
    await bot.settled()
    table = current_table(fake, channel)
    pressed = await fake.press(dan, table, fake.button(table, "Wait for the big blind"))
    await bot.settled()
    assert after(fake, pressed) == ANNOUNCED
    assert said(pressed) == "Dan is back and waits for the big blind."
    assert "Wait for the big blind" not in [button.get("label") for button in fake.buttons(table)]  # edited


async def test_a_straddle_by_the_button_is_announced_before_the_table_takes_the_button_away(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, _, _ = await seat(fake, channel, ("Ann", "Bob", "Cat"), ("structure", "no-limit"), ("straddle", "on"))
    await bot.settled()
    idle = [m for m in fake.channel_messages(channel) if "Straddle 40 (Ann)" in
            [b.get("label") for b in fake.buttons(m)]][-1]
    pressed = await fake.press(ann, idle, fake.button(idle, "Straddle 40 (Ann)"))
    await bot.settled()
    assert after(fake, pressed) == ANNOUNCED
    assert said(pressed) == "Ann will straddle 40 in the next hand."
    assert "Straddle 40 (Ann)" not in [b.get("label") for b in fake.buttons(fake.messages[int(idle["id"])])]


async def heads_up_dealt(fake: FakeDiscord, bot: Any) -> tuple[list[Member], dict[str, Any]]:
    """Ann and Bob join the first channel and Ann deals: the members and the table message, settled."""
    members = [fake.add_member(name) for name in ("Ann", "Bob")]
    for member in members:
        await fake.slash(member, fake.channels[0], "join")
    await fake.slash(members[0], fake.channels[0], "deal")
    await bot.settled()
    return members, current_table(fake, fake.channels[0])


async def hand_ended_with_follow_up_held(fake: FakeDiscord, bot: Any) -> tuple[dict[str, Any], Interaction]:
    """Heads-up (`heads_up_dealt`), Ann checks; the fake holds the interactions' follow-ups (a slow network) and Bob's
    check ends the hand: the table message and Bob's press, its line on its way."""
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    fake.held_followups = asyncio.Event()
    return table, await fake.press(bob, table, fake.button(table, "Check"))


async def test_a_press_without_a_public_line_still_updates_its_message_alone(fake, turns, make_bot) -> None:
    """A check that passes the turn (the table says it all) is answered as before: its callback edits the pressed
    message (UPDATE_MESSAGE), and nothing else is sent."""
    bot = await make_bot()
    members, table = await heads_up_dealt(fake, bot)
    pressed = await fake.press(members[0], table, fake.button(table, "Check"))
    await bot.settled()
    assert after(fake, pressed) == ["callback 7"]
    assert pressed.callback_type == 7 and "→ Bob" in pressed.callbacks[0]["data"]["content"]


async def test_a_press_that_ends_the_hand_says_so_before_the_table_shows_it_over(fake, turns, make_bot) -> None:
    """Even while Discord holds the channel's messages (a 429 for three seconds), the line and the table's edit go
    at once, in that order: both through the interaction, nothing through the channel's buckets or its queue."""
    bot = await make_bot()
    members, table = await heads_up_dealt(fake, bot)
    await fake.press(members[0], table, fake.button(table, "Check"))
    await bot.settled()
    fake.limit_channel(fake.channels[0], 3.0)
    pressed = await fake.press(members[1], table, fake.button(table, "Check"))
    await until(lambda: fake.messages[int(table["id"])]["content"] == "Hand 1: over.", "the table shown over")
    await bot.settled()
    assert after(fake, pressed) == ANNOUNCED
    assert said(pressed).startswith("Hand 1 is over: ")
    assert fake.limited == []


async def test_a_slow_press_with_a_public_line_is_deferred_then_says_it_before_the_table(fake, turns, make_bot) -> None:
    """The service is slow: the press is acknowledged (deferred) in time, then its line is its follow-up, then the
    table is edited. The deferred press edited the table through the interaction, the line after it."""
    bot = await make_bot(defer_after=0.05)
    members, table = await heads_up_dealt(fake, bot)
    await fake.press(members[0], table, fake.button(table, "Check"))
    await bot.settled()
    turns.delay = 0.3
    async with database_thread_busy(bot):
        pressed = await fake.press(members[1], table, fake.button(table, "Check"))
    await bot.settled()
    assert after(fake, pressed) == ANNOUNCED
    assert pressed.callback_type == 6 and pressed.acked_after is not None and pressed.acked_after <= ACK_SECONDS
    assert pressed.texts(ephemeral=False)[0].startswith("Hand 1 is over: ")
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
