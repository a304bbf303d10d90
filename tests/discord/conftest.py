"""Fixtures for the Discord adapter's end-to-end tests: the fake Discord, the service on a real SQLite file, and a
bot (the real discord.py client) connected to the fake."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.clock import FakeClock
from bot.command_parser import button_payload
from bot.commands import Check, Command, Deal, Join, Table
from bot.discord import DiscordAdapter, DiscordOptions
from bot.games import Controller, default_controllers
from bot.games.context import Action, Refusal
from bot.output import Button, TableMessage
from bot.service import Service, ServiceSettings
from bot.store import Store
from engine.cards import Deck
from tests.discord.fake_discord import ACK_SECONDS, GUILD_ID, TOKEN, FakeDiscord
from tests.service_seam import ServiceSeam


class Turns:
    """A scripted game for adapter tests: everyone seated gets one card, then each in turn presses Check; the last
    check ends the hand and shows the cards. A clock announcement is armed with each hand."""

    delay = 0.0
    """Seconds each command takes, to make the service slow (in the database thread when a test keeps that thread
    busy: a batch that can start at once runs in the event loop's thread, which nothing else can use meanwhile)."""
    note = ""
    """A private answer to `/table`, when set (to try long answers)."""

    def handle(self, act: Action, command: Command) -> None:
        time.sleep(self.delay)
        state = act.state
        seated: list[str] = state.setdefault("seated", [])
        if isinstance(command, Join):
            if act.user in seated:
                raise Refusal("You are seated already.")
            seated.append(act.user)
            act.reply.public.append(f"{act.name(act.user)} sits down.")
        elif isinstance(command, Deal):
            if state.get("to_act") is not None:
                raise Refusal("Finish this hand first.")
            if len(seated) < 2:
                raise Refusal("Two players are needed.")
            state["hand"] = state.get("hand", 0) + 1
            deck = Deck(act.rng)
            state["cards"] = {user: str(deck.deal(1)[0]) for user in seated}
            state["to_act"] = 0
            act.reply.public.append(f"Hand {state['hand']} begins.")
            for user in seated:
                act.reply.tell(user, f"Your card: {state['cards'][user]}")
            act.arm(f"clock:{act.place.table_id}", 60, hand=state["hand"])
        elif isinstance(command, Check):
            if state.get("to_act") is None:
                raise Refusal("No hand in progress.")
            if seated[state["to_act"]] != act.user:
                raise Refusal("It is not your turn.")
            state["to_act"] += 1
            if state["to_act"] == len(seated):
                state["to_act"] = None
                shown = ", ".join(f"{act.name(u)} {c}" for u, c in state["cards"].items())
                act.reply.public.append(f"Hand {state['hand']} is over: {shown}.")
        elif isinstance(command, Table):
            if self.note:
                act.reply.tell(act.user, self.note)
        else:
            raise Refusal(f"/{command.name} is not part of this game.")
        act.show_table(self.table_message(act))

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        act.reply.public.append(f"Clock: level 2 begins (hand {payload['hand']}).")
        return True

    def resume(self, act: Action) -> bool:
        return False  # nothing to check or void: it changed nothing

    def usage(self, command: type[Command], config: dict[str, Any], language: str) -> str | None:
        return None  # every command's general usage (`/help`)

    def revive(self, state: dict[str, Any]) -> bool:
        return True

    def current_key(self, act: Action) -> str | None:
        return f"h{act.state['hand']}" if act.state.get("to_act") is not None else None

    def is_busy(self, act: Action) -> bool:
        return act.state.get("to_act") is not None

    def table_message(self, act: Action) -> TableMessage | None:
        state = act.state
        if "hand" not in state:
            return None
        key = f"h{state['hand']}"
        seated = state["seated"]
        if state.get("to_act") is None:
            return TableMessage(key, f"Hand {state['hand']}: over.")
        to_act = seated[state["to_act"]]
        lines = [f"Hand {state['hand']}"] + [f"{'→ ' if u == to_act else '  '}{act.name(u)}" for u in seated]
        return TableMessage(key, "\n".join(lines), (Button("Check", button_payload(key, "check")),), to_act)

    def private_view(self, act: Action, user_id: str) -> str | None:
        card = act.state.get("cards", {}).get(user_id)
        return f"Your card: {card}" if card and act.state.get("to_act") is not None else None


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", server.gateway_url)
    yield server
    await server.close()
    # the bot paces itself from the rate-limit headers: a 429 only where a test made the channel refuse
    assert [hit for hit in server.limited if not server.throttled & set(hit[1].split("/"))] == []


@pytest.fixture
def turns() -> Turns:
    return Turns()


@pytest.fixture
def controllers(turns: Turns) -> dict[str, Controller]:
    """The real games and the scripted one."""
    return {**default_controllers(), "turns": turns}


class Bot:
    """Starts (and restarts) the whole application against the fake: store, service and the Discord adapter."""

    def __init__(self, path: Path | str, clock: FakeClock, options: DiscordOptions, default_game: str,
                 controllers: dict[str, Controller]) -> None:
        self.path, self.clock, self.options, self.default_game = path, clock, options, default_game
        self.controllers = controllers
        self.store: Store | None = None
        self.service: ServiceSeam | None = None
        """The service, as the adapter holds it: a test may replace one of its methods there."""
        self.adapter: DiscordAdapter | None = None

    async def start(self, seed: int = 7) -> DiscordAdapter:
        self.store = await Store.open(self.path)
        self.service = ServiceSeam(Service(self.store, self.clock, rng=random.Random(seed),
                                           settings=ServiceSettings(default_game=self.default_game),
                                           controllers=self.controllers))
        await self.service.start()
        self.adapter = DiscordAdapter(self.service, TOKEN, self.options, guild_ready_timeout=0.1)
        await self.adapter.start()
        return self.adapter

    async def stop(self) -> None:
        if self.adapter is not None:
            await self.adapter.stop()
        if self.store is not None:
            await self.store.close()
        self.adapter = self.service = self.store = None

    async def settled(self) -> None:
        assert self.adapter is not None
        await self.adapter.settled()


@pytest.fixture
async def make_bot(fake: FakeDiscord, tmp_path: Path,
                   controllers: dict[str, Controller]) -> AsyncIterator[Callable[..., Awaitable[Bot]]]:
    bots: list[Bot] = []

    async def make(default_game: str = "turns", *, database: Path | str | None = None, clock: FakeClock | None = None,
                   **options: Any) -> Bot:
        """A bot on `database` (a PostgreSQL URL; the test's SQLite file by default) and `clock` (its own by
        default: bots on one database share theirs)."""
        # the bot defers only where Discord would refuse a later answer: a loaded machine's slow press is answered
        # as a quick one (a test of deferring sets its own `defer_after`)
        settings = {"guild_id": GUILD_ID, "defer_after": ACK_SECONDS, **options}
        bot = Bot(database or tmp_path / "bot.db", clock or FakeClock(), DiscordOptions(**settings), default_game,
                  controllers)
        await bot.start()
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        await bot.stop()
