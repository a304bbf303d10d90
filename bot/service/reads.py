"""Commands that only read what was played (`/top`, `/history`, `/stats`, `/export`): read on the store's read-only
connection, outside the table's lock and the writer's thread, and answered in the table's transaction (only the
answer's names and wallets are read there)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot import commands as cmd
from bot import history
from bot.clock import Clock
from bot.games.exports import read_export
from bot.output import Actor, Place, Reply
from bot.service.action_log import Dispatch
from bot.service.tables import Run
from bot.store import Store, Tx

Read = Callable[[Tx, Place, cmd.Command], history.Answer]
"""What such a command reads, on the read-only connection: the answer to make in the table's transaction."""

READS: dict[type[cmd.Command], Read] = {
    cmd.Top: history.read_top,
    cmd.History: history.read_history,
    cmd.Stats: history.read_stats,
    cmd.Export: read_export,
}
"""The commands that only read, each with its read."""


async def read_then_run(store: Store, clock: Clock, run: Run, dispatch: Dispatch, place: Place, actor: Actor,
                        command: cmd.Command, pressed: cmd.Pressed | None, read: Read) -> Reply:
    """The command's read, then its answer made in the table's transaction (`Service._run`); not logged."""
    answer = await store.query(lambda tx: read(tx, place, command), now=clock.now())
    return await run(place, actor, place.table_id,
                     functools.partial(dispatch, command=command, pressed=pressed, answer=answer), None)
