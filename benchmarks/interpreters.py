"""Whether the machine's second core can serve tables in one process: the bot's service in several isolated
interpreters of one process (Python 3.13's interpreters, each with an interpreter lock of its own), each serving its
share of the tables from a SQLite file of its own, pressed at once; beside one isolated interpreter serving them all
and the main interpreter doing so (the bot as it runs).

Two of the service's dependencies will not load in an isolated interpreter ("does not support loading in
subinterpreters"): orjson, which every action calls, and Pillow, which the service imports for its pictures (numpy,
which only the odds use, refuses too). Inside the isolated interpreters this benchmark therefore puts stand-ins first
on the module path: orjson's calls made with the standard library's `json` (slower: one isolated interpreter against
the main one shows what that costs), and Pillow's names with nothing behind them (pictures are off). A measurement of
what the second core would give, not a design the bot can use: the stand-ins are not the bot's code, the bot's Python
is 3.11 (Debian 12's), and the chats would be split between the files.

Each interpreter runs `processes.child` (its tables seated and dealt, then `--concurrency` players pressing for
`--seconds`). Last, the shape a bot could take: the isolated interpreters as shards serving the players of the main
interpreter (where the adapters would be), every press and reply carried between them over a socket pair (`Remote`,
`shard`), the replies without their table message's text unless `--with-text`. The ledger of every file is checked
after each. With `--lean`, the lean design with the bot's features (`ceiling.LeanDesign`) is measured the same three
ways after the bot: in the main interpreter, in the isolated ones with its players inside (`lean_inside`), and as
shards serving the main interpreter's players (`lean_shard`, `press_lean`). Printed: actions/s of each
configuration, and its ratios.
Run with Python 3.13 and the bot's dependencies installed:
`python3.13 benchmarks/interpreters.py [--interpreters 2] [--tables 1000] [--seconds 5] [--concurrency 64]
[--with-text] [--lean]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import io
import json
import os
import pickle
import random
import socket
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from arguments import at_least_one, more_than_zero  # beside this file: the benchmarks' argument types
from ceiling import LeanDesign, choose, complete, in_parallel, in_play, pressing  # beside this file: the lean design
from processes import ROOT, _check, child, press_for, seat_and_deal

from bot.clock import SystemClock
from bot.output import Actor, Button, Place, Reply, TableMessage
from bot.service import Service
from bot.store import Store

STAND_INS = {
    "orjson.py": '''"""orjson's calls made with the standard library's json (orjson will not load here)."""
import json

OPT_NON_STR_KEYS = 1
OPT_SORT_KEYS = 2
JSONDecodeError = json.JSONDecodeError
_ENCODERS = {}
_decode = json.JSONDecoder().decode


def Fragment(text):
    return json.loads(text)


def dumps(value, default=None, option=0):
    key = (default, option & OPT_SORT_KEYS)
    encoder = _ENCODERS.get(key)
    if encoder is None:  # one encoder for each way of calling, as json.dumps makes one for each call
        encoder = _ENCODERS[key] = json.JSONEncoder(default=default, separators=(",", ":"), ensure_ascii=False,
                                                    sort_keys=bool(option & OPT_SORT_KEYS)).encode
    return encoder(value).encode()


def loads(text):
    return _decode(text if isinstance(text, str) else bytes(text).decode())
''',
    "PIL/__init__.py": '"""Pillow\'s names, with nothing behind them: pictures are off in the benchmark."""\n',
    "PIL/Image.py": "class Image: ...\n",
    "PIL/ImageDraw.py": "class ImageDraw: ...\n",
    "PIL/ImageFont.py": "class FreeTypeFont: ...\nclass ImageFont: ...\n",
}
"""The stand-ins, written to a temporary folder put first on the isolated interpreters' module path."""

RUN = """
import sys
sys.path[:0] = {path!r}
import interpreters
interpreters.{call}
"""
"""What an isolated interpreter runs: `call`, a call of a function of this module, with the stand-ins on its path."""

C = TypeVar("C", bound="Carrier")


def interpreters_module() -> Any:
    """Python's module of isolated interpreters (3.13: `_interpreters`), or None where there is none."""
    try:
        return importlib.import_module("_interpreters")
    except ImportError:
        return None


def in_isolated_interpreter(folder: Path, call: str) -> None:
    """Run `call` (a call of a function of this module) in a new isolated interpreter, the stand-ins in `folder`
    first on its path; returns when it has run."""
    interpreters = interpreters_module()
    # the store's worker threads are daemon threads, which an isolated interpreter refuses unless allowed
    interpreter = interpreters.create(interpreters.new_config("isolated", allow_daemon_threads=True))
    path = [str(folder / "stand-ins"), str(ROOT), str(ROOT / "benchmarks")]
    failed = interpreters.exec(interpreter, RUN.format(path=path, call=call))
    if failed is not None:
        raise SystemExit(f"an isolated interpreter failed:\n{failed.errdisplay}")


def started(folder: Path, calls: list[str]) -> list[threading.Thread]:
    """Each of `calls` running in an isolated interpreter of its own (`in_isolated_interpreter`), in a thread of its
    own, started: the threads, to join."""
    threads = [threading.Thread(target=in_isolated_interpreter, args=(folder, call)) for call in calls]
    for thread in threads:
        thread.start()
    return threads


def own_share(database: str, first: int, last: int, seconds: float, concurrency: int, start_at: float,
              result: str) -> None:
    """`processes.child` on tables `first`..`last - 1`, its players pressing in this interpreter; its figures
    written to `result`."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        asyncio.run(child(database, first, last, seconds, concurrency, start_at))
    Path(result).write_text(printed.getvalue().strip().splitlines()[-1])


class Frames:
    """Pickled objects over a stream, each after its length; what is written in one turn of the event loop goes in
    one write (a system call a turn, not one a reply)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self._out: list[bytes] = []

    @classmethod
    async def over(cls, sock: socket.socket) -> Frames:
        """Frames over a connected socket."""
        return cls(*await asyncio.open_connection(sock=sock))

    def send(self, value: object) -> None:
        """Write `value` at the end of this turn of the event loop."""
        body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if not self._out:
            asyncio.get_running_loop().call_soon(self._flush)
        self._out.append(struct.pack("<I", len(body)) + body)

    def _flush(self) -> None:
        self.writer.write(b"".join(self._out))
        self._out.clear()

    async def receive(self) -> Any:
        """The next object, or None when the stream has ended."""
        try:
            (size,) = struct.unpack("<I", await self.reader.readexactly(4))
            return pickle.loads(await self.reader.readexactly(size))
        except asyncio.IncompleteReadError:
            return None


def plain_reply(reply: Reply, with_text: bool) -> tuple[Any, ...]:
    """What a reply carries back to the adapters' interpreter (its table message's text only `with_text`: the
    players here read only its buttons)."""
    table = reply.table
    return (reply.public, reply.private, reply.error, None if table is None else (
        table.key, table.text if with_text else "", plain_buttons(table.buttons), table.to_act))


def plain_buttons(buttons: tuple[Button, ...]) -> tuple[tuple[str, str, bool], ...]:
    """Buttons as tuples, to carry to another interpreter (made again there by `Button(*button)`)."""
    return tuple((button.label, button.payload, button.private) for button in buttons)


async def serve_frames(frames: Frames, apply: Callable[..., Awaitable[object]]) -> None:
    """Each message that comes over `frames` (its number, then what `apply` takes) applied at once, side by side, and
    its answer sent back under its number, or the exception it raised (so that a failed press fails where it was
    made rather than leaving its sender waiting; one that does not pickle as a `RuntimeError` naming it), until the
    stream ends and every one has been answered; then the stream closed."""

    async def answer(number: int, *message: Any) -> None:
        try:
            answered: object = await apply(*message)
        except Exception as failure:  # carried back, raised there
            answered = failure
        try:
            frames.send((number, answered))
        except Exception as uncarried:  # it does not pickle: what it was goes back instead
            frames.send((number, RuntimeError(f"{answered!r} could not be carried back: {uncarried}")))

    running: set[asyncio.Future[None]] = set()
    while (frame := await frames.receive()) is not None:
        task = asyncio.ensure_future(answer(*frame))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)
    frames.writer.close()


def shard(database: str, descriptor: int, seed: int, with_text: bool) -> None:
    """A shard of the tables: a service on `database`, applying the presses and messages that come over the socket
    `descriptor` (its own: it closes it) and sending each reply back, until the stream ends."""

    async def run() -> None:
        store = await Store.open(database)
        service = Service(store, SystemClock(), rng=random.Random(seed))
        frames = await Frames.over(socket.socket(fileno=descriptor))

        async def apply(kind: str, chat: str, table: str, user: str, name: str, words: str) -> tuple[Any, ...]:
            place, actor = Place(chat, table), Actor(user, name)
            reply = await (service.press(place, actor, words) if kind == "press" else
                           service.handle(place, actor, words))
            return plain_reply(reply, with_text)

        await serve_frames(frames, apply)
        await store.close()

    asyncio.run(run())


def lean_shard(database: str, descriptor: int, tables: int) -> None:
    """A shard of the lean design's tables (`ceiling.LeanDesign` with the bot's features) on `database`: each press
    that comes over the socket `descriptor` (a table's number here and its payload, None to deal) applied, and what a
    player reads sent back (whether a hand is in play, the table's buttons, the private messages), until the stream
    ends."""

    async def run() -> None:
        design = await LeanDesign.open(database, tables, features=True)
        frames = await Frames.over(socket.socket(fileno=descriptor))

        async def apply(index: int, payload: str | None) -> tuple[Any, ...]:
            table = design.tables[index]
            await design.press(table, payload)
            return in_play(table), plain_buttons(table.buttons()), table.told

        await serve_frames(frames, apply)
        await design.close(check=False)  # its balances are kept in memory, checked by each hand's end

    asyncio.run(run())


class Carrier:
    """Messages carried to shards over `Frames`, each numbered so that its answer, when a shard sends it back, goes
    to whoever awaits it (made with `make` first; an exception the shard sent back is raised there instead). A shard
    that stops with messages unanswered (it failed) fails them, and any sent to it later, rather than leaving their
    senders waiting."""

    def __init__(self, shards: list[Frames], make: Callable[[Any], Any] = lambda answer: answer) -> None:
        self.shards, self.make = shards, make
        self.waiting: dict[int, tuple[Frames, asyncio.Future[Any]]] = {}
        self.stopped: set[Frames] = set()
        self.sent = 0

    def send(self, shard: int, *message: object) -> asyncio.Future[Any]:
        """`message` carried to shard number `shard`; its answer, when it comes."""
        answer = asyncio.get_running_loop().create_future()
        to = self.shards[shard]
        if to in self.stopped:
            answer.set_exception(_stopped())
            return answer
        self.sent += 1
        self.waiting[self.sent] = to, answer
        to.send((self.sent, *message))
        return answer

    async def listen(self, frames: Frames) -> None:
        """Hand each answer from a shard to whoever awaits it, until the shard stops; then fail what it left
        unanswered, and what is sent to it from then on."""
        while (frame := await frames.receive()) is not None:
            number, answer = frame
            _, waiting = self.waiting.pop(number)
            if isinstance(answer, Exception):
                waiting.set_exception(answer)
            else:
                waiting.set_result(self.make(answer))
        self.stopped.add(frames)
        for number in [number for number, (to, _) in self.waiting.items() if to is frames]:
            self.waiting.pop(number)[1].set_exception(_stopped())


def _stopped() -> ConnectionError:
    """What a message to a shard that has stopped fails with."""
    return ConnectionError("the shard stopped before answering")


def reply_from_plain(plain: tuple[Any, ...]) -> Reply:
    """The reply a shard sent as `plain_reply`."""
    public, private, error, table = plain
    return Reply(public=public, private=private, error=error, table=None if table is None else TableMessage(
        table[0], table[1], tuple(Button(*button) for button in table[2]), table[3]))


class Remote(Carrier):
    """The service as an adapters' interpreter would reach it (`processes.Pressable`): each message or press sent to
    the shard serving its chat, its reply awaited from there."""

    def __init__(self, shards: list[Frames], shard_of: dict[str, int]) -> None:
        super().__init__(shards, reply_from_plain)
        self.shard_of = shard_of

    def _send(self, kind: str, place: Place, actor: Actor, words: str) -> asyncio.Future[Reply]:
        return self.send(self.shard_of[place.chat_id], kind, place.chat_id, place.table_id, actor.user_id,
                         actor.name, words)

    def handle(self, place: Place, actor: Actor, message: str) -> asyncio.Future[Reply]:
        """A chat message to the table's shard."""
        return self._send("message", place, actor, message)

    def press(self, place: Place, actor: Actor, payload: str) -> asyncio.Future[Reply]:
        """A button press to the table's shard."""
        return self._send("press", place, actor, payload)


def carried(folder: Path, calls: list[str], carrier: Callable[[list[Frames]], C],
            play: Callable[[C], Awaitable[float]]) -> float:
    """Isolated interpreters as shards, one running each of `calls` (a call of a function of this module, its
    `{descriptor}` the shard's end of a socket pair), and `play` in the main interpreter, reaching them through the
    `carrier` made over the pairs' other ends; `play`'s rate, once every shard has stopped."""
    pairs = [socket.socketpair() for _ in calls]
    # each shard's end of its pair becomes the shard's own (`detach`), so that it closing it ends the stream here
    threads = started(folder, [call.format(descriptor=theirs.detach())
                               for call, (_, theirs) in zip(calls, pairs, strict=True)])

    async def run() -> float:
        shards = [await Frames.over(mine) for mine, _ in pairs]
        reaching = carrier(shards)
        listening = [asyncio.ensure_future(reaching.listen(frames)) for frames in shards]
        try:
            return await play(reaching)
        finally:  # when `play` failed too, or the shards would wait for more for ever and their threads with them
            for frames in shards:
                frames.writer.write_eof()  # each shard finishes what it has, then stops
            await asyncio.gather(*listening)

    try:
        return asyncio.run(run())
    finally:
        for thread in threads:
            thread.join()


def serve_across(folder: Path, count: int, tables: int, seconds: float, concurrency: int, with_text: bool) -> float:
    """`count` isolated interpreters each serving its share of `tables` tables from a file of its own, the players
    (`concurrency` for each) pressing in the main interpreter, every press and reply carried between them: the
    actions/s, each file's ledger checked."""
    databases = [str(folder / f"across{index}.db") for index in range(count)]
    places = [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)]

    async def play(remote: Remote) -> float:
        last_reply = await seat_and_deal(remote, places)
        actions, elapsed, _ = await press_for(remote, last_reply, seconds, concurrency * count, seed=0)
        return actions / elapsed

    rate = carried(folder, [f"shard({database!r}, {{descriptor}}, {index}, {with_text})"
                            for index, database in enumerate(databases)],
                   lambda shards: Remote(shards, {place.chat_id: index * count // tables
                                                  for index, place in enumerate(places)}), play)
    for database in databases:
        if problems := asyncio.run(_check(database)):
            raise SystemExit(f"the ledger of {database} does not hold: {problems[:3]}")
    return rate


async def press_lean(carrier: Carrier, tables: int, seconds: float, concurrency: int) -> float:
    """The players of `lean_across`: every table dealt (`ceiling.BATCH` at a time), then `concurrency` players
    pressing for `seconds` (`ceiling.pressing`), each choosing among the buttons its table's last answer carried (as
    `ceiling.complete`'s players choose among those its tables draw); the actions/s."""
    count = len(carrier.shards)
    answers: dict[int, tuple[bool, tuple[tuple[Any, ...], ...], dict[str, list[str]]]] = {}

    async def press(index: int, payload: str | None) -> None:
        answers[index] = await carrier.send(index % count, index // count, payload)

    def choose_and_press(index: int, rng: random.Random) -> Awaitable[None]:
        playing, buttons, _ = answers[index]
        return press(index, choose(tuple(Button(*button) for button in buttons), rng) if playing else None)

    await in_parallel(range(tables), lambda index: press(index, None))
    began = time.perf_counter()
    done = await pressing(tables, concurrency, seconds, choose_and_press)
    return done / (time.perf_counter() - began)


def lean_across(folder: Path, count: int, tables: int, seconds: float, concurrency: int) -> float:
    """The lean design with the bot's features (`ceiling.complete(features=True)`) as `serve_across` has the bot:
    `count` isolated interpreters each serving its share of `tables` tables (the table `i` by the shard `i % count`)
    from a file of its own, the players (`concurrency` for each) pressing in the main interpreter, every press and
    answer carried between them: the actions/s."""
    return carried(folder, [f"lean_shard({str(folder / f'lean{index}.db')!r}, {{descriptor}}, "
                            f"{len(range(index, tables, count))})" for index in range(count)],
                   Carrier, lambda carrier: press_lean(carrier, tables, seconds, concurrency * count))


def lean_share(database: str, tables: int, seconds: float, concurrency: int, result: str) -> None:
    """`ceiling.complete` with the bot's features on `tables` tables, its players pressing in this interpreter; its
    actions/s written to `result`."""
    rate, _ = asyncio.run(complete(seconds, Path(database), concurrency, features=True, tables=tables))
    Path(result).write_text(json.dumps(rate))


def lean_inside(folder: Path, count: int, tables: int, seconds: float, concurrency: int) -> float:
    """`count` isolated interpreters each running `lean_share` on its share of `tables` tables at once (each deals
    its tables, then presses: their windows overlap but for the deals): their actions/s together."""
    results = [folder / f"inside{index}.json" for index in range(count)]
    threads = started(folder, [f"lean_share({str(folder / f'inside{index}.db')!r}, {len(range(index, tables, count))}, "
                               f"{seconds}, {concurrency}, {str(results[index])!r})" for index in range(count)])
    for thread in threads:
        thread.join()
    return sum(float(json.loads(result.read_text())) for result in results)


def serve(folder: Path, name: str, count: int, tables: int, seconds: float, concurrency: int,
          isolated: bool) -> float:
    """`count` interpreters (isolated ones, or the main one) serving `tables` tables together, each its share from a
    file of its own in `folder`: their actions/s together, each file's ledger checked."""
    share = -(-tables // count)
    start_at = time.time() + 4.0 + share * 0.01  # each seats and deals its tables first, then all press at once
    results = [folder / f"{name}{index}.json" for index in range(count)]
    databases = [str(folder / f"{name}{index}.db") for index in range(count)]

    def one(index: int) -> None:
        first, last = index * share, min(tables, (index + 1) * share)
        if isolated:
            in_isolated_interpreter(folder, f"own_share({databases[index]!r}, {first}, {last}, {seconds}, "
                                            f"{concurrency}, {start_at}, {str(results[index])!r})")
        else:
            own_share(databases[index], first, last, seconds, concurrency, start_at, str(results[index]))

    threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for database in databases:
        if problems := asyncio.run(_check(database)):
            raise SystemExit(f"the ledger of {database} does not hold: {problems[:3]}")
    rates = [figures["actions"] / figures["elapsed"]
             for figures in (json.loads(result.read_text()) for result in results)]
    return sum(rates)


def main() -> None:
    """Parse the arguments, then measure the main interpreter, one isolated interpreter, several, and several
    serving the main one's players."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interpreters", type=at_least_one("interpreters"), default=2,
                        help="isolated interpreters at once")
    parser.add_argument("--tables", type=at_least_one("tables"), default=1000)
    parser.add_argument("--seconds", type=more_than_zero, default=5.0)
    parser.add_argument("--concurrency", type=at_least_one("players"), default=64,
                        help="players pressing in each")
    parser.add_argument("--with-text", action="store_true",
                        help="carried replies bring their table message's text, written for each (the players read "
                             "only its buttons, and the service writes it only when read)")
    parser.add_argument("--lean", action="store_true",
                        help="then the lean design with the bot's features (benchmarks/ceiling.py) likewise: in the "
                             "main interpreter, in the isolated ones with their players inside, and carried")
    args = parser.parse_args()
    if interpreters_module() is None:
        parser.error(f"needs Python 3.13's isolated interpreters (`_interpreters`); this is {sys.version.split()[0]}")
    if args.tables < args.interpreters:
        parser.error("--tables must be at least --interpreters (each interpreter serves its own tables)")
    folder = Path(tempfile.mkdtemp())
    for name, text in STAND_INS.items():
        (folder / "stand-ins" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "stand-ins" / name).write_text(text)
    print(f"Python {sys.version.split()[0]}, {args.tables} tables, {args.concurrency} players pressing in each "
          f"interpreter, {args.seconds:g} s each")
    measure = {"tables": args.tables, "seconds": args.seconds, "concurrency": args.concurrency}
    main_rate = serve(folder, "main", 1, isolated=False, **measure)
    print(f"the main interpreter (orjson, the bot as it runs): {main_rate:,.0f} actions/s")
    alone = serve(folder, "alone", 1, isolated=True, **measure)
    print(f"one isolated interpreter (the stand-ins): {alone:,.0f} actions/s, {alone / main_rate:.2f}x the main one")
    together = serve(folder, "together", args.interpreters, isolated=True, **measure)
    print(f"{args.interpreters} isolated interpreters, a file each: {together:,.0f} actions/s, "
          f"{together / alone:.2f}x one isolated, {together / main_rate:.2f}x the main one; ledgers ok")
    across = serve_across(folder, args.interpreters, with_text=args.with_text, **measure)
    print(f"{args.interpreters} isolated interpreters, the players in the main one (each press and reply carried"
          f"{', its text written' if args.with_text else ''}): {across:,.0f} actions/s, {across / together:.2f}x "
          f"with their players inside, {across / main_rate:.2f}x the main one; ledgers ok")
    if args.lean:
        lean_main, _ = asyncio.run(complete(args.seconds, folder / "lean_main.db", args.concurrency, features=True,
                                            tables=args.tables))
        print(f"the lean design with the bot's features, the main interpreter: {lean_main:,.0f} actions/s, "
              f"{lean_main / main_rate:.2f}x the bot there")
        inside = lean_inside(folder, args.interpreters, **measure)
        print(f"the same in {args.interpreters} isolated interpreters, their players inside: {inside:,.0f} actions/s, "
              f"{inside / lean_main:.2f}x the main one")
        lean_carried = lean_across(folder, args.interpreters, **measure)
        print(f"the same, the players in the main one (each press and answer carried): {lean_carried:,.0f} "
              f"actions/s, {lean_carried / inside:.2f}x with their players inside, {lean_carried / lean_main:.2f}x "
              f"the main one, {lean_carried / main_rate:.2f}x the bot there")
    sys.stdout.flush()
    # Python 3.13.0 at times aborts (a double free) while tearing down an isolated interpreter that ran the store's
    # threads, after every figure above: the process ends here instead
    os._exit(0)


if __name__ == "__main__":
    main()
