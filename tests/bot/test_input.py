"""Hostile input through the service: text the store cannot hold, foreign digits, huge numbers, long lines echoed back,
platform names that need cleaning, and timers that fire for nothing."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import commands as cmd
from bot.clock import FakeClock
from bot.i18n import text
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store
from bot.store.tx import HISTORY_ONLY
from engine.text import QUOTE_LIMIT
from tests.bot.conftest import ANN, BOB, PLACE, dump
from tests.bot.helpers import ledger_ok, listen, started_service

SURROGATE = "\ud800"
LONG = "Q" * 2000


async def seated(service: Service, game: str = "holdem") -> None:
    """Ann (the organizer) and Bob at the table, a hand or round under way."""
    await service.handle(PLACE, ANN, f"/game {game}")
    assert (await service.handle(PLACE, ANN, "/join")).error is None
    assert (await service.handle(PLACE, BOB, "/join")).error is None
    if game != "holdem":
        assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None


def all_text(reply) -> list[str]:
    texts = [reply.error or "", *reply.public, *(m for ms in reply.private.values() for m in ms)]
    if reply.table is not None:
        texts.append(reply.table.text)
    return texts


# --- text the store cannot hold -------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    f"/grant {SURROGATE} 10", f"/pawn silk {SURROGATE}shirt", f"/set timezone {SURROGATE}", f"/stats @{SURROGATE}",
    f"/addbot {SURROGATE}", f"/tournament create 10/20 {SURROGATE}", f"/lang {SURROGATE}", f"/history {SURROGATE}",
    f"/help {SURROGATE}", f"/game {SURROGATE}", f"/exchange {SURROGATE}", f"/{SURROGATE}", SURROGATE,
    f"/raise 4{SURROGATE}0",
])
async def test_text_that_cannot_be_stored_is_refused_and_changes_nothing(service: Service, store: Store,
                                                                         tmp_path: Path, line: str) -> None:
    await seated(service)
    before = dump(tmp_path / "bot.db")
    reply = await service.handle(PLACE, ANN, line)
    assert reply.error == "I can't read that: it has characters that are not valid text."
    assert reply.public == [] and reply.private == {}
    assert dump(tmp_path / "bot.db") == before


async def test_the_refusal_is_in_the_players_language(service: Service) -> None:
    ivan = Actor("tg:7", "Ivan", language="ru")
    reply = await service.handle(PLACE, ivan, f"/pawn {SURROGATE}")
    assert reply.error == text("ru", "parse.bad_text") == "Не могу прочитать: в тексте есть недопустимые символы."


async def test_a_button_payload_that_cannot_be_stored_is_refused(service: Service, tmp_path: Path) -> None:
    await seated(service)
    before = dump(tmp_path / "bot.db")
    reply = await service.press(PLACE, ANN, f"h1|raise {SURROGATE}")
    assert reply.error == text("en", "parse.bad_text")
    assert dump(tmp_path / "bot.db") == before


async def test_a_platform_name_that_cannot_be_stored_is_cleaned_not_refused(service: Service, tmp_path: Path) -> None:
    """The player cannot change his name in the middle of a command, so the name is cleaned: a lone surrogate
    becomes U+FFFD, a control character a space; a name with nothing left is his id."""
    zoe = Actor("tg:9", f"Zo{SURROGATE}e\n\x00Smith")
    reply = await service.handle(PLACE, zoe, "/join")
    assert reply.error is None
    assert reply.public == ["Zo\ufffde Smith sits down with 400 chips."]
    blank = Actor("tg:10", "\x00\u202e")
    assert (await service.handle(PLACE, blank, "/join")).public == ["tg:10 sits down with 400 chips."]
    with sqlite3.connect(tmp_path / "bot.db") as db:
        names = dict(db.execute("SELECT user_id, name FROM players").fetchall())
    assert names == {"tg:9": "Zo\ufffde Smith", "tg:10": "tg:10"}
    await ledger_ok(service)


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u2060\u200d", " \u3164 ", "\u2800", "\u0301", "\u00ad"])
async def test_a_name_that_shows_nothing_is_the_players_id(service: Service, name: str) -> None:
    """A prankster named by zero-width characters alone would sit, act and be told to act under no visible name."""
    ghost = Actor("tg:11", name)
    assert (await service.handle(PLACE, ghost, "/join")).public == ["tg:11 sits down with 400 chips."]
    kept = Actor("tg:12", "\u200bZed\u200d")  # a visible name keeps its invisible characters
    assert (await service.handle(PLACE, kept, "/join")).public == ["\u200bZed\u200d sits down with 400 chips."]


# --- numbers --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("amount", ["４０", "٤٠", "۴۰", "४०", "4０"])
async def test_digits_outside_ascii_are_not_numbers(service: Service, tmp_path: Path, amount: str) -> None:
    await seated(service)
    before = dump(tmp_path / "bot.db")
    reply = await service.handle(PLACE, ANN, f"/join {amount}")
    assert reply.error == f"The amount must be a whole number of chips above zero, not “{amount}”."
    assert dump(tmp_path / "bot.db") == before


async def test_a_huge_amount_is_too_large_with_the_limit(service: Service) -> None:
    await seated(service)
    reply = await service.handle(PLACE, ANN, "/raise 99999999999999999999")
    assert reply.error == "The amount is too large: at most 1,000,000,000 chips, not “99999999999999999999”."
    ivan = Actor("tg:7", "Ivan", language="ru")
    await service.handle(PLACE, ivan, "/lang ru")
    three = Place(PLACE.chat_id, "chat/three")  # a table where /ante and its PAIRPLUS are used
    assert (await service.handle(three, ANN, "/game three-card")).error is None
    russian = await service.handle(three, ivan, "/ante 1 pp " + "9" * 5000)  # no int() of 5,000 digits
    assert russian.error == ("Ставка «Пара плюс»: слишком много — не больше 1\xa0000\xa0000\xa0000 фишек, а не «"
                             + "9" * 40 + "…».")


# --- refusals quote at most 40 characters -------------------------------------------------------------------

ARGUMENTS = [
    LONG, f"{LONG} {LONG}", f"remove {LONG}", f"{LONG} 10", f"10 box {LONG}", f"10 pp {LONG}", f"create {LONG}",
    f"create 10/20 {LONG}", f"create 10/20 until {LONG}", f"minutes {LONG}", f"redeem {LONG}",
    f"timezone {LONG}", f"structure {LONG}", f"level {LONG}", f"tier {LONG}", f"pictures {LONG}",
    f"turn_seconds {LONG}", f"1 {LONG}",
]


@pytest.mark.parametrize("game", ["holdem", "russian"])
async def test_no_refusal_echoes_more_than_40_characters_of_the_input(service: Service, game: str) -> None:
    """Every command with every kind of argument, at a table with a hand (or round) in play: what the bot answers
    never carries more than 40 characters of a 2,000-character word (the quote helper ends it with an ellipsis)."""
    await seated(service, game)
    for command in cmd.COMMANDS:
        for words in ARGUMENTS:
            line = f"/{command.name} {words}"
            for message in all_text(await service.handle(PLACE, ANN, line)):
                assert "q" * (QUOTE_LIMIT + 1) not in message.lower(), (line[:40], message[:200])
    await ledger_ok(service)


@pytest.mark.parametrize(("line", "quoted"), [
    ("//🃏", "/\u2060/\u2060🃏"),  # inert: a word joiner after each `/`, so that no chat makes a command of it
    ("hello there", "hello"),
    ("/hello\u202e there", "/\u2060hello"),
    ("/" + "x" * 100, "/\u2060" + "x" * 39 + "…"),
    ("/raise\u0000now", "/\u2060raise now"),
])
async def test_the_unknown_command_answer_quotes_what_was_typed(service: Service, line: str, quoted: str) -> None:
    reply = await service.handle(PLACE, ANN, line)
    assert reply.error == f"I don't know the command “{quoted}”. Type /help for the list."


@pytest.mark.parametrize(("line", "language", "answer"), [
    ("/jion", "en", "I don't know the command “/\u2060jion”. Did you mean /join? Type /help for the list."),
    ("/tournamnet create", "ru",
     "Не знаю команды «/\u2060tournamnet». Может быть, /tournament? Список команд: /help."),
])
async def test_a_typo_of_a_command_is_answered_with_the_command_it_is_close_to(service: Service, line: str,
                                                                             language: str, answer: str) -> None:
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert (await service.handle(PLACE, ANN, line)).error == answer


async def test_a_quote_copied_back_into_a_command_reads_as_typed(service: Service) -> None:
    """A refusal quotes the input inert (a word joiner after each `/`); the player copies the quote into his next
    line, mended, joiners and all, and it is read as if he had typed it, on every adapter's path (`Service.handle`)."""
    refused = await service.handle(PLACE, ANN, "/jion")
    assert refused.error == "I don't know the command “/\u2060jion”. Did you mean /join? Type /help for the list."
    joined = await service.handle(PLACE, ANN, "/\u2060join")
    assert joined.error is None
    assert joined.public == ["Ann sits down with 400 chips."]  # the /join it was
    refused = await service.handle(PLACE, ANN, "/set timezone Europe/Mocsow")
    assert refused.error == ("“Europe/\u2060Mocsow” is not a valid value for “time zone” (/set timezone takes "
                             "Europe/Moscow, UTC, America/New_York…).")
    assert (await service.handle(PLACE, ANN, "/set timezone Europe/\u2060Moscow")).public == [
        "Setting changed: time zone — Europe/Moscow."]


@pytest.mark.parametrize(("line", "language", "answer"), [
    ("/call 10", "en", "/call takes nothing after it: write just /call."),
    ("/fold 3", "ru", "После /fold ничего не нужно: просто /fold."),
    ("/raise 10 20", "en", "Usage: /raise [to-chips]"),  # a command that takes something says what
])
async def test_words_after_a_command_that_takes_none_are_answered_with_what_to_write(service: Service, line: str,
                                                                                      language: str,
                                                                                      answer: str) -> None:
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert (await service.handle(PLACE, ANN, line)).error == answer


# --- timers that fire for nothing ------------------------------------------------------------------------------

def row_counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] for name in names}


@pytest.mark.parametrize(("game", "payload"), [
    ("holdem", {"kind": "turn", "step": -1}),  # the turn of a hand long over
    ("holdem", {"kind": "bot", "step": -1}),
    ("holdem", {"kind": "next"}),  # the next hand, while one is being played
    ("russian", {"kind": "turn", "round": -1, "step": -1}),  # a round that is over
    ("russian", {"kind": "close_bets", "round": -1}),
])
async def test_a_timer_that_does_nothing_leaves_no_row(tmp_path: Path, game: str, payload: dict) -> None:
    """A timer left in the store (by a crash, or an older version) for a hand that is over fires after a restart
    and does nothing: no snapshot, history or ledger row is written, only a log row holding its disarming (on SQLite
    an action's timer changes are in its log row), so the next restart does not arm it again."""
    clock = FakeClock()
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=7)
    await seated(service, game)
    await store.transact(lambda tx: tx.set_timer("stale", PLACE.table_id, clock.now() + 1, payload), now=clock.now())
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=7)
    assert service.scheduler.due_at("stale") is not None
    for timer in service.scheduler.armed:
        if timer.key != "stale":
            service.scheduler.disarm(timer.key)  # only the stale one fires
    before, rows = dump(tmp_path / "bot.db"), row_counts(tmp_path / "bot.db")
    clock.advance(2)
    heard = listen(service, "")
    assert await service.scheduler.fire_due() == 1
    after = dump(tmp_path / "bot.db")
    assert heard == []
    assert row_counts(tmp_path / "bot.db") == {**rows, "actions": rows["actions"] + 1}
    assert [line for line in before if line not in after] == []
    [logged] = [line for line in after if line not in before]
    assert HISTORY_ONLY.replace('"', "") in logged.replace('"', "") and '["stale",null]' in logged, logged
    assert "NULL,NULL" in logged.replace(" ", "")  # no events, no moves
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=7)
    assert service.scheduler.due_at("stale") is None
    await store.close()


async def test_a_timer_armed_again_while_it_waited_for_the_table_keeps_its_row(service: Service, store: Store,
                                                                               clock: FakeClock) -> None:
    """A stale turn timer fires while an action holds the table and arms the same key again: the timer, which does
    nothing, must not delete the row of the new deadline."""
    await seated(service)
    key = service.scheduler.armed[0].key
    service.scheduler.disarm(key)  # as the scheduler does when it fires it
    async with service._locks[PLACE.table_id]:  # an action holds the table; the timer waits for it
        firing = asyncio.create_task(service._on_timer(key, PLACE.table_id, {"kind": "turn", "step": -1}))
        await asyncio.sleep(0)
        payload = {"kind": "turn", "step": 99}
        await store.transact(lambda tx: tx.set_timer(key, PLACE.table_id, clock.now() + 30, payload), now=clock.now())
        service.scheduler.arm(key, PLACE.table_id, clock.now() + 30, payload)  # armed after the action's commit
    await firing
    assert key in {row[0] for row in await store.read(lambda tx: tx.timers())}

