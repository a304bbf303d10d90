"""Hand and round numbers are unique per table for good: one counter across games, tournaments and restarts, so a
hand's history, ledger rows, export and void are that hand's alone."""

from __future__ import annotations

import asyncio
import logging
import tempfile
from itertools import dropwhile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.render.pokerstars import RecordedHand, export_hand
from bot.service import Service
from bot.store import Store
from tests import postgres
from tests.bot.conftest import BOB, CAT, PLACE
from tests.bot.helpers import corrupt_saved_hand, ledger_ok, play_out, resumed_table, started_service
from tests.bot.pokerstars_helpers import parse

ADMIN = Actor("ann", "Ann", is_admin=True)
PLAYERS = {actor.user_id: actor for actor in (ADMIN, BOB, CAT)}
HOUSE_GAMES = ("russian", "texas", "caribbean", "three-card")


class Table:
    """One table's service over a real SQLite file (or a PostgreSQL database), restarted as the bot would be (new
    store, new service)."""

    def __init__(self, database: Path | str) -> None:
        self.database = database
        self.clock = FakeClock()
        self.store: Store | None = None
        self.service: Service | None = None
        self.restarts = 0

    async def open(self) -> Service:
        self.store = await Store.open(self.database)
        self.service = await started_service(self.store, self.clock, seed=self.restarts)
        return self.service

    async def restart(self) -> Service:
        assert self.store is not None
        await self.store.close()
        self.restarts += 1
        return await self.open()

    async def do(self, actor: Actor, text: str) -> Reply:
        assert self.service is not None
        self.clock.advance(1)
        reply = await self.service.handle(PLACE, actor, text)
        assert reply.error is None, (text, reply.error)
        return reply

    async def state(self) -> tuple[dict[str, Any], dict[str, Any]]:
        store = self.store
        assert store is not None
        loaded = await store.read(lambda tx: resumed_table(store, tx, PLACE.table_id))
        return (loaded[0], loaded[1] or {}) if loaded is not None else ({}, {})

    async def finish_hand(self, preference: tuple[str, ...]) -> None:
        """Play out the hand or round in play, if any."""
        assert self.service is not None
        _, state = await self.state()
        if state.get("hand") or state.get("round"):
            await play_out(self.service, PLACE, PLAYERS, await self.do(ADMIN, "/table"), preference)

    async def switch(self, game: str, preference: tuple[str, ...]) -> None:
        """Finish the hand or round in play, stand everyone up, and switch the table to `game`."""
        await self.finish_hand(preference)
        for seat in (await self.state())[1].get("seats") or []:
            await self.do(PLAYERS[seat["id"]], "/leave")
        if (await self.state())[0].get("game", "holdem") != game:
            await self.do(ADMIN, f"/game {game}")

    async def play(self, game: str, preference: tuple[str, ...], *, leave_open: bool = False) -> None:
        """Play one hand or round of `game` (switching to it first if needed)."""
        if (await self.state())[0].get("game", "holdem") != game:
            await self.switch(game, preference)
        else:
            await self.finish_hand(preference)
        if game == "holdem":
            seated = {seat["id"] for seat in (await self.state())[1].get("seats") or []}
            for actor in (ADMIN, BOB):
                if actor.user_id not in seated:
                    await self.do(actor, "/join 200")
        else:
            await self.do(ADMIN, "/ante 10")
        reply = await self.do(ADMIN, "/deal")
        assert self.service is not None and reply.table is not None
        if not leave_open:
            await play_out(self.service, PLACE, PLAYERS, reply, preference)

    async def tournament(self, preference: tuple[str, ...]) -> None:
        """A one-level tournament of one hand at the Hold'em table, closed by the organizer."""
        await self.switch("holdem", preference)
        await self.do(ADMIN, "/tournament create 10/20")
        for actor in (ADMIN, BOB):
            await self.do(actor, "/join")
        started = await self.do(ADMIN, "/tournament start")
        if not (await self.state())[1].get("hand"):
            started = await self.do(ADMIN, "/deal")
        assert self.service is not None
        await play_out(self.service, PLACE, PLAYERS, started, preference)
        await self.do(ADMIN, "/tournament close")

    async def void(self) -> None:
        """Make the snapshot of the hand in play unreadable and restart: the hand is voided."""
        assert self.store is not None
        await corrupt_saved_hand(self.store, PLACE, self.clock.now())
        await self.restart()


async def history_rows(store: Store) -> list[tuple[str, str]]:
    """(hand id, event kind) of every logged event of the table's hands and rounds, in order."""
    events = await store.read(lambda tx: tx.every_event(PLACE.table_id))
    return [(hand_id, str(event.get("kind", ""))) for _, hand_id, _, event in events if hand_id[:1] in ("h", "r")]


def assert_one_hand_per_id(rows: list[tuple[str, str]]) -> None:
    """Each id holds one hand (its one `HandStarted` first, `HandEnded` only last) or one round (its bets first and
    only there, `RoundEnded` only last)."""
    by_id: dict[str, list[str]] = {}
    for hand_id, kind in rows:
        by_id.setdefault(hand_id, []).append(kind)
    for hand_id, kinds in by_id.items():
        if hand_id.startswith("h"):
            assert kinds[0] == "HandStarted" and "HandStarted" not in kinds[1:], (hand_id, kinds)
            assert "HandEnded" not in kinds[:-1], (hand_id, kinds)
        else:
            after_bets = list(dropwhile(lambda kind: kind == "BetsPlaced", kinds))
            assert kinds[0] == "BetsPlaced" and "BetsPlaced" not in after_bets, (hand_id, kinds)
            assert "RoundEnded" not in kinds[:-1], (hand_id, kinds)


def assert_numbers_only_go_up(rows: list[tuple[str, str]]) -> None:
    """Numbers are never used twice, by a hand or a round, and go up in the order hands and rounds were played."""
    numbers = [int(hand_id[1:]) for hand_id in dict.fromkeys(hand_id for hand_id, _ in rows)]
    assert numbers == sorted(set(numbers)), numbers


async def assert_every_hand_exports(store: Store) -> int:
    """Every finished hand exports on its own under its own number, parses with pokerkit's PokerStars parser, and
    has one set of blinds; returns how many there are."""
    records = await store.read(lambda tx: tx.hand_records(PLACE.table_id, tx.finished_hands(PLACE.table_id, 1000)))
    for hand_id, at, events in records:
        names = {player: player.upper() for player in events[0]["players"]}
        text = export_hand(RecordedHand(events, at, PLACE.table_id), names, reveal_all=True)
        assert text.startswith(f"PokerStars Hand #{hand_id[1:]}: "), text
        assert text.count("posts small blind") == 1 and text.count("posts big blind") == 1, text
        (history,) = parse(text)
        assert sum(1 for blind in history.blinds_or_straddles if blind) == 2, text
    return len(records)


# --- stories --------------------------------------------------------------------------------------------------


async def test_numbers_go_on_across_games_tournaments_and_restarts(tmp_path: Path) -> None:
    table = Table(tmp_path / "bot.db")
    await table.open()
    await table.play("holdem", ("check", "call"))
    await table.play("russian", ("play", "decline", "fold"))
    await table.restart()
    await table.play("holdem", ("check", "call"), leave_open=True)
    await table.restart()
    await table.tournament(("check", "call"))
    await table.play("holdem", ("fold",))
    assert table.store is not None
    rows = await history_rows(table.store)
    assert list(dict.fromkeys(hand_id for hand_id, _ in rows)) == ["h1", "r2", "h3", "h4", "h5"]
    assert_one_hand_per_id(rows)
    assert_numbers_only_go_up(rows)
    assert await assert_every_hand_exports(table.store) == 4
    await table.store.close()


async def test_a_tournament_file_holds_only_its_own_hands(tmp_path: Path) -> None:
    table = Table(tmp_path / "bot.db")
    await table.open()
    await table.play("holdem", ("fold",))  # a cash hand, number 1
    await table.play("texas", ("play", "decline", "fold"))
    await table.tournament(("check", "call"))  # before: the tournament's first hand was number 1 again
    reply = await table.do(BOB, "/history tournament")
    (file,) = reply.files
    text = file.content.decode()
    assert text.count("PokerStars Hand #") == 1 and text.startswith("PokerStars Hand #3: "), text
    assert text.count("posts small blind") == 1 and text.count("posts big blind") == 1, text
    assert len(parse(text)) == 1
    assert table.store is not None
    await table.store.close()


async def test_voiding_at_restart_refunds_that_hand_alone(tmp_path: Path) -> None:
    """Before: the voided hand shared `h1` with an earlier hand, its refund counted both, failed (`InsufficientFunds`)
    and left the table unreadable for every later command."""
    table = Table(tmp_path / "bot.db")
    await table.open()
    await table.play("holdem", ("bet", "raise", "call"))  # hand 1: chips change hands
    await table.play("russian", ("play", "decline", "fold"))
    await table.play("holdem", ("call", "check"), leave_open=True)  # hand 3: blinds and a call in the pot
    assert table.store is not None
    _, state = await table.state()
    stacks_before = {seat["id"]: seat["stack"] for seat in state["seats"]}
    pot = await table.store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}"))
    assert pot > 0
    await table.void()
    store = table.store
    assert await store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 0
    _, state = await table.state()
    assert state["hand"] is None
    assert {seat["id"]: seat["stack"] for seat in state["seats"]} == stacks_before
    stacks = await store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks == {f"stack:{PLACE.table_id}:{user}": chips for user, chips in stacks_before.items()}
    refunds = await store.read(lambda tx: {move.hand_id for _, _, move in tx.every_move()
                                           if move.reason == "hand voided"})
    assert refunds == {"h3"}
    assert table.service is not None
    await ledger_ok(table.service)
    again = await table.do(ADMIN, "/deal")  # the table plays on
    assert again.table is not None and again.table.key == "h4"
    await store.close()


async def test_a_record_holding_two_hands_is_left_out_of_history_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table = Table(tmp_path / "bot.db")
    await table.open()
    for _ in range(2):
        await table.play("holdem", ("check", "call"))
    assert table.store is not None
    merged = [event for _, _, events in await table.store.read(
        lambda tx: tx.hand_records(PLACE.table_id, ["h1", "h2"])) for event in events]
    await table.store.transact(lambda tx: tx.add_history(PLACE.table_id, "h7", merged), now=table.clock.now())
    with pytest.raises(ValueError):
        export_hand(RecordedHand(merged, 0.0), {})
    with caplog.at_level(logging.WARNING, logger="bot.history"):
        reply = await table.do(ADMIN, "/history 10")
    assert [text.split(":")[0] for text in reply.private["ann"]] == ["PokerStars Hand #1", "PokerStars Hand #2"]
    assert any("h7" in record.getMessage() for record in caplog.records)
    await table.store.close()


# --- the property -----------------------------------------------------------------------------------------------

PREFERENCES = st.sampled_from([("check", "call"), ("fold", "check"), ("bet", "raise", "call", "check"),
                               ("play", "decline", "fold"), ("fold",)])
STEPS: st.SearchStrategy[tuple[str, Any]] = st.one_of(
    st.tuples(st.just("holdem"), PREFERENCES),
    st.tuples(st.just("hold"), PREFERENCES),
    st.tuples(st.sampled_from(HOUSE_GAMES), PREFERENCES),
    st.tuples(st.just("restart"), st.none()),
    st.tuples(st.just("void"), st.none()),
    st.tuples(st.just("tournament"), PREFERENCES),
)


async def run_steps(database: Path | str, steps: list[tuple[str, Any]]) -> None:
    """Play `steps` at one table of `database` (a SQLite file's path or a PostgreSQL URL) and check its hands."""
    table = Table(database)
    await table.open()
    try:
        for name, preference in steps:
            house = (*preference, "play", "decline", "fold") if preference else ()
            if name == "holdem":
                await table.play("holdem", (*preference, "check", "fold"))
            elif name == "hold":
                await table.play("holdem", preference, leave_open=True)
            elif name in HOUSE_GAMES:
                await table.play(name, house)
            elif name == "restart":
                await table.restart()
            elif name == "void":
                if (await table.state())[1].get("hand"):
                    await table.void()
            else:
                await table.tournament((*preference, "check", "fold"))
        assert table.store is not None and table.service is not None
        rows = await history_rows(table.store)
        assert_one_hand_per_id(rows)
        assert_numbers_only_go_up(rows)
        await assert_every_hand_exports(table.store)
        await ledger_ok(table.service)
    finally:
        assert table.store is not None
        await table.store.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEPS, min_size=2, max_size=7))
def test_no_two_hands_of_a_table_share_an_id(steps: list[tuple[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run_steps(Path(directory) / "bot.db", steps))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEPS, min_size=2, max_size=7))
def test_no_two_hands_of_a_table_share_an_id_on_postgresql(postgres_server: str, steps: list[tuple[str, Any]]) -> None:
    """The same on PostgreSQL, each example in a database (a schema) of its own; fewer examples, as each takes three
    times as long as on SQLite (about 0.25 s)."""
    asyncio.run(run_steps(postgres.fresh_schema(postgres_server), steps))
