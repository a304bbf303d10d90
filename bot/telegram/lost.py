"""The public texts Telegram dropped for a paused table (the bot out of the group, its forum topic closed), shown
before the table when it is reachable again."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

KEPT_TEXTS = 5
"""How many of a paused table's dropped texts are kept: the last ones (a hand's result, a level's announcement); a
table paused for long has its state shown again anyway."""


class LostTexts:
    """Each paused table's last `KEPT_TEXTS` public texts dropped since its pause began, by table id.

    In memory only: after a restart the tables in play are shown again as they stand, without them. Private texts
    and table states are never kept (an edit shows only the newest state, and the table is shown again)."""

    def __init__(self, kept: int = KEPT_TEXTS) -> None:
        self._kept = kept
        self._texts: dict[str, deque[str]] = {}

    def begin(self, table_ids: Iterable[str]) -> None:
        """A pause of these tables begins: texts kept from an earlier one are not shown."""
        for table_id in table_ids:
            self._texts.pop(table_id, None)

    def keep(self, table_id: str, text: str) -> None:
        """A public text of a paused table was dropped (the oldest kept goes when there are too many)."""
        self._texts.setdefault(table_id, deque(maxlen=self._kept)).append(text)

    def take(self, table_id: str) -> list[str]:
        """The texts kept for a table that plays on, oldest first (forgotten: they are shown now)."""
        return list(self._texts.pop(table_id, ()))
