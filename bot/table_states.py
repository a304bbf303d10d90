"""Table states numbered in the order the service produced them, so that an adapter never shows an older one."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from bot.output import TableMessage

State = tuple[int, TableMessage]
"""A table state and its version: versions grow in the order the service produced the states."""


class TableStates:
    """Numbers the table states an adapter is given and keeps each table's newest (Discord's and Telegram's alike).

    An adapter numbers a state the moment the service's answer reaches it (a command's or a press's return, a
    timer's reply through its listener), before it awaits anything: the versions then follow the order in which the
    service committed the actions, whatever order the adapter's locks, queues and requests take afterwards (a press
    that waited for the table while a turn timer fired is answered first, the timer's reply queued after it). A
    state older than the one a table message shows is never sent, and a state about to be sent gives way to a
    newer one of the same hand (`newest_of_hand`).
    """

    def __init__(self) -> None:
        self._versions = itertools.count(1)
        self._newest: dict[str, State] = {}
        self._announced: dict[str, int] = {}
        """The version of each table's newest state that came with an announcement (`number`)."""

    def number(self, table_id: str, message: TableMessage, announced: bool = False) -> State:
        """The state with its version; it is now the table's newest. `announced`: it came with public texts, which
        the chat reads before the table shows it (`announced_after`)."""
        state = (next(self._versions), message)
        self._newest[table_id] = state
        if announced:
            self._announced[table_id] = state[0]
        return state

    def announced_after(self, table_id: str, version: int) -> bool:
        """Whether a state of the table numbered after `version` came with an announcement: an older state about to
        be sent must not show it in its place (its texts are not read yet), but give way to its own request."""
        return self._announced.get(table_id, 0) > version

    def newest(self, table_id: str) -> State | None:
        """The table's newest numbered state, if any."""
        return self._newest.get(table_id)

    def newest_of_hand(self, table_id: str, state: State) -> State:
        """The state to show for `state`: a newer one of the same hand numbered since (show it at once: one request
        instead of two), else `state` itself."""
        newest = self._newest.get(table_id)
        if newest is not None and newest[1].key == state[1].key and newest[0] > state[0]:
            return newest
        return state

    def rekey(self, renamed: Callable[[str], str]) -> None:
        """The tables were renamed (a Telegram group upgraded to a supergroup): `renamed` gives each id's new name."""
        self._newest = {renamed(table_id): state for table_id, state in self._newest.items()}
        self._announced = {renamed(table_id): version for table_id, version in self._announced.items()}
