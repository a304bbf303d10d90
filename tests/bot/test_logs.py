"""The log filter: no configured secret and no token in a Bot API URL survives in a record's text."""

import logging
import sys

import pytest

from bot.logs import REDACTED, TokenFilter

SECRET = "424242:configured-secret"
SHAPED = "555555555:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0"  # a Telegram token's shape, configured nowhere


def record(message: str, *args: object, exc_info: object = None) -> logging.LogRecord:
    return logging.LogRecord("httpx", logging.INFO, __file__, 1, message, args or None, exc_info)  # type: ignore[arg-type]


def written(entry: logging.LogRecord) -> str:
    assert TokenFilter([SECRET]).filter(entry) is True  # redacts, never drops
    return logging.Formatter().format(entry)


@pytest.mark.parametrize(("message", "args"), [
    (f"token {SECRET} refused", ()),
    ("token %s refused", (SECRET,)),
    ("HTTP Request: %s %s", ("POST", f"https://api.telegram.org/bot{SHAPED}/getUpdates")),
    (f"GET https://api.telegram.org/file/bot{SHAPED}/photos/1.jpg", ()),
    (f"base url http://127.0.0.1:8081/bot{SHAPED}", ()),
])
def test_message_and_arguments_are_redacted(message: str, args: tuple[object, ...]) -> None:
    line = written(record(message, *args))
    assert SECRET not in line and SHAPED not in line
    assert REDACTED in line


def test_an_exceptions_text_is_redacted() -> None:
    try:
        raise RuntimeError(f"The token `{SECRET}` was rejected by the server.")
    except RuntimeError:
        entry = record("start-up failed", exc_info=sys.exc_info())
    line = written(entry)
    assert SECRET not in line
    assert f"The token `{REDACTED}` was rejected" in line


def test_text_without_a_token_is_left_alone() -> None:
    entry = record("%s sits down with %d chips at table 123456:7", "Ann", 200)
    assert written(entry) == "Ann sits down with 200 chips at table 123456:7"
    assert entry.args == ("Ann", 200)  # untouched, so handlers that read them still can
