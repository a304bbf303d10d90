"""Work an adapter starts in the background and keeps hold of until it is done (a pause, a resume), so that it is not
collected half way and its failure is logged rather than lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from functools import partial
from typing import Any

log = logging.getLogger(__name__)


def start_kept(tasks: set[asyncio.Task[None]], work: Coroutine[Any, Any, None], failure: str) -> None:
    """Run `work` in a task kept in `tasks` until done (its owner's `stop` may wait for them), its exception logged
    as `failure`."""
    task = asyncio.get_running_loop().create_task(work)
    tasks.add(task)
    task.add_done_callback(partial(_done, tasks, failure))


def _done(tasks: set[asyncio.Task[None]], failure: str, task: asyncio.Task[None]) -> None:
    tasks.discard(task)
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error(failure, exc_info=error)
