"""Each player's private messages come in his platform's language whoever acts: the language his last command came
with is stored (`players.locale`), and what another player's action tells him alone (his cards at a deal) is written
in it, below his own choice (`/lang en me`) and the chat's `/lang`, above the chat's first player's language."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.replay import RecordingTx, ReplayTx
from bot.service import Service
from bot.store import Store, Tx
from tests.bot.conftest import PLACE
from tests.bot.helpers import started_service

ANN = Actor("ann", "Ann", "en")
BOB = Actor("bob", "Bob", "ru")
"""Bob, whose client speaks Russian, in a chat Ann (English) opened."""


async def dealt_by_ann(service: Service, *before: tuple[Actor, str]) -> Reply:
    """Ann and Bob sit down, `before` are said next (who says what), and Ann deals (seed 42: Ann holds 7♠ 2♠, Bob
    4♦ 8♦)."""
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    for actor, line in before:
        assert (await service.handle(PLACE, actor, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and "Hand #1: button" in dealt.table.text, "the table stays in the chat's language"
    return dealt


async def test_a_russian_client_dealt_by_an_english_player_gets_his_cards_in_russian(service: Service) -> None:
    dealt = await dealt_by_ann(service)
    assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Ваши карты: 4♦ 8♦"]}


async def test_his_own_choice_comes_before_his_platforms_language(service: Service) -> None:
    dealt = await dealt_by_ann(service, (BOB, "/lang en me"))
    assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Your cards: 4♦ 8♦"]}


async def test_the_chats_own_choice_comes_before_his_platforms_language(service: Service) -> None:
    dealt = await dealt_by_ann(service, (ANN, "/lang en"))
    assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Your cards: 4♦ 8♦"]}


async def test_the_language_his_last_command_came_with_is_the_one_he_is_told_in(service: Service) -> None:
    dealt = await dealt_by_ann(service, (Actor("bob", "Bob", "en"), "/balance"))
    assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Your cards: 4♦ 8♦"]}


async def test_a_command_whose_platform_says_no_language_keeps_the_one_known(service: Service) -> None:
    dealt = await dealt_by_ann(service, (Actor("bob", "Bob"), "/balance"))
    assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Ваши карты: 4♦ 8♦"]}


async def test_his_platforms_language_is_kept_across_a_restart(store: Store, clock: FakeClock) -> None:
    first = await started_service(store, clock, seed=42)
    for actor in (ANN, BOB):
        assert (await first.handle(PLACE, actor, "/join")).error is None
    await first.stop()
    reopened = await Store.open(store.location)
    try:
        service = await started_service(reopened, clock, seed=42)
        dealt = await service.handle(PLACE, ANN, "/deal")
        assert dealt.private == {"ann": ["Your cards: 7♠ 2♠"], "bob": ["Ваши карты: 4♦ 8♦"]}
        await service.stop()
    finally:
        await reopened.close()


async def test_his_platforms_language_is_written_only_when_it_changes(service: Service, tmp_path: Path) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    database = sqlite3.connect(tmp_path / "bot.db")
    database.executescript("CREATE TABLE seen(user_id TEXT, locale TEXT); CREATE TRIGGER count_seen AFTER UPDATE ON "
                           "players BEGIN INSERT INTO seen VALUES (new.user_id, new.locale); END;")
    database.commit()
    try:
        for line in ("/balance", "/deal", "/balance"):
            assert (await service.handle(PLACE, BOB, line)).error is None
        assert database.execute("SELECT * FROM seen").fetchall() == [], "the same language is not written again"
        assert (await service.handle(PLACE, Actor("bob", "Bob", "en"), "/balance")).error is None
        assert (await service.handle(PLACE, Actor("bob", "Bob", "en"), "/balance")).error is None
        assert database.execute("SELECT * FROM seen").fetchall() == [("bob", "en")], "a new one, once"
    finally:
        database.close()


async def test_his_language_is_neither_recorded_nor_asked_for_in_a_replay(store: Store) -> None:
    await store.transact(lambda tx: tx.ensure_player("chat", "bob", "Bob", "ru"), now=1.0)

    def live(tx: Tx) -> tuple[str | None, str, list[Any]]:
        recording = RecordingTx(tx)
        return recording.player_locale("chat", "bob"), recording.player_name("chat", "bob"), recording.reads

    assert await store.read(live) == ("ru", "Bob", [["player_name", "Bob"]]), "only the name is in the log row"
    replay = ReplayTx([["player_name", "Bob"]])
    assert replay.player_locale("chat", "bob") is None and replay.player_name("chat", "bob") == "Bob"
