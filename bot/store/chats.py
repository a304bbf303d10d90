"""A transaction's part for chats and their players: the chats' rows and settings, the players' display names and
the language each last came with."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.store.accounts import wallet_account
from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.known import Naming
from bot.store.txbase import TxState, dumps, loads


def shown_name(name: str, label: int) -> str:
    """A player's name as his chat reads it: his display name, and his label when he has one ("Ann (2)")."""
    return f"{name} ({label})" if label else name


def label_for(name: str, others: Sequence[tuple[str, int]]) -> int:
    """The label of a player who takes the display name `name` in a chat whose other players have `others` (each a
    display name and a label; 0 is none): none when no other player has that name or is shown by it, else the
    smallest from 2 that shows no other player's name. Names compare as typed lookups find them (`find_players`:
    case aside), so the chat's shown names stay distinct; the first to arrive keeps the bare name."""
    wanted = name.casefold()
    shown = {shown_name(other, label).casefold() for other, label in others}
    if wanted not in shown and all(other.casefold() != wanted for other, _ in others):
        return 0
    label = 2
    while shown_name(name, label).casefold() in shown:
        label += 1
    return label


def label_players(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 27: each player's label (`players.label`, see `label_for`), those who already shared a display name
    with another player of their chat labelled in the order they arrived, as their welcome grants tell it (without
    one, after the others, by id). A database set back to an older version to run an older migration again (as the
    tests of the migrations do) has its labels: they are kept."""
    columns = connection.execute("SELECT * FROM players LIMIT 0").description
    if any(column[0] == "label" for column in columns):
        return
    connection.execute("ALTER TABLE players ADD COLUMN label INTEGER NOT NULL DEFAULT 0")
    welcomed = dict(connection.execute(
        "SELECT target, MIN(id) FROM ledger WHERE reason = 'welcome grant' GROUP BY target").fetchall())

    def arrival(row: tuple[str, str, str]) -> tuple[str, bool, int, str]:
        chat_id, user_id, _ = row
        first = welcomed.get(wallet_account(chat_id, user_id))
        return chat_id, first is None, int(first or 0), user_id

    rows = sorted(((str(chat), str(user), str(name)) for chat, user, name in connection.execute(
        "SELECT chat_id, user_id, name FROM players").fetchall()), key=arrival)
    placed: dict[str, list[tuple[str, int]]] = {}
    for chat_id, user_id, name in rows:
        others = placed.setdefault(chat_id, [])
        label = label_for(name, others)
        others.append((name, label))
        if label:
            connection.execute("UPDATE players SET label = ? WHERE chat_id = ? AND user_id = ?",
                               (label, chat_id, user_id))


def locale_of_players(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 33: the platform language each player's last command came with (`players.locale`, NULL until he
    acts again), in which what the others' actions tell him alone is written (`Chats.player_locale`). A database set
    back to an older version keeps the column."""
    columns = connection.execute("SELECT * FROM players LIMIT 0").description
    if not any(column[0] == "locale" for column in columns):
        connection.execute("ALTER TABLE players ADD COLUMN locale TEXT")


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
        """Replace the chat's settings, whatever they are now (to change some of them: `change_chat_settings`)."""
        self.ensure_chat(chat_id)
        stored = dumps(settings)
        self.db.execute("UPDATE chats SET settings = ? WHERE chat_id = ?", (stored, chat_id))
        self.learned.settings[chat_id] = stored

    def change_chat_settings(self, chat_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        """Change the chat's settings: `change` is given them as they are and returns them as they become (written
        only when they differ). A write that returns nothing (a replay skips it): `chat_settings` reads the result.

        With several processes (PostgreSQL) the chat's row is locked first and its settings read again under the
        lock (`_hold_chat`), so that the change is made to what another process committed meanwhile, not to
        the copy its action read before: two writes at once (a player's first welcome, /lang in another channel)
        used to leave only the second. A lock another transaction holds fails at once, and the job runs again after
        it (`is_conflict`)."""
        if self.dialect.is_shared:
            self._hold_chat(chat_id)  # a row to lock (`set_chat_settings` makes it on SQLite)
        settings = self.chat_settings(chat_id)
        changed = change(self.chat_settings(chat_id))  # a copy of its own: `change` may alter what it is given
        if changed != settings:
            self.set_chat_settings(chat_id, changed)

    def _hold_chat(self, chat_id: str) -> None:
        """Make sure the chat has its row, and with several processes (PostgreSQL) hold it locked until this
        transaction ends (`Dialect.lock_row`: a lock another transaction holds fails at once, `is_conflict`), its
        settings read under the lock for `chat_settings`; once a transaction, however many of its writes need it (a
        new player's welcome: `ensure_player`, then `change_chat_settings`). A row made here needs no lock: no other
        transaction sees it until this one commits, and one that would make it too waits for that."""
        if chat_id in self.held_chats:
            return
        if not self.ensure_chat(chat_id) and self.dialect.is_shared:
            (stored,) = self.db.execute(f"SELECT settings FROM chats WHERE chat_id = ?{self.dialect.lock_row}",
                                        (chat_id,)).fetchone()
            self.learned.settings[chat_id] = str(stored)
        self.held_chats.add(chat_id)

    def ensure_player(self, chat_id: str, user_id: str, name: str, locale: str | None = None) -> bool:
        """Record the player (and refresh his display name, and the platform language he came with: `locale`, None
        when his platform said none, which keeps the one recorded); return whether he is new to the chat. A new name
        gets its label here (see `label_for`), once: a player who keeps his name keeps his label.

        With several processes (PostgreSQL) the chat's row is locked first (`_hold_chat`), so that two players
        of one name arriving at once through two processes, at two tables of the chat, are labelled in turn, each
        seeing the other's row: unlocked, neither saw the other's uncommitted one and both read "Ann". The second
        transaction's lock fails at once and it runs again after the first commits (`is_conflict`)."""
        self._hold_chat(chat_id)
        key = (chat_id, user_id)
        others: list[tuple[str, int]] = []
        mine: tuple[str, int] | None = None
        was: str | None = None
        for other, other_name, other_label, other_locale in self.db.execute(
                "SELECT user_id, name, label, locale FROM players WHERE chat_id = ?", (chat_id,)):
            naming = (str(other_name), int(other_label))
            if str(other) == user_id:
                mine, was = naming, other_locale
            else:
                others.append(naming)
        locale = was if locale is None else locale
        added = False
        if mine is not None and mine[0] == name:
            label = mine[1]
            if locale != was:
                self.db.execute("UPDATE players SET locale = ? WHERE chat_id = ? AND user_id = ?", (locale, *key))
        else:
            label = label_for(name, others)
            added = mine is None and self.db.execute(
                "INSERT INTO players(chat_id, user_id, name, label, locale) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", (chat_id, user_id, name, label, locale),
            ).rowcount == 1
            if not added:
                self.db.execute("UPDATE players SET name = ?, label = ?, locale = ? WHERE chat_id = ? AND user_id = ?",
                                (name, label, locale, *key))
        self.learned.names[key] = (name, shown_name(name, label), locale)
        return added

    def _naming(self, chat_id: str, user_id: str) -> Naming | None:
        """The player's display name, the name he is shown by and his platform's language, None when he has never
        played in the chat."""
        key = (chat_id, user_id)
        naming = self.learned.names.get(key, self.known.names.get(key))
        if naming is None:
            row = self.db.execute(
                "SELECT name, label, locale FROM players WHERE chat_id = ? AND user_id = ?", key
            ).fetchone()
            if row is None:
                return None
            # remembered once this transaction is kept: the row may be one it wrote itself
            naming = self.learned.names[key] = _naming_of(row)
        return naming

    def knows_player(self, chat_id: str, user_id: str, name: str, locale: str | None) -> bool:
        """Whether the player is recorded in the chat by `name` and with the platform language `locale` (None: his
        platform said none, any recorded will do); when not, his command records him (`ensure_player`)."""
        naming = self._naming(chat_id, user_id)
        return naming is not None and naming[0] == name and (locale is None or naming[2] == locale)

    def player_locale(self, chat_id: str, user_id: str) -> str | None:
        """The platform language the player's last command in the chat came with, None when none is known: what
        the others' actions tell him alone is written in it (`Action.language_of`)."""
        naming = self._naming(chat_id, user_id)
        return None if naming is None else naming[2]

    def player_name(self, chat_id: str, user_id: str) -> str:
        """The name the chat reads for the player: his display name with his label if he has one ("Ann (2)"), his
        id when unknown."""
        naming = self._naming(chat_id, user_id)
        return user_id if naming is None else naming[1]

    def find_players(self, chat_id: str, name: str) -> list[str]:
        """The ids of the players a name means (case-insensitive in any alphabet, a leading @ ignored): the player
        with that id, else the one shown by that name ("Ann (2)"), else every player with that display name (the
        one shown by it renamed since, several may be left: the caller asks which)."""
        wanted = name.lstrip("@").casefold()
        # compared here, not by the database's lower(): SQLite's folds only ASCII, so "Боря" never matched "@Боря"
        rows = [(str(user_id), str(shown), int(label)) for user_id, shown, label in self.db.execute(
            "SELECT user_id, name, label FROM players WHERE chat_id = ? ORDER BY user_id", (chat_id,))]
        return ([user_id for user_id, _, _ in rows if user_id.casefold() == wanted]
                or [user_id for user_id, shown, label in rows if shown_name(shown, label).casefold() == wanted]
                or [user_id for user_id, shown, _ in rows if shown.casefold() == wanted])

    def learn_table_chats(self) -> None:
        """Learn the names, settings and accounts of every chat with a table, in a read of each: after downtime
        thousands of timers fire at once, and each read its chat's names and settings alone (7.5% of the
        catch-up's time at 10,000 tables). On a shared database only the accounts are kept (see `AccountsOnly`)."""
        with_table = "WHERE chat_id IN (SELECT chat_id FROM tables)"
        accounts = self.db.execute(f"SELECT name FROM accounts {with_table}")
        self.learned.accounts.update(str(name) for name, in accounts)
        if self.dialect.is_shared:
            return
        players = self.db.execute(f"SELECT chat_id, user_id, name, label, locale FROM players {with_table}")
        self.learned.names.update(((str(row[0]), str(row[1])), _naming_of(row[2:])) for row in players)
        chats = self.db.execute(f"SELECT chat_id, settings FROM chats {with_table}")
        self.learned.settings.update((str(chat), str(settings)) for chat, settings in chats)


def _naming_of(row: Sequence[Any]) -> Naming:
    """What `Known.names` keeps of a player's row read as (name, label, locale)."""
    name, label, locale = row
    return str(name), shown_name(str(name), int(label)), None if locale is None else str(locale)
