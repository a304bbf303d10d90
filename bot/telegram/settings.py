"""How to reach Telegram, from `.env`: the token, the Bot API server, polling or webhook, and the send budget."""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Settings
from bot.telegram.budget import Limits


@dataclass(frozen=True)
class TelegramSettings:
    """How to reach Telegram, from `.env`: the token, an optional self-hosted Bot API server, polling or webhook."""

    token: str
    base_url: str | None = None
    """A self-hosted Bot API server, e.g. `http://localhost:8081/bot` (the token is appended)."""
    webhook_url: str | None = None
    """When set, receive updates by webhook at this public URL instead of long polling."""
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: str | None = None
    """The `X-Telegram-Bot-Api-Secret-Token` Telegram must send; derived from the token when not set."""
    poll_timeout: int = 10
    """Seconds each long-polling `getUpdates` may wait on the server."""
    group_per_minute: int = 20
    """Sends and edits per minute into one group (Telegram's limit is about 20)."""
    private_per_second: int = 1
    """Messages per second into one private chat (Telegram's limit is about 1)."""
    bot_per_second: int = 30
    """Requests per second for the whole bot (Telegram's limit is about 30)."""
    time_scale: float = 1.0
    """Divides every budget window: only for a fake Bot API running on the same fast clock (tests, benchmarks)."""

    def limits(self) -> Limits:
        """The send budget these settings give."""
        return Limits((self.group_per_minute, 60.0), (self.private_per_second, 1.0), (self.bot_per_second, 1.0),
                      self.time_scale)

    @classmethod
    def from_app(cls, settings: Settings) -> TelegramSettings:
        """The Telegram part of the application's settings (read from `.env` by `bot.config`)."""
        if not settings.telegram_token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        return cls(
            token=settings.telegram_token,
            base_url=settings.telegram_base_url,
            webhook_url=settings.telegram_webhook_url,
            webhook_port=settings.telegram_webhook_port,
            webhook_secret=settings.telegram_webhook_secret,
        )
