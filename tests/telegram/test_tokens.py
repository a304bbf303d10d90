"""No log line carries the bot token: the adapter at DEBUG with the program's logging, and a token refused at
start-up by the real `pokerbot`."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

from tests.conftest import leaked
from tests.telegram.conftest import ANN, BOB, private_chat
from tests.telegram.fake_api import TOKEN, FakeBotApi

ROOT = Path(__file__).resolve().parents[2]
REFUSED = "987654321:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0"
"""A token shaped like a real one that the fake Bot API does not accept."""


async def test_no_log_record_carries_the_token_at_debug(make_bot, api: FakeBotApi, program_logs) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    await bot.press(ANN, bot.table_message(), "check")
    api.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)  # a retried request
    await bot.command(BOB, "/balance")
    await bot.stop()

    assert any(record.name.startswith("telegram") and record.levelno == logging.DEBUG for record in program_logs)
    assert len([call for call in api.requests if call.method == "getUpdates"]) > 1
    assert not [record for record in program_logs if record.name.startswith(("httpx", "httpcore"))]
    assert leaked(program_logs, (TOKEN,)) == []


async def test_a_refused_token_is_not_printed_at_start_up(api: FakeBotApi, tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith(("POKERBOT_", "DISCORD_"))}
    env.update(TELEGRAM_TOKEN=REFUSED, TELEGRAM_BASE_URL=api.base_url, POKERBOT_LOG_LEVEL="DEBUG",
               POKERBOT_DB=str(tmp_path / "bot.db"), PYTHONPATH=str(ROOT))
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    output = (out + err).decode()
    assert process.returncode == 1, output
    assert " DEBUG " in output  # the whole start-up was logged at DEBUG, traceback included
    assert REFUSED not in output
    last = err.decode().splitlines()[-1]
    assert last.startswith("pokerbot stopped: InvalidToken:") and "<redacted>" in last, last
