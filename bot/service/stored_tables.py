"""Tables read back from the store: the snapshot (or the one start-up made live), then the actions logged after it
replayed in order: what an action loads when its table is not live (or another process acted on it since), and what
audits and tests read (`Service.stored_table`)."""

from __future__ import annotations

from typing import Any

from bot.games import Controller
from bot.output import Place
from bot.replay import state_json
from bot.service.action_log import Dispatch, LiveTable, read_snapshot, replay
from bot.store import Tx
from bot.store.tx import HISTORY_ONLY, loads


def load_table(tx: Tx, unreplayed: dict[str, LiveTable], table_id: str, place: Place | None,
               controllers: dict[str, Controller], default_game: str, dispatch: Dispatch) -> LiveTable | None:
    """The table from the store: its snapshot (the one start-up made live, taken from `unreplayed`, when it is still
    the stored one), then its logged actions replayed in order (a new table is created for `place`; None for an
    unknown table without one)."""
    live = unreplayed.pop(table_id, None)
    # none kept, or the table was stored again since start-up other than through a live table (a repair, a test)
    if live is None or tx.snapshot_seq(table_id) != live.snapshot_seq:
        live = read_snapshot(tx, table_id, place)
    if live is not None:
        for seq, logged in tx.logged_actions(table_id, live.snapshot_seq):
            if logged != HISTORY_ONLY:
                replay(tx, table_id, live, loads(logged), controllers, default_game, dispatch)
            live.seq = seq
    return live


def stored_table(tx: Tx, unreplayed: dict[str, LiveTable], table_id: str, controllers: dict[str, Controller],
                 default_game: str, dispatch: Dispatch) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A table's config and state as a restart would resume them (`load_table`), as plain JSON values; None for an
    unknown table."""
    live = load_table(tx, unreplayed, table_id, None, controllers, default_game, dispatch)
    if live is None:
        return None
    return loads(state_json(live.config)), loads(state_json(live.state))
