"""A transaction's part for chats and their players: the chats' rows and settings, the players' display names."""

from __future__ import annotations

from typing import Any

from bot.store.txbase import TxState, dumps, loads


class Chats(TxState):
    """Chats, players and settings: the `chats` and `players` rows."""

    def ensure_chat(self, chat_id: str) -> bool:
        """Create the chat if new; return whether it was created."""
        cursor = self.db.execute("INSERT INTO chats(chat_id) VALUES (?) ON CONFLICT DO NOTHING", (chat_id,))
        return cursor.rowcount == 1

    def chat_settings(self, chat_id: str) -> dict[str, Any]:
        """The chat's settings (language, organizer ids, grant size…), `{}` when none; a fresh dict each time."""
        stored = self.learned.settings.get(chat_id, self.known.settings.get(chat_id))
        if stored is None:
            row = self.db.execute("SELECT settings FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
            if row is None:
                return {}
            stored = self.learned.settings[chat_id] = str(row[0])  # remembered once this transaction is kept
        settings: dict[str, Any] = loads(stored)
        return settings

    def set_chat_settings(self, chat_id: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings."""
        self.ensure_chat(chat_id)
        stored = dumps(settings)
        self.db.execute("UPDATE chats SET settings = ? WHERE chat_id = ?", (stored, chat_id))
        self.learned.settings[chat_id] = stored

    def ensure_player(self, chat_id: str, user_id: str, name: str) -> bool:
        """Record the player (and refresh his display name); return whether he is new to the chat."""
        self.ensure_chat(chat_id)
        key = (chat_id, user_id)
        added = self.db.execute(
            "INSERT INTO players(chat_id, user_id, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (chat_id, user_id, name),
        ).rowcount == 1
        if not added:
            self.db.execute("UPDATE players SET name = ? WHERE chat_id = ? AND user_id = ?", (name, *key))
        self.learned.names[key] = name
        return added

    def stored_name(self, chat_id: str, user_id: str) -> str | None:
        """The player's display name as recorded, None when he has never played in the chat."""
        key = (chat_id, user_id)
        name = self.learned.names.get(key, self.known.names.get(key))
        if name is None:
            row = self.db.execute(
                "SELECT name FROM players WHERE chat_id = ? AND user_id = ?", key
            ).fetchone()
            if row is None:
                return None
            # remembered once this transaction is kept: the row may be one it wrote itself
            name = self.learned.names[key] = str(row[0])
        return name

    def player_name(self, chat_id: str, user_id: str) -> str:
        """The player's display name (his id when unknown)."""
        name = self.stored_name(chat_id, user_id)
        return user_id if name is None else name

    def find_players(self, chat_id: str, name: str) -> list[str]:
        """The ids of the players a name means (case-insensitive in any alphabet, a leading @ ignored): the player
        with that id, else every player with that display name (two players may share one: the caller asks which)."""
        wanted = name.lstrip("@").casefold()
        # compared here, not by the database's lower(): SQLite's folds only ASCII, so "Боря" never matched "@Боря"
        rows = [(str(user_id), str(shown)) for user_id, shown in self.db.execute(
            "SELECT user_id, name FROM players WHERE chat_id = ? ORDER BY user_id", (chat_id,))]
        return ([user_id for user_id, _ in rows if user_id.casefold() == wanted]
                or [user_id for user_id, shown in rows if shown.casefold() == wanted])

    def learn_table_chats(self) -> None:
        """Learn the names, settings and accounts of every chat with a table, in a read of each: after downtime
        thousands of timers fire at once, and each read its chat's names and settings alone (7.5% of the
        catch-up's time at 10,000 tables). On a shared database only the accounts are kept (see `AccountsOnly`)."""
        with_table = "WHERE chat_id IN (SELECT chat_id FROM tables)"
        accounts = self.db.execute(f"SELECT name FROM accounts {with_table}")
        self.learned.accounts.update(str(name) for name, in accounts)
        if self.dialect.is_shared:
            return
        players = self.db.execute(f"SELECT chat_id, user_id, name FROM players {with_table}")
        self.learned.names.update(((str(chat), str(user)), str(name)) for chat, user, name in players)
        chats = self.db.execute(f"SELECT chat_id, settings FROM chats {with_table}")
        self.learned.settings.update((str(chat), str(settings)) for chat, settings in chats)
