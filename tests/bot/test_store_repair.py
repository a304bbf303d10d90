"""The migration to per-table hand numbers, on a database as the previous version wrote it: each game counted its own
hands in the snapshot, so after `/game` switches several hands and rounds shared one id."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import orjson
import pytest

from bot.store import Store, Tx, schema
from bot.store.repair import number_hands_per_table
from tests.bot.conftest import PLACE
from tests.bot.helpers import history_rows_of, ledger_ok
from tests.bot.pokerstars_helpers import parse
from tests.bot.test_hand_numbers import ADMIN, Table, assert_every_hand_exports, assert_one_hand_per_id, history_rows

HOUSE = ("play", "decline", "fold")
OTHER = "chat/other"
OLD_IDS = {"h1": "h1", "r2": "r1", "h3": "h1", "r4": "r1", "h5": "h1"}
"""The ids the previous version gave the hands and rounds played below: every `/game` started again at 1."""


async def play_the_story(path: Path) -> None:
    """With this version: a fixed-limit hand, a Russian Poker round, a no-limit hand, a Texas Poker round, and a
    no-limit hand left in play (its blinds in the pot)."""
    table = Table(path)
    await table.open()
    await table.play("holdem", ("bet", "raise", "call", "check"))
    await table.play("russian", HOUSE)
    await table.switch("holdem", HOUSE)
    await table.do(ADMIN, "/set structure no-limit")
    await table.play("holdem", ("check", "call"))
    await table.play("texas", HOUSE)
    await table.switch("holdem", HOUSE)
    await table.do(ADMIN, "/set structure no-limit")
    await table.play("holdem", (), leave_open=True)
    assert table.store is not None
    await table.store.close()


def renumbered(text: str, number: int) -> str:
    """An event with the hand number the previous version had written (Hold'em events carry theirs)."""
    event = orjson.loads(text)
    if isinstance(event.get("hand_number"), int):
        event["hand_number"] = number
    return orjson.dumps(event).decode()


def old_snapshot(text: str) -> str:
    """The Hold'em table's snapshot as the previous version had it: the hand in play is hand 1 of the game."""
    state = orjson.loads(text)
    state["number"] = state["hand"]["hand_number"] = 1
    return orjson.dumps(state).decode()


def write_previous_version(source: Path, target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same chips and events as the previous version stored them: its schema (the migrations before this one),
    its ids (`OLD_IDS`), its numbers in the events and the snapshot. A second table holds a record no migration
    can split: two hands under `h1`, the second one's `HandStarted` lost."""
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:schema.MIGRATIONS.index(number_hands_per_table)])
    old = sqlite3.connect(target, isolation_level=None)
    schema.migrate(old)
    monkeypatch.undo()
    new = sqlite3.connect(source)
    for table, columns in (("chats", "chat_id, settings"), ("players", "chat_id, user_id, name"),
                           ("accounts", "name, chat_id, kind, may_go_negative, balance"),
                           ("timers", "key, table_id, due_at, payload"),
                           ("tournaments", "id, chat_id, table_id, status, state, created_at")):
        rows = new.execute(f"SELECT {columns} FROM {table}").fetchall()
        if table == "accounts":  # the previous version wrote a hand's moves to the balances as they came
            rows = [(*row[:-1], Tx(new, 0.0).balance(row[0])) for row in rows]
        marks = ", ".join("?" * len(columns.split(", ")))
        old.executemany(f"INSERT INTO {table}({columns}) VALUES ({marks})", rows)
    for table_id, chat_id, config, state, at in new.execute(
            "SELECT table_id, chat_id, config, state, updated_at FROM tables"):
        old.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?)", (table_id, chat_id, config, old_snapshot(state), at))
    old.execute("INSERT INTO tables VALUES (?, 'chat', '{}', '{}', 0)", (OTHER,))
    for number, (at, chat_id, move) in enumerate(Tx(new, 0.0).every_move(), start=1):
        row = (number, at, chat_id, move.source, move.target, move.amount, move.reason, move.table_id, move.hand_id)
        old.execute("INSERT INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*row[:-1], OLD_IDS.get(row[-1], row[-1])))
    history = history_rows_of(Tx(new, 0.0))
    for row_id, table_id, hand_id, at, event in history:
        old_id = OLD_IDS.get(hand_id, hand_id)
        number = int(old_id[1:]) if old_id[0] in "hr" else 0
        old.execute("INSERT INTO history VALUES (?, ?, ?, ?, ?)",
                    (row_id, table_id, old_id, at, renumbered(event, number) if number else event))
    first, second = ([row[0] for row in history if row[2] == hand_id] for hand_id in ("h1", "h3"))
    old.execute(f"INSERT INTO history(table_id, hand_id, at, event) SELECT ?, hand_id, at, event FROM history "
                f"WHERE id IN ({', '.join(map(str, first + second[1:]))}) ORDER BY id", (OTHER,))
    old.close()
    new.close()


async def test_the_migration_splits_merged_hands_and_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    await play_the_story(tmp_path / "current.db")
    write_previous_version(tmp_path / "current.db", tmp_path / "old.db", monkeypatch)
    with sqlite3.connect(tmp_path / "old.db") as before:
        merged = before.execute("SELECT hand_id, COUNT(*) FROM history WHERE table_id = ? AND "
                                "json_extract(event, '$.kind') IN ('HandStarted', 'RoundEnded') GROUP BY hand_id",
                                (PLACE.table_id,)).fetchall()
    assert sorted(merged) == [("h1", 3), ("r1", 2)]

    with caplog.at_level(logging.WARNING, logger="bot.store.repair"):
        store = await Store.open(tmp_path / "old.db")
    rows = await history_rows(store)
    assert list(dict.fromkeys(hand_id for hand_id, _ in rows)) == ["h2", "r4", "h3", "r1", "h1"]
    assert_one_hand_per_id(rows)
    assert await store.read(lambda tx: tx.db.execute(
        "SELECT last_number FROM tables WHERE table_id = ?", (PLACE.table_id,)).fetchone()[0]) == 4
    assert await assert_every_hand_exports(store) == 2
    records = await store.read(lambda tx: tx.hand_records(PLACE.table_id, ["h2", "h3"]))
    assert [(record[2][0]["hand_number"], record[2][0]["structure"]) for record in records] == [
        (2, "home-limit"), (3, "no-limit")]

    # the ledger rows followed their hands: each finished hand's rows leave its pot empty
    for hand_id in ("h2", "h3"):
        ledger = await store.read(lambda tx, hand_id=hand_id: tx.ledger_rows(PLACE.table_id, hand_id))
        pot = f"pot:{PLACE.table_id}"
        assert ledger and sum(row.amount * ((row.target == pot) - (row.source == pot)) for row in ledger) == 0

    # the record that cannot be split is kept, out of exports, with a warning
    other = await store.read(lambda tx: {hand_id for _, hand_id, _, _ in tx.every_event(OTHER)})
    assert other == {"excluded:h2"}
    assert await store.read(lambda tx: tx.finished_hands(OTHER, 10)) == []
    assert any("excluded:h2" in record.getMessage() and OTHER in record.getMessage() for record in caplog.records)
    await store.close()


async def test_after_the_migration_a_hand_that_shared_its_id_is_voided_alone(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the hand in play was the third `h1`; voiding it counted the two finished hands' chips too, could not
    pay them (`InsufficientFunds`), and left the table unreadable."""
    await play_the_story(tmp_path / "current.db")
    write_previous_version(tmp_path / "current.db", tmp_path / "old.db", monkeypatch)
    with sqlite3.connect(tmp_path / "old.db") as before:
        (state,) = before.execute("SELECT state FROM tables WHERE table_id = ?", (PLACE.table_id,)).fetchone()
        snapshot: dict[str, Any] = orjson.loads(state)
        del snapshot["hand"]["deck"]  # unreadable: voided at the restart
        before.execute("UPDATE tables SET state = ? WHERE table_id = ?", (orjson.dumps(snapshot).decode(),
                                                                            PLACE.table_id))
    stacks = {seat["id"]: seat["stack"] for seat in snapshot["seats"]}

    table = Table(tmp_path / "old.db")
    service = await table.open()
    assert table.store is not None
    assert await table.store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 0
    assert await table.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:")) == {
        f"stack:{PLACE.table_id}:{user}": chips for user, chips in stacks.items()}
    await ledger_ok(service)
    dealt = await table.do(ADMIN, "/deal")
    assert dealt.table is not None and dealt.table.key == "h5"
    reply = await table.do(ADMIN, "/history 10")
    # the story's house rounds are told too, in the order they were played
    assert [text.splitlines()[0].split(":")[0] for text in reply.private["ann"]] == [
        "PokerStars Hand #2", "Round 4", "PokerStars Hand #3", "Round 1"]
    texts = [text for text in reply.private["ann"] if text.startswith("PokerStars")]
    assert "Hold'em Limit" in texts[0] and "Hold'em No Limit" in texts[1]
    assert len(parse("\n\n\n".join(texts))) == 2
    await table.store.close()
