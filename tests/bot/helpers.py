"""Helpers for driving the service like players do: commands, button presses, and checks on what was shown."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import inspect
import random
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from discord.gateway import KeepAliveHandler

from bot.clock import FakeClock
from bot.games import holdem as holdem_game
from bot.games import house as house_game
from bot.i18n import text
from bot.output import Actor, Place, Reply
from bot.service import Service
from bot.store import Store, Tx
from bot.store.dialect import Connection
from bot.store.postgres import PgConnection
from bot.store.tx import HISTORY_ONLY, dumps, loads
from engine.cards import Deck
from tests.bot.conftest import ANN, PLACE, dump

T = TypeVar("T")


@contextlib.contextmanager
def kept_garbage(*, paused: bool = False) -> Iterator[list[Any]]:
    """The objects that collections inside the block find unreachable, kept for the test to look at (`gc.garbage`,
    with `gc.DEBUG_SAVEALL`): what a bot leaves for a full collection. The garbage made before the block is freed first,
    once the threads of bots stopped before it have ended (`_join_stopped_threads`); `paused` also stops the automatic
    collections inside it (only the test's own `gc.collect()` then finds any)."""
    _join_stopped_threads()
    gc.collect()
    if paused:
        gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _join_stopped_threads(timeout: float = 10.0) -> None:
    """Wait for the gateway keep-alive threads of Discord clients closed before (an earlier test's bot, in the same
    worker process). A closing client only tells its thread to stop, and the thread keeps the whole client reachable,
    the bot with it, until it ends on its own time: ending in a later test's `kept_garbage` block, on a loaded machine,
    it turned that bot's reference cycles into garbage found there (`tests/discord/test_garbage.py` failed at times
    under `-n 2`, depending on which tests its worker ran before it). A thread's client is closed once the thread's
    websocket is (`DiscordWebSocket.open`, public): discord.py stops the thread before it closes the socket."""
    for thread in threading.enumerate():
        if isinstance(thread, KeepAliveHandler) and not thread.ws.open:
            thread.join(timeout)
            assert not thread.is_alive(), f"{thread.name} of a closed Discord client did not end"


async def play(service: Service, *lines: tuple[Actor, str]) -> None:
    """Each actor's command at the test table (`PLACE`) in turn, every one accepted."""
    for actor, line in lines:
        reply = await service.handle(PLACE, actor, line)
        assert reply.error is None, (actor.name, line, reply.error)


async def deal_next(service: Service, clock: FakeClock) -> Reply:
    """Let the pause between hands at the test table pass: the next hand is dealt by itself; the table as it stands
    (Ann's `/table`)."""
    clock.advance(10)
    await service.scheduler.fire_due()
    return await service.handle(PLACE, ANN, "/table")


async def night_registered(service: Service, players: Iterable[Actor], options: str = "home-night",
                           structure: str | None = "no-limit") -> Reply:
    """A tournament created by Ann at the test table (`/tournament create` with `options`: a preset and its options),
    `players` registered in order and the table set to `structure` (None: the preset's), not yet started. The
    creation's reply."""
    created = await service.handle(PLACE, ANN, f"/tournament create {options}")
    assert created.error is None, created.error
    lines = [(actor, "/join") for actor in players]
    await play(service, *lines, *([(ANN, f"/set structure {structure}")] if structure else []))
    return created


async def ledger_ok(service: Service) -> None:
    """Every ledger account balances: no chip was created or lost (`check_ledger` finds no problem)."""
    assert await service.store.read(lambda tx: tx.check_ledger()) == []


async def refused_without_change(service: Service, actor: Actor, line: str, reasons: dict[str, str]) -> None:
    """The line is refused with the reason in each language, says nothing else to anyone (no message, no table, nothing
    private), and nothing is stored."""
    for language, reason in reasons.items():
        await service.handle(PLACE, ANN, f"/lang {language}")
        before = dump(service.store.location)
        refused = await service.handle(PLACE, actor, line)
        assert refused.error == reason
        assert refused.public == [] and refused.table is None and refused.private == {}
        assert dump(service.store.location) == before
    await service.handle(PLACE, ANN, "/lang en")


async def logged_actions(store: Store) -> int:
    """How many actions the log holds after their tables' snapshots (what a restart would replay)."""
    return int(await store.read(lambda tx: tx.db.execute(
        "SELECT COUNT(*) FROM actions JOIN tables USING (table_id) WHERE seq > snapshot_seq AND entry != ?",
        (HISTORY_ONLY,)).fetchone()[0]))


def history_rows_of(tx: Tx) -> list[tuple[int, str, str, float, str]]:
    """Every event of the action log as the `history` table held it before migration 16: a number in the log's
    order, its table, hand id, time and JSON text."""
    return [(number, table_id, hand_id, at, dumps(event))
            for number, (table_id, hand_id, at, event) in enumerate(tx.every_event(), start=1)]


def figures_unmarked(db: Connection) -> None:
    """Undo migration 25 on this connection: `hand_figures.tournament` gone, as a bot before it wrote the figures.
    For tests of the migrations before it, on a database the current code wrote."""
    db.execute("ALTER TABLE hand_figures DROP COLUMN tournament")


def spans_by_their_beginning(tx: Tx) -> None:
    """Undo migration 23 in this transaction: `hand_spans.ended_at` and the index by it gone, the index by the time
    hands began back. For tests of the migrations before it, on a database the current code wrote."""
    tx.db.execute("DROP INDEX hand_spans_by_end")
    tx.db.execute("ALTER TABLE hand_spans DROP COLUMN ended_at")
    tx.db.execute("CREATE INDEX hand_spans_by_time ON hand_spans(at, table_id, hand_id)")


def hands_in_span_rows(tx: Tx) -> None:
    """Undo migrations 23 and 20 in this transaction: the hand or round each table's row says is in play gets its
    span row (with no end, unless it has one), and `tables.hand_id`, `hand_seq` and `hand_at` are gone. For tests of
    the migrations before it, on a database the current code wrote."""
    spans_by_their_beginning(tx)
    tx.db.execute("INSERT INTO hand_spans(table_id, hand_id, first_seq, at) SELECT table_id, hand_id, hand_seq, "
                  "hand_at FROM tables WHERE hand_id IS NOT NULL ON CONFLICT DO NOTHING")
    for column in ("hand_id", "hand_seq", "hand_at"):
        tx.db.execute(f"ALTER TABLE tables DROP COLUMN {column}")


def timers_in_rows(tx: Tx) -> None:
    """Undo migrations 20 and 19 in this transaction: every table's timers written into their rows (on SQLite the log
    rows hold the latest changes), `actions.timers`, `tables.timers_seq` and the timers' index by table gone. For
    tests of the migrations before it, on a database the current code wrote."""
    hands_in_span_rows(tx)
    for (table_id,) in tx.db.execute("SELECT table_id FROM tables").fetchall():
        tx.compact_timers(str(table_id))
    tx.db.execute("ALTER TABLE actions DROP COLUMN timers")
    tx.db.execute("ALTER TABLE tables DROP COLUMN timers_seq")
    tx.db.execute("DROP INDEX timers_table")


def history_table_from_log(tx: Tx) -> None:
    """Undo migrations 16 and 17 (and those after them) in this transaction: the log's events back in a `history`
    table as schema 15 kept them and its moves in ledger rows (after the others: the ledger's order is not read by
    the migrations), the log rows that only held history or that a snapshot includes deleted, `hand_spans`,
    `actions.events` and `actions.moves` gone. For tests of the migrations before them, on a database the current
    code wrote."""
    timers_in_rows(tx)
    rows = history_rows_of(tx)
    moves = [(at, chat, move.source, move.target, move.amount, move.reason, move.table_id, move.hand_id)
             for at, chat, move in tx.logged_moves()]
    tx.db.execute(tx.dialect.ddl(
        "CREATE TABLE history (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(table_id),"
        " hand_id TEXT NOT NULL, at REAL NOT NULL, event TEXT NOT NULL, kind TEXT NOT NULL DEFAULT '')"))
    tx.db.execute("CREATE INDEX history_hand ON history(table_id, hand_id)")
    tx.db.executemany("INSERT INTO history(id, table_id, hand_id, at, event, kind) VALUES (?, ?, ?, ?, ?, ?)",
                      [(*row, loads(row[4]).get("kind", "")) for row in rows])
    tx.db.executemany("INSERT INTO ledger(at, chat_id, source, target, amount, reason, table_id, hand_id) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", moves)
    tx.db.execute("DELETE FROM actions WHERE entry = ? OR seq <= (SELECT snapshot_seq FROM tables "
                  "WHERE tables.table_id = actions.table_id)", (HISTORY_ONLY,))
    tx.db.execute("ALTER TABLE actions DROP COLUMN events")
    tx.db.execute("ALTER TABLE actions DROP COLUMN moves")
    tx.db.execute("DROP TABLE hand_spans")


@contextlib.asynccontextmanager
async def statements_traced(store: Store, trace: Callable[[str], object], *,
                            reader: bool = False) -> AsyncIterator[None]:
    """Within the block, `trace(sql)` is called (in the database's thread) before each statement the store's writing
    connection runs, or with `reader` its read-only one (`Store.query`), SQLite or PostgreSQL alike. It sees what
    compiled code (`bot.compiled`) runs too, where a patched method would be bypassed: for tests that count reads
    or hold one up."""
    run = store.query if reader else store.outside_transaction
    await run(lambda connection: _set_trace(getattr(connection, "db", connection), trace))
    try:
        yield
    finally:
        await run(lambda connection: _set_trace(getattr(connection, "db", connection), None))


def _set_trace(connection: Any, trace: Callable[[str], object] | None) -> None:
    if not isinstance(connection, PgConnection):
        connection.set_trace_callback(trace)
        return
    import psycopg  # only with a PostgreSQL database

    class Traced(psycopg.Cursor[Any]):
        def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
            if trace is not None:
                trace(str(query))
            return super().execute(query, *args, **kwargs)

        def executemany(self, query: Any, *args: Any, **kwargs: Any) -> Any:
            if trace is not None:
                trace(str(query))
            return super().executemany(query, *args, **kwargs)

    connection.raw.cursor_factory = psycopg.Cursor if trace is None else Traced


class Overriding:
    """`target` with the attributes given in its place (a method replaced for a test: a game's controller that fails,
    the service's `handle` held up), the target's own in all else. Compiled (`bot.compiled`), a test may neither set
    a method on an instance of a compiled class nor subclass it: it hands this to what would call it instead."""

    def __init__(self, target: Any, **attributes: Any) -> None:
        self.__dict__.update(attributes)
        self.target = target

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


GAMES_COMPILED = Path(holdem_game.__file__ or "").suffix == ".so"
"""Whether the games run compiled (`bot.compiled`): their calls to each other and to the engine are then made in C,
past any patch a test makes (`calls_to`)."""
counts_the_games_calls = pytest.mark.skipif(
    GAMES_COMPILED, reason="counts the games' calls (calls_to), which compiled code makes past any patch: the plain "
                           "run counts them, of the same source")
"""For a test that counts calls the games make (`calls_to`): run on the plain code only."""


def patches_compiled_code(what: str) -> pytest.MarkDecorator:
    """For a test that patches `what`, which compiled callers call past any patch (the `monkeypatch` of a compiled
    module's function or class): run on the plain code only, until the code offers a seam for what it checks."""
    return pytest.mark.skipif(GAMES_COMPILED, reason=f"patches {what}, which compiled callers call past the patch: "
                                                     "the plain run checks it, of the same source")


def calls_to(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """Every call of `owner.name` (a module's function, a class's method or class method) from now on in the test,
    each noted as its positional arguments in the list returned; the call still runs as before. For tests that count
    how often the bot does a costly thing."""
    original = getattr(owner, name)
    calls: list[tuple[Any, ...]] = []

    def noted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    bound = isinstance(inspect.getattr_static(owner, name), classmethod | staticmethod)  # `original` is bound already
    monkeypatch.setattr(owner, name, staticmethod(noted) if bound else noted)
    return calls


def stack_house_deck(monkeypatch: pytest.MonkeyPatch, cards: str) -> None:
    """Every round dealt at a house table in this test comes from a deck stacked with `cards` on top (as
    `Deck.stacked` orders the rest)."""
    monkeypatch.setattr(house_game, "new_deck", lambda rng: Deck.stacked(cards))


DEALT_ALL_IN = "Ah As 7d 2c Kd Kh 9s 3c 4h 2d 5c 2s"
"""A Hold'em deck for two (hole cards from the button's left, burns included): the first player dealt A♥ 7♦, the
second A♠ 2♣, a board of K♥ 9♠ 3♣ 2♦ 2♠ that gives the second three twos."""


def everything_public(reply: Reply) -> str:
    """All text a channel would see from this reply: public messages, the table message and its button labels."""
    parts = list(reply.public)
    if reply.table is not None:
        parts.append(reply.table.text)
        parts += [button.label for button in reply.table.buttons]
    return "\n".join(parts)


def all_text(replies: Iterable[Reply]) -> list[str]:
    """Every text of these replies: public messages, the table message and its buttons, private messages, refusals."""
    out: list[str] = []
    for reply in replies:
        out.append(everything_public(reply))
        out += [message for messages in reply.private.values() for message in messages]
        if reply.error:
            out.append(reply.error)
    return [message for message in out if message]


def listen(service: Service, prefix: str = "chat/") -> list[Reply]:
    """The replies timers cause at the tables under `prefix` (the clock's announcements, the next hand dealt), as
    the chat hears them: the list fills as they come."""
    heard: list[Reply] = []

    async def listener(_place: Place, reply: Reply) -> None:
        heard.append(reply)

    service.subscribe(prefix, listener)
    return heard


async def started_service(store: Store, clock: FakeClock, *, seed: int) -> Service:
    """The bot started on `store` at `clock`'s time (`Service.start`: its stored tables and timers taken up), its
    shuffle seeded with `seed`: a test's deals follow from its seed."""
    service = Service(store, clock, rng=random.Random(seed))
    await service.start()
    return service


async def restart_after_downtime(location: Any, clock: FakeClock,
                                 seed: int = 5) -> tuple[Store, Service, list[Reply]]:
    """The bot started again on the store at `location` (closed before) at `clock`'s time: its store, its service,
    and what it says from its start on (`listen`: the appointments that fell due while it was down fired during its
    start, their replies kept until it subscribed and heard first), then its other due timers fired."""
    reopened = await Store.open(location)
    restarted = await started_service(reopened, clock, seed=seed)
    before = asyncio.all_tasks()
    heard = listen(restarted)
    delivering = asyncio.all_tasks() - before  # the task handing it the replies kept for it (`Service.subscribe`)
    if delivering:
        _, late = await asyncio.wait(delivering, timeout=10)
        assert not late, "the replies kept since the start were not delivered within 10 seconds"
    await restarted.scheduler.fire_due()
    return reopened, restarted, heard


def public_lines(replies: Iterable[Reply]) -> list[str]:
    """Every new message these replies post in the chat, in order (the table message's edits left out)."""
    return [line for reply in replies for line in reply.public]


def table_showed(replies: Iterable[Reply]) -> str:
    """Everything the table message showed across these replies (each of its edits, in order)."""
    return "\n".join(reply.table.text for reply in replies if reply.table is not None)


def everything_said(replies: Iterable[Reply]) -> str:
    """Every public text of these replies: the chat's new messages and each edit of the table message."""
    return "\n".join(everything_public(reply) for reply in replies)


def press_label(reply: Reply, *words: str) -> str:
    """The payload of the first button whose command starts with one of `words` (in that order of preference)."""
    assert reply.table is not None, "no table message"
    for word in words:
        for button in reply.table.buttons:
            command = button.payload.rsplit("|", 1)[1]
            if command.split()[0] == word and not button.private:
                return button.payload
    raise AssertionError(f"no button for {words} among {[b.payload for b in reply.table.buttons]}")


async def play_out(service: Service, place: Place, players: dict[str, Actor], reply: Reply,
                   preference: tuple[str, ...] = ("check", "call", "play", "bet", "decline", "fold"),
                   limit: int = 200) -> list[Reply]:
    """Press buttons for whoever must act until nobody must; returns every reply."""
    replies = [reply]
    for _ in range(limit):
        if reply.table is None or reply.table.to_act is None:
            return replies
        actor = players[reply.table.to_act]
        reply = await service.press(place, actor, press_label(reply, *preference))
        assert reply.error is None, reply.error
        replies.append(reply)
    raise AssertionError("the hand did not end")


async def shove_out(service: Service, reply: Reply, players: Mapping[str, Actor],
                    folding: Actor | None = None) -> list[Reply]:
    """The hand at the test table played out from `reply`: whoever is to act goes all-in (or calls, when he cannot
    raise), but `folding` folds; asked to run the board once or twice, everyone says once. Every reply, in order."""
    replies = [reply]
    for _ in range(30):
        if reply.table is None or reply.table.to_act is None:
            answers = [await service.handle(PLACE, actor, "/run once") for actor in players.values()]
            settled = [answer for answer in answers if answer.error is None]
            if not settled:
                return replies
            reply = settled[0]
            replies.append(reply)
            continue
        actor = players[reply.table.to_act]
        reply = await service.handle(PLACE, actor, "/fold" if actor == folding else "/allin")
        if reply.error is not None:
            reply = await service.handle(PLACE, actor, "/call")
        assert reply.error is None, reply.error
        replies.append(reply)
    raise AssertionError("the hand did not end")


async def shove_until(service: Service, reply: Reply, players: Mapping[str, Actor], bust: re.Pattern[str],
                      folding: Actor | None = None, dealer: Actor = ANN) -> str:
    """Hands shoved out (`shove_out`) from `reply`, `dealer` dealing the next, until the table says `bust`: all it
    said."""
    said = ""
    for _ in range(30):
        said += everything_said(await shove_out(service, reply, players, folding))
        if bust.search(said):
            return said
        reply = await service.handle(PLACE, dealer, "/deal")
        assert reply.error is None, reply.error
    raise AssertionError("nobody busted")


def resumed_table(store: Store, tx: Tx, table_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The table's config and state as a restart resumes them (its snapshot, then its action log replayed)."""
    return Service(store, FakeClock(0.0)).stored_table(tx, table_id)


async def rewrite_saved_hand(store: Store, place: Place, now: float,
                             change: Callable[[dict[str, Any]], Any]) -> None:
    """Store the table's hand in play as `change` rewrites its saved dict (as an older version wrote it, say): the
    next start of the bot resumes the hand so."""

    def rewrite(tx: Tx) -> None:
        loaded = resumed_table(store, tx, place.table_id)
        assert loaded is not None
        config, state = loaded
        change(state["hand"])
        tx.save_table(place.table_id, place.chat_id, config, state)

    await store.transact(rewrite, now=now)


async def corrupt_saved_hand(store: Store, place: Place, now: float) -> None:
    """Make the table's saved hand unreadable (its deck gone), as a crash in an older version could leave it: the next
    start must void that hand."""
    await rewrite_saved_hand(store, place, now, lambda hand: hand.pop("deck"))


def at(hour: int, minute: int = 0, second: int = 0) -> float:
    """A moment of the tournament night the tests play, 2026-11-29, UTC."""
    return datetime(2026, 11, 29, hour, minute, second, tzinfo=UTC).timestamp()


SIX_PM = at(18, 0)
"""When the tests' tournaments start: 18:00 of that night (a timestamp, as `FakeClock` reads it), an hour before the
home-night preset's break."""


# --- private cards: what each game deals a player, and how a text writes cards ------------------------------------

CARD = re.compile(r"(?<!\w)([2-9TJQKA])([♠♥♦♣shdc])(?!\w)")
"""A card as the bot writes it: `A♠` in every text (English and Russian alike), `As` in callback data and exports."""
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
REVEALS = tuple(text(language, key, shown="", results="").removesuffix(".") for language in ("en", "ru")
                for key in ("holdem.showdown", "house.round_over"))
"""How the message that shows the cards by the rules begins: a showdown, or a house round's settlement."""


def cards_in(shown: str) -> set[str]:
    """Every card a text writes, as `As`."""
    return {rank + SUITS.get(suit, suit) for rank, suit in CARD.findall(shown)}


def shown_to_others(seen: Iterable[tuple[T, int | None, str]], secrets: dict[int, set[str]]) -> list[T]:
    """Of what a platform's fake recorded, each as (what it is, who read it: a player's id or None for the chat, what
    it showed), those that showed a player's secret cards (`secrets`, by player) to anyone but him."""
    return [item for item, seen_by, shown in seen
            if any(cards_in(shown) & held for holder, held in secrets.items() if holder != seen_by)]


def never_shown(secrets: dict[int, set[str]], reveal: str) -> dict[int, set[str]]:
    """Each player's cards that the text showing the cards by the rules (`reveal`) left out: folded, mucked or
    discarded, they stay his alone for good."""
    return {holder: held - cards_in(reveal) for holder, held in secrets.items()}


@dataclass(frozen=True)
class Case:
    """One game's case: the table's game (`tournament`: Hold'em's `home-night`), how many cards a box or hand holds,
    Ann's planned decisions (a draw where the game has one), how many boxes she plays, and how many of them she sees
    at the deal (at Russian Poker, each box's cards only on its turn)."""

    game: str
    held: int
    plan: tuple[str, ...] = ()
    boxes: int = 1
    seen: int = 1

    def dealt(self) -> list[int]:
        """How many cards Ann, Bob and Cat see at the deal."""
        return [self.held * self.seen, self.held, self.held]

    def anns(self) -> int:
        """How many cards Ann has seen by the end: her boxes' and those her exchange drew."""
        exchanged = [len(command.split()) - 1 for command in self.plan if command.startswith("exchange")]
        return self.held * self.boxes + sum(exchanged)


CASES = {
    "holdem cash": Case("holdem", 2),
    "holdem tournament": Case("tournament", 2),
    "omaha": Case("omaha", 4),
    "texas": Case("texas", 2, ("buy", "select 1", "exchange 1")),
    "russian": Case("russian", 5, ("select 2", "select 2 5", "exchange 2 5"), boxes=2),
    "caribbean": Case("caribbean", 5, ("select 1", "exchange 1"), boxes=2, seen=2),
    "three-card": Case("three-card", 3, ("play",), boxes=2, seen=2),
}
"""Every game, each as the platforms' tests of private cards play it (`tests/*/test_private_cards.py`): Bob folds at
his first decision and Cat plays on."""
