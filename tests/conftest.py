"""What every test shares: no bot token the fakes configure ever reaches a log record, the program's logging, and
no stale compiled build under test."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest

from bot.compiled import refusal
from bot.config import Settings, webhook_secret_from
from bot.logs import QUIET, TokenFilter, setup_logging
from tests import postgres
from tests.discord.fake_discord import TOKEN as DISCORD_TOKEN
from tests.loop_timers import LoopTimers
from tests.telegram.fake_api import TOKEN as TELEGRAM_TOKEN

FAKE_TOKENS = (TELEGRAM_TOKEN, DISCORD_TOKEN, webhook_secret_from(TELEGRAM_TOKEN))
"""The fakes' bot tokens, and the webhook secret the Telegram adapter derives from its token (the tests of
tests/telegram configure none of their own)."""
PROGRAM_REDACTION = TokenFilter(Settings(telegram_token=TELEGRAM_TOKEN, discord_token=DISCORD_TOKEN).secrets())
"""What `pokerbot` configured with the fakes' tokens would redact from every log line."""
OUR_LOGGERS = ("bot", "pokerbot")


def leaked(records: list[logging.LogRecord], tokens: tuple[str, ...] = FAKE_TOKENS,
           redaction: TokenFilter | None = None) -> list[str]:
    """The formatted records (message, traceback and stack) that contain one of `tokens` (after `redaction`)."""
    formatter = logging.Formatter()
    lines = (formatter.format(record) for record in records)
    if redaction is not None:
        lines = (redaction.redact(line) for line in lines)
    return [line for line in lines if any(token in line for token in tokens)]


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test a stale compiled build (`bot.compiled`): its old code would be tested, not the sources."""
    reason = refusal()
    if reason is not None:
        pytest.exit(reason, returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(autouse=True)
def no_token_in_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test whose log records, from DEBUG up, contain a token the fakes configure: the program's own records
    and every warning as they are made, and every record as `pokerbot` writes it, redacted (python-telegram-bot's
    DEBUG records name the token and the webhook secret). The HTTP clients are as quiet as `pokerbot` makes them
    (`bot.logs.QUIET`: WARNING)."""
    for name in QUIET:
        caplog.set_level(logging.WARNING, logger=name)
    caplog.set_level(logging.DEBUG)  # last: each call sets the capturing handler's level too
    yield
    for when in ("setup", "call"):
        records = caplog.get_records(when)
        raw = [record for record in records
               if record.levelno >= logging.WARNING or record.name.partition(".")[0] in OUR_LOGGERS]
        assert leaked(raw) == [], f"a bot token was logged during {when}"
        assert leaked(records, redaction=PROGRAM_REDACTION) == [], f"a bot token would be logged during {when}"


class Recorder(logging.Handler):
    """Keeps every record it is handed, as a handler of the root logger would write it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def program_logs() -> Iterator[list[logging.LogRecord]]:
    """Logging as `pokerbot` sets it up (`bot.logs.setup_logging`) at DEBUG, with the fakes' tokens configured;
    yields every record a root handler writes. Undone after the test."""
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", *QUIET)}
    recorder = Recorder()
    root.addHandler(recorder)
    root.setLevel(logging.DEBUG)
    token_filter = setup_logging("DEBUG", FAKE_TOKENS)
    try:
        yield recorder.records
    finally:
        for handler in root.handlers:
            handler.removeFilter(token_filter)
        root.removeFilter(token_filter)
        root.removeHandler(recorder)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for the session (see `tests.postgres`); skips the test when there is none."""
    yield from postgres.server()


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A PostgreSQL database of the test's own (an empty schema on the session's server)."""
    return postgres.fresh_schema(postgres_server)


@pytest.fixture
async def loop_timers(monkeypatch: pytest.MonkeyPatch) -> LoopTimers:
    """Records every timer set on the test's event loop from here on, with the function that asked for it."""
    loop = asyncio.get_running_loop()
    timers = LoopTimers(loop)
    monkeypatch.setattr(loop, "call_at", timers.call_at)
    return timers
