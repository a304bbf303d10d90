"""A thread that owns one database connection (sqlite3's, or psycopg's for PostgreSQL) and runs, in order, the
functions queued for it from the event loop.

What aiosqlite does underneath, with the one thing its public API lacks: a whole function (a transaction of many
statements, reads and Python between them) queued as one item, so a transaction costs one thread hop, not one per
statement. aiosqlite offers that only through its private `_execute` and `_conn`. And one thing more: while the thread
has nothing to do, its connection may be used from the event loop's own thread (`idle_connection`), so that a quick
call costs neither the hop nor the interpreter lock's hand-over between the two threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
_Item = tuple[Callable[[Any], Any], "asyncio.Future[Any]"] | None
"""A function and the future that gets its outcome; None asks the thread to close the connection and stop."""
JOIN_SECONDS = 5.0
"""The longest `close` waits for the thread to end once it has said it stopped (it has only to return by then; a
thread still alive after it is logged, not waited for)."""


class ThreadWorker:
    """Runs `fn(connection)` calls one after another in its own thread; `await run(fn)` returns `fn`'s result.

    A connection that can tell it was lost (`is_broken()`, PostgreSQL's) is opened again before the next call."""

    def __init__(self, connect: Callable[[], Any], name: str) -> None:
        self._connect = connect
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._runner = threading.Thread(target=self._serve, name=name, daemon=True)
        self._connected: asyncio.Future[None] | None = None
        self._stopped: asyncio.Future[None] | None = None
        self._is_closed = False
        self._connection: Any = None
        self._busy = 0
        """Calls queued for the thread or running there, counted in the event loop's thread: one leaves the count
        only once the thread is done with it (its outcome posted back), not when its caller stops waiting."""

    async def start(self) -> None:
        """Start the thread and open the connection in it. Raises if it cannot be opened, or if the caller is
        cancelled meanwhile; either way only once the thread has ended (a connection it opened late closed)."""
        self._connected = asyncio.get_running_loop().create_future()
        self._stopped = asyncio.get_running_loop().create_future()
        self._runner.start()
        try:
            await self._connected
        except BaseException as error:
            failed = error
        else:
            return
        # waited for out of the except block: compiled (mypyc), an await in the handler of an awaited error corrupts
        # the exception's state (`tests/test_compiled_awaits.py`)
        self._is_closed = True
        self._queue.put(None)  # cancelled while it opens: it is to close the connection once open, and end
        await self._ended()
        raise failed

    async def run(self, fn: Callable[[Any], T]) -> T:
        """Queue `fn` behind what is already queued and wait for its result (or its exception)."""
        if self._is_closed or self._connected is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._busy += 1
        self._queue.put((fn, future))
        return await future

    def idle_connection(self) -> Any:
        """The connection, when the thread has no call queued or running (None otherwise, or when closed): the event
        loop's thread may then use it itself until it next awaits, since only that thread queues calls here."""
        if self._busy or self._is_closed or self._connection is None:
            return None
        return self._connection

    async def close(self) -> None:
        """Run what is queued, close the connection and stop the thread, and return once it has ended (again:
        nothing)."""
        if self._is_closed or self._stopped is None:
            return
        self._is_closed = True
        self._queue.put(None)
        await self._ended()

    async def _ended(self) -> None:
        """Return once the thread has ended (it has been told to, or its connection failed to open)."""
        assert self._stopped is not None
        await asyncio.shield(self._stopped)
        # the thread posted `_stopped` as its last act: only its return is left, so waiting here blocks the event
        # loop for no more than that (bounded all the same: a thread that does not end must not hang the shutdown)
        self._runner.join(JOIN_SECONDS)
        if self._runner.is_alive():
            log.warning("%s: the database thread has not ended %s s after it stopped", self._runner.name,
                        JOIN_SECONDS)

    def _serve(self) -> None:
        assert self._connected is not None and self._stopped is not None
        try:
            connection = self._connect()
        except BaseException as error:
            _post(self._connected, None, error)
            _post(self._stopped, None, None)
            return
        self._connection = connection
        _post(self._connected, None, None)
        try:
            while (item := self._queue.get()) is not None:
                fn, future = item
                try:
                    connection = self._connection = self._reopened(connection)
                    result = fn(connection)
                except BaseException as error:  # the caller gets it, whatever it is; the thread goes on
                    _post(future, None, error, self._done)
                else:
                    _post(future, result, None, self._done)
        finally:
            with contextlib.suppress(Exception):  # lost already
                connection.close()
            _post(self._stopped, None, None)

    def _reopened(self, connection: Any) -> Any:
        """The connection, or a new one if it reports itself lost (`is_broken`: PostgreSQL's, after the server
        restarted or ended the session); raises if a new one cannot be opened (the next call tries again)."""
        is_broken = getattr(connection, "is_broken", None)
        if is_broken is None or not is_broken():
            return connection
        log.warning("%s: the database connection was lost; opening a new one", self._runner.name)
        with contextlib.suppress(Exception):
            connection.close()
        return self._connect()

    def _done(self) -> None:
        self._busy -= 1


def _post(future: asyncio.Future[Any], result: Any, error: BaseException | None,
          done: Callable[[], None] | None = None) -> None:
    """Settle `future` from this thread, in its loop's thread (unless that loop is gone: nobody is waiting), after
    calling `done` there."""
    with contextlib.suppress(RuntimeError):  # the event loop is closed
        future.get_loop().call_soon_threadsafe(_settle, future, result, error, done)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None,
            done: Callable[[], None] | None) -> None:
    if done is not None:
        done()
    if future.done():  # the caller was cancelled: the outcome has nobody to go to
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
