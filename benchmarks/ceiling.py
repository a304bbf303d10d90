"""What the smallest design could reach on this machine: the real Hold'em engine alone, and the engine with one
action-log row per action (the command and its events, chip moves included) group-committed 64 at a time through
plain sqlite3 — no parsing, no text, no ledger, history or timer rows, no asyncio. And the same engine and row as
the bot must run them (`through_store`): a button's payload parsed, the action applied in a job of the real store
(its writer thread and group commit), the turn timer re-armed in the real scheduler and the presser woken, 64
pressers at once — every piece the service cannot do without, and nothing else (no controller, ledger, history,
timer rows or text). And last that design with everything a Hold'em action of the bot does (`complete`: balances
from the chip moves, the log row kept as the history, the story, the hand's figures, snapshots where a hand is dealt
and ends, the next buttons drawn and read): what the rewrite the issue describes would cost an action. And that
Python writing the rows the bot's store writes today (`complete(bot_rows=True)`: ledger balances as rows, the turn
timer's change in the log row, the hands' spans, the names read): what rebuilding the action path alone would reach;
and doing as well what a Hold'em action of the bot does beyond it (`complete(features=True)`): what the rewrite would
cost with every feature the bot has.

`benchmarks/service.py` prints these beside the service's own figures, so that a target can be judged against what
any design built on this engine could do: the service can never be faster than the engine plus one log row.
Run alone: `python benchmarks/ceiling.py [--seconds 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson
from holdem import random_action  # beside this file: the engine benchmark's player

from bot import commands as cmd
from bot.clock import SystemClock
from bot.command_parser import parse_payload
from bot.games import holdem_away, holdem_preactions, holdem_showdown, practice
from bot.i18n import message
from bot.output import Button
from bot.randomness import SecureRandom
from bot.render import Voice, story
from bot.render import picture_views as picture
from bot.render.holdem import HandView, action_buttons, after_hand_buttons, hand_view, narrate_later
from bot.scheduler import Scheduler
from bot.statistics import COUNTED_KINDS
from bot.store import Store, Tx, figures
from engine import holdem as engine
from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event, all_moves
from engine.holdem import Hand, ItemPawned, LegalActions
from engine.holdem_types import SeatPlayer
from engine.seating import next_button
from engine.timebank import TimeBank

TABLES = 1000
BATCH = 64
"""Jobs queued at once when tables are set up or dealt before a clock starts, so that they are group-committed."""
T = TypeVar("T")
THROUGH_STORE = "the same through the store, parsed and timed"
"""The name of the figure of `through_store`, the least any design of the bot's shape costs per action."""
COMPLETE = "the lean design, complete"
"""The name of the figure of `complete`: that design with everything a Hold'em action of the bot does."""
WITH_BOT_ROWS = "the lean design writing the bot's rows"
"""The name of the figure of `complete(bot_rows=True)`: that design writing the rows the bot's store writes today."""
WITH_FEATURES = "the lean design with the bot's features"
"""The name of the figure of `complete(features=True)`: that design doing what a Hold'em action of the bot does
beyond it."""
SETTINGS = orjson.dumps({"organizers": ["ann"], "locale": "en"})
"""A chat's settings as `features` logs them with each action (the bot logs its chat's, for the replay)."""


def per_second(seconds: float, *, log: Path | None) -> tuple[float, float]:
    """Actions per second, and CPU microseconds per action, over `seconds` of home-limit heads-up hands at
    `TABLES` tables picked at random; with `log`, each action also appends its row to an action log there."""
    rng = random.Random(1)
    structure = STRUCTURES["home-limit"]
    connection = None
    if log is not None:
        connection = sqlite3.connect(log, isolation_level=None)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("CREATE TABLE actions (table_id TEXT, seq INTEGER, body TEXT, PRIMARY KEY (table_id, seq))")
    hands: dict[int, Hand] = {}
    sequence = [0] * TABLES
    pending: list[tuple[str, int, str]] = []
    count = number = 0
    began, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() < began + seconds:
        table = rng.randrange(TABLES)
        hand = hands.get(table)
        events: list[Event]
        if hand is None or hand.is_over:
            number += 1
            hand, events = Hand.start([SeatPlayer("ann", 1000), SeatPlayer("bob", 1000)], number % 2, 20, structure,
                                      Deck(rng), number)
            hands[table], command = hand, "/deal"
        else:
            action = random_action(hand, rng)
            events = hand.act(hand.legal_actions().player, action)
            command = repr(action)
        count += 1
        if connection is not None:
            sequence[table] += 1
            pending.append((f"t{table}", sequence[table],
                            orjson.dumps({"c": command, "e": [event.to_dict() for event in events]}).decode()))
            if len(pending) == BATCH:
                connection.execute("BEGIN")
                connection.executemany("INSERT INTO actions VALUES (?, ?, ?)", pending)
                connection.execute("COMMIT")
                pending.clear()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    if connection is not None:
        connection.close()
    return count / elapsed, cpu / max(count, 1) * 1e6


_COMMANDS: dict[type[engine.Action], str] = {engine.Fold: "/fold", engine.Check: "/check", engine.Call: "/call",
                                             engine.AllIn: "/allin", engine.Bet: "/bet", engine.RaiseTo: "/raise"}


def _payload(hand: Hand, step: int, action: engine.Action) -> str:
    """The button payload the bot would draw for `action` (hand key, decision, command)."""
    amount = getattr(action, "amount", None)
    return f"h{hand.hand_number}|s{step}|{_COMMANDS[type(action)]}" + ("" if amount is None else f" {amount}")


def _engine_action(command: cmd.Command) -> engine.Action:
    """The engine action a parsed command asks for (as the Hold'em controller maps it)."""
    if isinstance(command, (cmd.Bet, cmd.Raise)):
        assert command.amount is not None
        return (engine.Bet if isinstance(command, cmd.Bet) else engine.RaiseTo)(command.amount)
    simple: dict[type[cmd.Command], type[engine.Fold | engine.Check | engine.Call | engine.AllIn]] = {
        cmd.Fold: engine.Fold, cmd.Check: engine.Check, cmd.Call: engine.Call, cmd.AllIn: engine.AllIn}
    return simple[type(command)]()


async def through_store(seconds: float, path: Path, concurrency: int = 64) -> tuple[float, float]:
    """Actions per second and CPU µs per action of the engine and one log row per action run as the bot must run
    them (see the module's docstring), `concurrency` pressers at `TABLES` tables."""
    store = await Store.open(path)
    scheduler = Scheduler(SystemClock(), lambda key, table_id, payload: asyncio.sleep(0))
    structure = STRUCTURES["home-limit"]

    def create(tx: Tx) -> None:
        for table in range(TABLES):
            tx.create_table(f"t{table}", f"c{table}")

    await store.transact(create, now=time.time())
    hands: dict[int, Hand] = {}
    sequence = [0] * TABLES
    count = 0
    stop = time.perf_counter() + seconds

    async def presser(index: int) -> None:
        nonlocal count
        rng = random.Random(index)
        while time.perf_counter() < stop:
            table = rng.randrange(index, TABLES, concurrency)  # each table is pressed by one presser at a time
            hand = hands.get(table)
            payload = None
            if hand is not None and not hand.is_over:
                payload = _payload(hand, sequence[table], random_action(hand, rng))

            def job(tx: Tx, table: int = table, payload: str | None = payload) -> None:
                events: list[Event]
                if payload is None:
                    number = sequence[table] + 1
                    dealt, events = Hand.start([SeatPlayer("ann", 1000), SeatPlayer("bob", 1000)], number % 2, 20,
                                               structure, Deck(rng), number)
                    hands[table], command = dealt, "/deal"
                else:
                    pressed = parse_payload(payload)
                    dealt = hands[table]
                    events = dealt.act(dealt.legal_actions().player, _engine_action(pressed.command))
                    command = payload
                sequence[table] += 1
                tx.log_action(f"t{table}", sequence[table],
                              orjson.dumps({"c": command, "e": [event.to_dict() for event in events]}).decode())

            await store.transact(job, now=time.time())
            scheduler.arm(f"holdem:t{table}", f"t{table}", time.time() + 30, {"kind": "turn"})
            count += 1

    began, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(presser(index) for index in range(concurrency)))
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    await store.close()
    return count / elapsed, cpu / max(count, 1) * 1e6


class LeanTable:
    """One table of the lean design (`complete`): the live hand and what the bot keeps beside it, all in memory."""

    def __init__(self, table_id: str) -> None:
        self.table_id, self.chat_id = table_id, f"chat-{table_id}"
        self.hand: Hand | None = None
        self.stacks = {"ann": 1000, "bob": 1000}
        self.pot = 0
        self.seq = self.step = self.number = 0
        self.counted: list[dict[str, Any]] = []  # the hand's events its figures are worked out from
        self.state: dict[str, Any] = {}  # its story, as `bot.render.story` keeps it in a table's state
        self.buttons: Callable[[], tuple[Button, ...]] = tuple
        self.waits_on = "turn"  # the kind of the timer armed after an action
        self.pawned: list[ItemPawned] = []  # with `features`: items pawned (none are)
        self.away = False  # with `features`: whether a seat's player has to choose how to come back (none has)
        self.leaving: list[str] = []  # with `features`: who stands up after the hand (a broke player buys in again)
        self.told: dict[str, list[str]] = {}  # with `features`: the last action's private messages, by player


class LeanDesign:
    """The lean design's tables in memory and its store and scheduler (`complete`'s service, without its pressers):
    `press` applies a payload at a table (None deals it a hand) in a job of the store and re-arms its timer; what the
    next press may be is read from the table's `buttons` (`choose`). See `complete` for `bot_rows` and `features`."""

    def __init__(self, store: Store, tables: int, deck_source: random.Random, *, bot_rows: bool,
                 features: bool) -> None:
        self.store, self.deck_source, self.bot_rows, self.features = store, deck_source, bot_rows, features
        self.scheduler = Scheduler(SystemClock(), lambda key, table_id, payload: asyncio.sleep(0))
        self.structure = STRUCTURES["home-limit"]
        self.voice = Voice("en", {"ann": "Ann", "bob": "Bob"}.__getitem__)
        self.tables = [LeanTable(f"t{table}") for table in range(tables)]

    @classmethod
    async def open(cls, path: Path | str, tables: int, deck_source: random.Random | None = None, *,
                   bot_rows: bool = False, features: bool = False) -> LeanDesign:
        """The design on a new store at `path`, its `tables` tables created (none dealt yet)."""
        design = cls(await Store.open(path), tables, deck_source or SecureRandom(), bot_rows=bot_rows,
                     features=features)

        def create(tx: Tx) -> None:
            for table in design.tables:
                tx.create_table(table.table_id, table.chat_id)
                if bot_rows:
                    for player in table.stacks:
                        tx.ensure_player(table.chat_id, player, player.title())

        await design.store.transact(create, now=time.time())
        return design

    async def deal_all(self) -> None:
        """Every table dealt a hand, `BATCH` at a time (as the service's benchmark deals them before its clock)."""
        await in_parallel(self.tables, lambda table: self.press(table, None))

    async def press(self, table: LeanTable, payload: str | None,
                    timed: Callable[[bool, bool, float], None] | None = None) -> None:
        """`payload` applied at `table` (None: a hand dealt) in a job of the store, committed, then the table's
        timer re-armed; `timed` as `complete`'s."""
        job = functools.partial(self.apply, table=table, payload=payload)
        if timed is not None:
            job = functools.partial(_timing, job, timed, table)
        await self.store.transact(job, now=time.time())
        self.scheduler.arm(f"holdem:{table.table_id}", table.table_id, time.time() + 30, {"kind": table.waits_on})

    async def close(self, *, check: bool) -> list[str]:
        """The store closed, after the ledger's check when `check` (its problems; none unchecked)."""
        problems = await self.store.read(lambda tx: tx.check_ledger()) if check else []
        await self.store.close()
        return problems

    def apply(self, tx: Tx, table: LeanTable, payload: str | None) -> None:
        """A press's job in the store's transaction: `payload` at `table` (None: deal a hand)."""
        hand = table.hand
        reads: list[list[Any]] = []
        named = self.voice  # the story is told with the players' names
        if self.bot_rows:  # read from the store and logged
            names = {player: tx.player_name(table.chat_id, player) for player in table.stacks}
            reads += [["player_name", name] for name in names.values()]
            named = Voice("en", names.__getitem__)
        if self.features:
            _seats(table)
            orjson.loads(SETTINGS)  # the chat's settings, as the store gives them to each action
        if payload is None:
            bought = min(table.stacks.values()) < 2 * 20  # someone is broke: both buy in again (in the deal's row)
            if bought or (self.bot_rows and table.number == 0):
                if self.bot_rows:
                    _buy_in(tx, table)
                table.stacks = {"ann": 1000, "bob": 1000}
            table.number += 1  # kept with the table, written with the deal's snapshot
            button = table.number % 2
            if self.features:
                button = _before_the_deal(table)
            hand, events = Hand.start([SeatPlayer(player, chips) for player, chips in table.stacks.items()],
                                      button, 20, self.structure, Deck(self.deck_source), table.number)
            table.hand, table.counted, actor = hand, [], "ann"  # who deals, as the service's benchmark deals
        else:
            pressed = parse_payload(payload)
            assert hand is not None and pressed.decision == f"s{table.step}", "a stale press"
            legal = hand.legal_actions()
            action = _engine_action(pressed.command)
            if isinstance(action, engine.Call) and legal.can_check and not legal.call_amount:
                action = engine.Check()
            events, actor = hand.act(legal.player, action), legal.player
            if self.features:
                events += _played(table, hand, legal.player)
        key = f"h{hand.hand_number}"
        for move in all_moves(events):  # the balances, from the moves the log row records
            if self.bot_rows:
                if move.amount:
                    tx.move(table.chat_id, _account(table, move.source), _account(table, move.target), move.amount,
                            move.reason, table_id=table.table_id, hand_id=key, logged=True)
                continue
            for account, chips in ((move.source, -move.amount), (move.target, move.amount)):
                if account == "pot":
                    table.pot += chips
                else:
                    table.stacks[account.removeprefix("stack:")] += chips
        plain = [event.to_dict() for event in events]
        if self.bot_rows:  # into the log row's events column; the store follows the hand for its span and figures
            tx.record(table.table_id, key, plain)
        else:
            table.counted += [event for event in plain if event["kind"] in COUNTED_KINDS]
        narration, lines = narrate_later(named, events, hand.shown_so_far())
        story.add(table.state, lines, restart=payload is None)
        if self.features:
            table.waits_on = _told_and_looked_at(table, named, hand, events, narration.told)
            if hand.is_over:
                _after_the_hand(table, self.voice, hand, key)
        table.seq += 1
        table.step += 1
        row: dict[str, Any] = {"c": payload or "/deal", "n": tx.now, "k": key}
        if self.bot_rows:
            row["r"] = reads
        else:
            row["e"] = plain
        if payload is None and bought:
            row["b"] = table.stacks
        if self.features:
            row.update({"a": [actor, actor.title(), "en", False], "l": "en", "o": False,
                        "s": orjson.Fragment(SETTINGS)})
        if self.bot_rows and hand.is_over:
            assert hand.result is not None
            tx.settle_hand(table.table_id, key, {_account(table, f"stack:{player}"): chips
                                                 for player, chips in hand.result.net.items() if chips})
            tx.summarise_hand(table.chat_id, table.table_id, key)
            tx.log_timers(table.table_id, [(f"holdem:{table.table_id}", None, {})])
        elif self.bot_rows:
            turn = {"kind": "turn", "step": table.step}
            tx.log_timers(table.table_id, [(f"holdem:{table.table_id}", tx.now + 30, turn)])
        tx.log_action(table.table_id, table.seq, orjson.dumps(row).decode())
        if payload is None or hand.is_over:
            if hand.is_over and self.bot_rows:
                table.stacks = dict(hand.stacks)
            elif hand.is_over:
                assert table.pot == 0 and table.stacks == hand.stacks, "the moves and the hand disagree"
                figures.summarise_events(tx.db, table.chat_id, table.table_id, key, tx.now, table.counted,
                                         tournament=False)
            kept = {"hand": hand.to_dict(), "stacks": table.stacks, "number": table.number, "step": table.step,
                    "story": story.written(story.kept(table.state))}
            if self.features:  # the seats, and the finished hand kept for the rabbit hunt, not as the one in play
                kept.update(seats=table.state["seats"], last_hand=kept.pop("hand") if hand.is_over else None)
            tx.save_snapshot(table.table_id, table.chat_id, "{}", orjson.dumps(kept).decode(),
                             table.seq, table.number)  # the log rows are the history: kept
        legal_now = hand.legal_actions() if hand.to_act else None
        drawn = _buttons if self.features else action_buttons
        table.buttons = functools.partial(drawn, self.voice, hand_view(hand), key, f"s{table.step}", legal_now)


async def in_parallel(items: Sequence[T], each: Callable[[T], Awaitable[object]], width: int = BATCH) -> None:
    """Run `each(item)` for every item, `width` at a time (so setting up many tables is group-committed)."""
    for first in range(0, len(items), width):
        await asyncio.gather(*(each(item) for item in items[first:first + width]))


def choose(buttons: tuple[Button, ...], rng: random.Random) -> str:
    """The payload a lean design's presser presses among a table's `buttons`: a public one, never all in (so hands
    run on) nor a pre-action."""
    return rng.choice([button.payload for button in buttons if not button.private
                       and not button.payload.endswith("|allin") and "|pre " not in button.payload])


def in_play(table: LeanTable) -> bool:
    """Whether `table` has a hand in play (otherwise its next press deals one)."""
    return table.hand is not None and not table.hand.is_over


async def pressing(tables: int, concurrency: int, seconds: float,
                   press: Callable[[int, random.Random], Awaitable[object]], actions: int | None = None) -> int:
    """`concurrency` players pressing for `seconds` (or until `actions` presses have begun, exactly that many), each
    at a table of its own at random among every `concurrency`th of `tables`, so that one player at a time presses at
    each table: `press(table, rng)` chooses at the table numbered `table` (with the player's `rng`) and presses
    there. The presses made."""
    done = begun = 0

    async def player(number: int) -> None:
        nonlocal done, begun
        rng = random.Random(number)
        while time.perf_counter() < stop and (actions is None or begun < actions):
            begun += 1
            await press(rng.randrange(number, tables, concurrency), rng)
            done += 1

    stop = time.perf_counter() + seconds
    await asyncio.gather(*(player(number) for number in range(concurrency)))
    return done


async def complete(seconds: float, path: Path, concurrency: int = 64, *, actions: int | None = None,
                   deck_source: random.Random | None = None, bot_rows: bool = False,
                   features: bool = False, check: bool = True,
                   timed: Callable[[bool, bool, float], None] | None = None,
                   tables: int = TABLES) -> tuple[float, float]:
    """Actions per second and CPU µs per action of the lean design with everything a Hold'em action of the bot
    does, `concurrency` pressers at `tables` tables: a button's payload parsed and checked against the table's step,
    the engine's action, its chip moves applied to balances kept in memory, its events made plain once into its one
    log row (the command, the time and the events: the history and the ledger's record at once, kept), the story's
    lines narrated (written only when read), the hand's figures written when it ends, a snapshot when a hand is
    dealt and when it ends, the turn timer re-armed in the real scheduler, and the next buttons drawn by the real
    renderer and read by the presser (as an adapter reads them) to choose what to press; deals from the bot's
    secure random source, a broke player bought in again; every table dealt a hand before the clock starts, as the
    service's benchmark deals them in its set-up. Through the real store's group commit, as `through_store`.
    `actions`: stop after that many presses rather than after `seconds`; `deck_source`: shuffle from it (seeded, for
    `instructions.py --lean`) rather than the secure source.
    What it leaves out is what the service wraps around a controller (recorded reads, the chat's settings and names
    read through the transaction) and the ledger's balances as rows (here derived from the log).

    `bot_rows`: the same Python writing what the bot's store writes today instead (`instructions.py --lean
    --bot-rows`): the chips bought in from the chat and each of a hand's moves through `Tx.move` (in the log row, the
    stacks' balance rows settled when the hand ends, from its result), the events through
    `Tx.record` (the hand's span, its figures from the events the store follows), the turn timer's change (in the log
    row, as the bot writes it on SQLite; the prototype's tables never reach the bot's catching up of the rows), and the
    players' names read from the store and logged as the action's reads; the ledger is then checked at the end
    (unless `check` is False: `instructions.py` counts the presses alone). What a rebuilt action path would cost if the
    rows stayed as they are.

    `features`: doing as well what a Hold'em action of the bot does beyond the lean design's (`instructions.py --lean
    --features`): the seats kept in the table's state and its snapshots (the actor's time-outs reset, the stacks
    written when a hand ends), the hole cards told privately when a hand is dealt (each message written at once),
    the pre-action buttons drawn and read beside the actor's, the inputs a replay needs logged with each action (the
    actor, the chat's language and settings), the features a table may use looked at (a running time bank, practice
    players, run it twice, show or muck, pawns, pictures, away players), the chat's settings read, what a deal looks
    at and sets before it (whether two can play, the button's seat, returning players, the time banks counting the
    hand) and what a hand's end does besides its rows (the after-hand buttons, who stands up, whether the next hand
    can be dealt), and the finished hand kept for the rabbit hunt. What the rewrite would cost with every feature the
    bot has.

    `timed`: called after each press's job with whether a hand was in play before it and after it, and the seconds
    the job took in the store's transaction (`kinds.py`). `tables`: how many tables (`TABLES` unless given)."""
    design = await LeanDesign.open(path, tables, deck_source, bot_rows=bot_rows, features=features)

    def press(index: int, rng: random.Random) -> Awaitable[None]:
        table = design.tables[index]
        return design.press(table, choose(table.buttons(), rng) if in_play(table) else None, timed)

    await design.deal_all()  # every table dealt before the clock starts, as in the service's benchmark
    began, cpu = time.perf_counter(), time.process_time()
    count = await pressing(tables, concurrency, seconds, press, actions)
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    if problems := await design.close(check=bot_rows and check):
        raise RuntimeError(f"the ledger check failed: {problems[:3]}")
    return count / elapsed, cpu / max(count, 1) * 1e6


def _timing(job: Callable[[Tx], None], timed: Callable[[bool, bool, float], None], table: LeanTable, tx: Tx) -> None:
    """Run a press's `job`, then tell `timed` whether the table had a hand in play before and after it, and the
    seconds it took."""
    before = table.hand is not None and not table.hand.is_over
    began = time.perf_counter()
    job(tx)
    took = time.perf_counter() - began
    timed(before, table.hand is not None and not table.hand.is_over, took)


def _seats(table: LeanTable) -> None:
    """`features`: the seats in the table's state (as the Hold'em controller keeps them), and a running time bank
    charged (none runs here)."""
    table.state.pop("bank_run", None)
    if "seats" not in table.state:
        table.state["seats"] = [{"id": player, "stack": chips, "out": False, "timeouts": 0, "leaving": False}
                                for player, chips in table.stacks.items()]


def _dealt_in(seat: dict[str, Any]) -> bool:
    return bool(seat["stack"] > 0 and not seat["out"] and not holdem_away.is_waiting(seat))


def _can_play(seats: list[dict[str, Any]]) -> bool:
    """Two seats are dealt in, one of them a person's (as the Hold'em controller's `can_deal` outside a
    tournament)."""
    eligible = [seat for seat in seats if _dealt_in(seat)]
    return len(eligible) >= 2 and practice.has_human(eligible)


def _before_the_deal(table: LeanTable) -> int:
    """`features`: what the Hold'em controller looks at and sets before a deal (whether two players can play, the
    button's next seat, returning players posting or waiting, each player's time bank counting the hand, what the
    last hand left); the button's seat."""
    seats = table.state["seats"]
    for seat in seats:  # a broke player bought in again
        seat["stack"] = table.stacks[seat["id"]]
    assert _can_play(seats), "two players can play"
    button = next_button([_dealt_in(seat) for seat in seats], table.state.get("button", -1))
    for seat in seats:
        if seat.get("back") == "post":
            seat["back"] = ""
        bank = TimeBank.from_dict(seat["bank"]) if seat.get("bank") else TimeBank(60, 60)
        seat["bank"] = bank.dealt(60).to_dict()
    for left in ("pre_pressed", "last_hand", "won_uncontested", "bank_run"):
        table.state.pop(left, None)
    table.state.update(button=button, turn_seconds=60)
    return button


def _after_the_hand(table: LeanTable, voice: Voice, hand: Hand, key: str) -> None:
    """`features`: what the Hold'em controller does when a hand ends besides its rows (the after-hand buttons drawn,
    whether its winner may still show, players standing up, whether the next hand can be dealt)."""
    after_hand_buttons(voice, hand, key, f"s{table.step}")
    if hand.result is not None and not hand.result.went_to_showdown:
        table.state["won_uncontested"] = True
    seats = table.state["seats"]
    table.leaving = [seat["id"] for seat in seats if seat["leaving"] or seat["stack"] == 0]
    table.waits_on = "next" if _can_play(seats) else "turn"


def _played(table: LeanTable, hand: Hand, player: str) -> list[Event]:
    """`features`: the player's time-outs in a row reset; practice players asked to run it twice answer."""
    for seat in table.state["seats"]:
        if seat["id"] == player:
            seat["timeouts"] = 0
    return holdem_showdown.answer_for_bots(hand)


def _told_and_looked_at(table: LeanTable, voice: Voice, hand: Hand, events: list[Event], told: list[Any]) -> str:
    """`features`: the private messages written (none to a practice player), the features an action may call on
    looked at (a picture, pawns, an away player's buttons), the seats' stacks written when the hand ends; the kind of
    timer the table waits on next, as the bot chooses it."""
    table.told = {}
    for item in told:
        if not practice.is_bot(item.player):
            table.told.setdefault(item.player, []).append(message("en", item.key, item.params))
    picture.holdem_picture(voice, {picture.SETTING: "off"}, hand, events)
    table.pawned += [event for event in events if isinstance(event, ItemPawned)]
    table.away = any(seat.get("back") == "ask" for seat in table.state["seats"])
    if hand.is_over:
        for seat in table.state["seats"]:
            seat["stack"] = hand.stacks.get(seat["id"], seat["stack"])
    return "runs" if hand.runs_asked else "show" if hand.showing else "bot" if practice.is_bot(hand.to_act) else "turn"


def _buttons(voice: Voice, view: HandView, key: str, decision: str, legal: LegalActions | None
             ) -> tuple[Button, ...]:
    """`features`: the actor's buttons and the other players' pre-action buttons."""
    return (*action_buttons(voice, view, key, decision, legal), *holdem_preactions.pre_buttons("en", view, key))


def _account(table: LeanTable, local: str) -> str:
    """The bot's ledger account of an engine's account at `table` (`stack:<table>:<id>`, `pot:<table>`)."""
    return f"pot:{table.table_id}" if local == "pot" else f"stack:{table.table_id}:{local.removeprefix('stack:')}"


def _buy_in(tx: Tx, table: LeanTable) -> None:
    """Each player's stack brought to 1,000 chips from the chat's grants (or back to them), as ledger rows."""
    for player, chips in table.stacks.items():
        owed = 1000 - (chips if table.number else 0)  # at a table's first deal its stacks' accounts are new
        mint, stack = f"mint:{table.chat_id}", _account(table, player)
        if owed:
            source, target = (mint, stack) if owed > 0 else (stack, mint)
            tx.move(table.chat_id, source, target, abs(owed), "buy-in", table_id=table.table_id)


async def measure(seconds: float) -> dict[str, tuple[float, float]]:
    """The six figures, as `{name: (actions/s, CPU µs per action)}`."""
    folder = Path(tempfile.mkdtemp())
    return {"engine alone": per_second(seconds, log=None),
            "engine + one log row": per_second(seconds, log=folder / "log.db"),
            THROUGH_STORE: await through_store(seconds, folder / "store.db"),
            COMPLETE: await complete(seconds, folder / "complete.db"),
            WITH_FEATURES: await complete(seconds, folder / "features.db", features=True),
            WITH_BOT_ROWS: await complete(seconds, folder / "bot_rows.db", bot_rows=True)}


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    for name, (rate, cpu) in asyncio.run(measure(parser.parse_args().seconds)).items():
        print(f"{name}: {rate:,.0f} actions/s, {cpu:.0f} µs of CPU per action")


if __name__ == "__main__":
    main()
