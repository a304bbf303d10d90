"""The outbox on its own, with a stub bot: what happens to a message whose request failed on the network."""

from __future__ import annotations

from typing import Any

from telegram.error import NetworkError

from bot.telegram.budget import Limits
from bot.telegram.outbox import Outbox, TextOp


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
