"""What a channel reads comes in the order it happened: a table state about to be shown never shows a newer one whose
announcement ("Bob sits down.") waits behind it, unread (the delivery queue and the table board, with a stub client)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.discord.board import TableBoard
from bot.discord.delivery import Delivery
from bot.output import Place, TableMessage

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
    """The service's keeping of the table messages, forgetful (none is retired here)."""

    async def remember_table_message(self, *args: Any, **kwargs: Any) -> None:
        pass


async def test_a_table_state_about_to_be_shown_never_shows_a_newer_one_whose_announcement_is_not_read_yet() -> None:
    """Ann's state is being shown when Bob sits down: his state is numbered, his reply's part not queued yet (the
    adapter is between the two). The channel reads "Bob sits down.", then the table showing his seat, and nothing
    showed it before; two requests, as when Ann's state showed his seat at once and his own then cost nothing."""
    channel = Channel()
    board = TableBoard(Kept(), channel)  # type: ignore[arg-type]
    delivery = Delivery(channel, board, language=lambda place: asyncio.sleep(0, "en"),  # type: ignore[arg-type]
                        lost=lambda place: None)
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
