"""The program's logging: format and level, quiet HTTP client chatter, and no bot token in any line."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "<redacted>"
QUIET = ("httpx", "httpcore")
"""HTTP clients that log every request URL at INFO or DEBUG (a Telegram URL carries the bot token)."""

TELEGRAM_URL_TOKEN = re.compile(r"(?<=/bot)\d+:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])")
"""Anything shaped like a Telegram bot token where Bot API URLs put it (`…/bot<token>/getUpdates`)."""


class TokenFilter(logging.Filter):
    """Rewrites each record so that no configured secret, and no token in a Bot API URL, reaches a handler.

    The message is formatted with its arguments first (a token may come as an argument), and the traceback is
    formatted here too (an exception's text may quote the token), so what any handler prints is the redacted text.
    """

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        super().__init__()
        self.secrets = sorted({secret for secret in secrets if secret}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        """`text` with every secret and every Bot API URL token replaced by `<redacted>`."""
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return TELEGRAM_URL_TOKEN.sub(REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place; never drops it."""
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def redact_tokens(secrets: Iterable[str | None]) -> TokenFilter:
    """Install a `TokenFilter` for `secrets` on the root logger and on each of its handlers.

    A logger's own filters see only records logged to that very logger, not those propagated from `httpx` or
    `telegram`; a handler's filters see every record it is about to write, so the handlers carry it too.
    """
    token_filter = TokenFilter(secrets)
    root = logging.getLogger()
    root.addFilter(token_filter)
    for handler in root.handlers:
        handler.addFilter(token_filter)
    return token_filter


def setup_logging(level: str, secrets: Iterable[str | None]) -> TokenFilter:
    """The program's logging: `level` for everything but the HTTP clients (WARNING), and `secrets` redacted."""
    logging.basicConfig(level=level, format=FORMAT)
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    return redact_tokens(secrets)
