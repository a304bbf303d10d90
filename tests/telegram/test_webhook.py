"""Webhook mode: Telegram is told where to post updates, and only posts carrying the secret are accepted."""

from __future__ import annotations

import asyncio
import random

import aiohttp
import pytest

from bot.clock import FakeClock
from bot.service import Service, ServiceSettings
from bot.store import Store
from bot.telegram import TelegramAdapter, TelegramSettings
from tests.telegram.conftest import ANN, free_port
from tests.telegram.duel import Duel
from tests.telegram.fake_api import GROUP, TOKEN

pytest.importorskip("tornado", reason="webhook mode needs the webhooks extra")


async def test_webhook_mode_receives_updates_with_the_secret_only(api, tmp_path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = Service(store, FakeClock(), rng=random.Random(1), settings=ServiceSettings(default_game="duel"),
                      controllers={"duel": Duel()})
    await service.start()
    port = free_port()
    settings = TelegramSettings(token=TOKEN, base_url=api.base_url, webhook_url="https://poker.example/tg/hook",
                                webhook_listen="127.0.0.1", webhook_port=port)
    adapter = TelegramAdapter(service, settings)
    await adapter.start()
    try:
        assert api.webhook is not None and api.webhook["url"] == "https://poker.example/tg/hook"
        secret = api.webhook["secret_token"]
        update = {"update_id": 1, **api.command_update(ANN, "/join")}
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/tg/hook"
            forged = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "guess"})
            assert forged.status == 403
            accepted = await http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret})
            assert accepted.status == 200
        for _ in range(100):
            await adapter.flush()
            if api.chat(GROUP["id"]):
                break
            await asyncio.sleep(0.02)
        assert [sent.text for sent in api.chat(GROUP["id"])] == ["ann sits down."]
    finally:
        await adapter.stop()
        await store.close()
