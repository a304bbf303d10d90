"""Every table's snapshot in one read, for start-up's check that each one can resume."""

from __future__ import annotations

from collections.abc import Iterator

from bot.store.tx import Tx


def snapshots(tx: Tx) -> Iterator[tuple[str, str, str]]:
    """Each stored table's id, config and state (JSON text, `{}` for none), one row at a time from one SELECT."""
    for table_id, config, state in tx.db.execute("SELECT table_id, config, state FROM tables ORDER BY table_id"):
        yield str(table_id), str(config), str(state or "{}")
