"""Two players of one chat with one display name read apart: the later arrival is shown with a label ("Ann (2)"),
recorded with him, so a restart and the hand history read the same, and a rename gives it up."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store, Tx
from bot.store.chats import label_for, label_players
from bot.store.schema import MIGRATIONS
from tests.bot.conftest import BOB, PLACE, dump
from tests.bot.helpers import ledger_ok

FIRST_ANN = Actor("tg:9", "Ann")
SECOND_ANN = Actor("tg:1", "Ann")  # arrives second with the smaller id: the order is by arrival, not by id


def seats(reply: Reply) -> list[str]:
    """The table message's seat lines, without the marks of who is to act."""
    assert reply.table is not None
    return [line.lstrip("▶ ") for line in reply.table.text.split("\n\n")[0].splitlines()[2:]]


async def raised_by_the_second_ann(service: Service) -> Reply:
    """Both Anns and Bob seated, the first Ann on the button calls and the second raises to 40."""
    for actor in (FIRST_ANN, SECOND_ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    dealt = await service.handle(PLACE, FIRST_ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == FIRST_ANN.user_id
    assert (await service.handle(PLACE, FIRST_ANN, "/call")).error is None
    return await service.handle(PLACE, SECOND_ANN, "/raise")


async def test_two_players_with_one_name_read_apart_at_the_table(service: Service) -> None:
    raised = await raised_by_the_second_ann(service)
    assert seats(raised) == ["Ann · 380 Ⓓ bet 20", "Ann (2) · 360 bet 40", "Bob · 380 bet 20"]
    assert raised.table is not None and raised.table.text.endswith(
        "Ann (2) posts the small blind 10.\nBob posts the big blind 20.\nAnn calls 20.\nAnn (2) raises to 40.\n"
        "▶ Bob to act: 20 to call (⏱ 60\u00a0s).")
    assert (await service.handle(PLACE, BOB, "/fold")).error is None
    folded = await service.handle(PLACE, FIRST_ANN, "/fold")
    assert folded.table is not None and folded.table.text.endswith(
        "Ann folds.\n20 uncalled chips returned to Ann (2).\nAnn (2) wins the main pot (60).\nThe hand is over.")
    (history,) = (await service.handle(PLACE, BOB, "/history 1")).private["bob"]
    assert "Seat 1: Ann (400 in chips)\nSeat 2: Ann (2) (400 in chips)\n" in history
    assert "Ann: calls 20\nAnn (2): raises 20 to 40\n" in history
    await ledger_ok(service)


async def test_the_labels_read_the_same_after_a_restart(service: Service, clock: FakeClock) -> None:
    raised = await raised_by_the_second_ann(service)
    await service.store.close()
    restarted = Service(await Store.open(service.store.location), clock)
    await restarted.start()
    try:
        again = await restarted.handle(PLACE, BOB, "/table")
        assert seats(again) == seats(raised)
        assert again.table is not None and "Ann calls 20.\nAnn (2) raises to 40.\n" in again.table.text
        assert (await restarted.handle(PLACE, SECOND_ANN, "/balance")).private[SECOND_ANN.user_id] == [
            "Your wallet: 600 chips."], "the same player, not a new one"
        assert seats(await restarted.handle(PLACE, BOB, "/table")) == seats(raised)
    finally:
        await restarted.store.close()


async def test_a_rename_gives_up_the_label_and_the_others_keep_theirs(service: Service) -> None:
    await raised_by_the_second_ann(service)
    renamed = await service.handle(PLACE, Actor(SECOND_ANN.user_id, "Bea"), "/table")
    assert seats(renamed)[:2] == ["Ann · 380 Ⓓ bet 20", "Bea · 360 bet 40"]
    back = await service.handle(PLACE, SECOND_ANN, "/table")
    assert seats(back)[:2] == ["Ann · 380 Ⓓ bet 20", "Ann (2) · 360 bet 40"], "the name is still the first Ann's"
    first_renamed = await service.handle(PLACE, Actor(FIRST_ANN.user_id, "Annette"), "/table")
    assert seats(first_renamed)[:2] == ["Annette · 380 Ⓓ bet 20", "Ann (2) · 360 bet 40"], \
        "a label stays while its player keeps his name"
    third = await service.handle(PLACE, Actor("tg:5", "Ann"), "/join 400")
    assert third.public == ["Ann (3) sits down with 400 chips."], "an Ann is still here: the newcomer is labelled"


async def test_a_typed_name_with_its_label_finds_the_labelled_player(service: Service) -> None:
    for actor in (FIRST_ANN, SECOND_ANN):  # the first Ann organizes the chat
        assert (await service.handle(PLACE, actor, "/balance")).error is None
    assert (await service.handle(PLACE, FIRST_ANN, "/grant Ann (2) 50")).public == ["Ann (2) receives 50 chips."]
    assert (await service.handle(PLACE, FIRST_ANN, "/grant @ann 5")).public == ["Ann receives 5 chips."]
    assert (await service.handle(PLACE, SECOND_ANN, "/balance")).private["tg:1"] == ["Your wallet: 1,050 chips."]
    assert (await service.handle(PLACE, FIRST_ANN, "/balance")).private["tg:9"] == ["Your wallet: 1,005 chips."]
    for typed in ("/stats Ann (2)", "/stats ann (2) all", "/stats 30d Ann (2)"):
        (said,) = (await service.handle(PLACE, FIRST_ANN, typed)).public
        assert said.startswith("Ann (2)")  # "Ann (2) over the last 30 days: …"
        assert said.endswith(": no hands played, no tournaments.")
    before = dump(service.store.location)
    refused = await service.handle(PLACE, FIRST_ANN, "/grant Ann (3) 50")
    assert refused.error == "I don't know a player called “Ann (3)” here."
    assert dump(service.store.location) == before
    await ledger_ok(service)


@pytest.mark.parametrize(("name", "others", "label"), [
    ("Ann", [], 0),
    ("Ann", [("Bob", 0)], 0),
    ("Ann", [("Ann", 0)], 2),
    ("ann", [("Ann", 0)], 2),  # typed lookups find names whatever their case: so does the label
    ("Ann", [("Ann", 0), ("Ann", 2)], 3),
    ("Ann", [("Ann", 0), ("Ann", 3)], 2),
    ("Ann", [("Ann", 2)], 3),  # the bare name is free, but another Ann is here: the newcomer is labelled too
    ("Ann", [("Ann (2)", 0)], 0),
    ("Ann", [("Ann", 0), ("Ann (2)", 0)], 3),  # a player called "Ann (2)" keeps his name to himself
    ("Ann (2)", [("Ann", 2)], 2),
])
def test_the_label_is_the_smallest_no_other_player_shows(name: str, others: list[tuple[str, int]],
                                                         label: int) -> None:
    assert label_for(name, others) == label


def players_unlabelled(tx: Tx) -> None:
    """Undo migration 27 in this transaction: `players.label` gone, as a bot before it left the players' rows."""
    tx.db.execute("ALTER TABLE players DROP COLUMN label")
    tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(label_players))


async def test_the_migration_labels_the_players_who_shared_a_name_by_their_arrival(service: Service,
                                                                                    clock: FakeClock) -> None:
    for actor in (FIRST_ANN, BOB, SECOND_ANN, Actor("tg:5", "ANN")):
        assert (await service.handle(PLACE, actor, "/balance")).error is None
    await service.store.transact(players_unlabelled, now=clock.now())
    await service.store.close()
    reopened = Service(await Store.open(service.store.location), clock)
    try:
        names = [await reopened.player_name(PLACE, user_id) for user_id in ("tg:9", "bob", "tg:1", "tg:5")]
        assert names == ["Ann", "Bob", "Ann (2)", "ANN (3)"]
    finally:
        await reopened.store.close()
