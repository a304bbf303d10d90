"""The database schema as numbered migrations, one list for SQLite and PostgreSQL; the applied number lives in
`PRAGMA user_version` (SQLite) or the `schema_version` table (PostgreSQL), see `bot.store.dialect`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.action_log import (
    add_action_log,
    figures_know_tournament_hands,
    hands_in_their_tables_row,
    hands_settled_at_their_end,
    history_into_action_log,
    moves_into_action_log,
    spans_by_their_end,
)
from bot.store.chats import label_players, locale_of_players
from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.downtime import heartbeats
from bot.store.figures import add_hand_figures, figures_by_chat_and_time
from bot.store.platform import claims_on_retiring_messages, retired_texts_of_table_messages
from bot.store.played import pruned_stats_by_day
from bot.store.pruned_tournaments import tournament_chips_out_of_pruned_stats
from bot.store.repair import number_hands_per_table

Migration = str | Callable[[Any, Dialect], None]
"""SQL statements separated by `;` (in SQLite's types: `Dialect.ddl` gives PostgreSQL's), or a function for what SQL
alone cannot express (given the connection and its dialect; a PostgreSQL database is always created by this code, so
a repair of rows older than it finds nothing to repair there)."""


def _timers_due_on_postgresql_only(connection: Connection, dialect: Dialect) -> None:
    """Drop migration 12's index of the timers by due time on SQLite: only `Service.watch_timers` looks timers up by
    it, with several processes on one database, and on SQLite each re-armed turn timer (most actions) moved one of
    its entries for nothing (a third of a page more written to the log an action at 1,000 tables, 0.3% of an
    action's instructions: `benchmarks/instructions.py`)."""
    if not dialect.is_shared:
        connection.execute("DROP INDEX IF EXISTS timers_due")


def accounts_table(name: str) -> str:
    """The statement that creates a table of ledger accounts under `name`, with migration 1's columns and check."""
    return (f"CREATE TABLE {name} (name TEXT PRIMARY KEY, chat_id TEXT NOT NULL, kind TEXT NOT NULL, "
            "may_go_negative INTEGER NOT NULL DEFAULT 0, balance INTEGER NOT NULL DEFAULT 0, "
            "CHECK (may_go_negative = 1 OR balance >= 0))")


def accounts_by_name(connection: Connection, dialect: Dialect) -> None:
    """On SQLite, `accounts` rebuilt as a `WITHOUT ROWID` table: one B-tree keyed by the account's name, where a
    table's stacks (`stack:<table>:<player>`), whose balances each hand's end writes, lie side by side, one page for
    them all; in the rowid table they lay where each was created, a page each, and a name was found through an index
    of its own first. A rebuild of a table the ledger's rows refer to: `migrate` runs it with the foreign keys
    checked at its end (`REBUILDS`). PostgreSQL keeps its table (a heap, found by its key's index either way)."""
    if dialect.is_shared:
        return
    connection.execute(accounts_table("accounts_by_name") + " WITHOUT ROWID")
    connection.execute("INSERT INTO accounts_by_name(name, chat_id, kind, may_go_negative, balance) "
                       "SELECT name, chat_id, kind, may_go_negative, balance FROM accounts")
    connection.execute("DROP TABLE accounts")
    connection.execute("ALTER TABLE accounts_by_name RENAME TO accounts")


MIGRATIONS: list[Migration] = [
    # 1: chats, players, accounts and the double-entry ledger, tables, history, timers, tournaments
    """
    CREATE TABLE chats (
        chat_id   TEXT PRIMARY KEY,
        settings  TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE players (
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE TABLE accounts (
        name      TEXT PRIMARY KEY,
        chat_id   TEXT NOT NULL,
        kind      TEXT NOT NULL,
        may_go_negative INTEGER NOT NULL DEFAULT 0,
        balance   INTEGER NOT NULL DEFAULT 0,
        CHECK (may_go_negative = 1 OR balance >= 0)
    );
    CREATE TABLE ledger (
        id        INTEGER PRIMARY KEY,
        at        REAL NOT NULL,
        chat_id   TEXT NOT NULL,
        source    TEXT NOT NULL REFERENCES accounts(name),
        target    TEXT NOT NULL REFERENCES accounts(name),
        amount    INTEGER NOT NULL CHECK (amount > 0),
        reason    TEXT NOT NULL,
        table_id  TEXT,
        hand_id   TEXT
    );
    CREATE INDEX ledger_hand ON ledger(table_id, hand_id);
    CREATE TABLE tables (
        table_id  TEXT PRIMARY KEY,
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        config    TEXT NOT NULL DEFAULT '{}',
        state     TEXT,
        updated_at REAL NOT NULL
    );
    CREATE TABLE history (
        id        INTEGER PRIMARY KEY,
        table_id  TEXT NOT NULL REFERENCES tables(table_id),
        hand_id   TEXT NOT NULL,
        at        REAL NOT NULL,
        event     TEXT NOT NULL
    );
    CREATE INDEX history_hand ON history(table_id, hand_id);
    CREATE TABLE timers (
        key       TEXT PRIMARY KEY,
        table_id  TEXT NOT NULL,
        due_at    REAL NOT NULL,
        payload   TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE tournaments (
        id        INTEGER PRIMARY KEY,
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        table_id  TEXT NOT NULL,
        status    TEXT NOT NULL,
        state     TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 2: history rows by kind (hand ends, pots won, tournament results), for /history, /stats and /top
    """
    CREATE INDEX history_kind ON history(table_id, json_extract(event, '$.kind'));
    """,
    # 3: the statistics of hands pruned from the history (POKERBOT_HISTORY_DAYS, bot/store/prune.py), which /stats
    # and /top add to those of the hands still in it
    """
    CREATE TABLE pruned_stats (
        chat_id      TEXT NOT NULL REFERENCES chats(chat_id),
        user_id      TEXT NOT NULL,
        hands_played INTEGER NOT NULL DEFAULT 0,
        hands_won    INTEGER NOT NULL DEFAULT 0,
        net          INTEGER NOT NULL DEFAULT 0,
        biggest_pot  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    """,
    # 4: one hand number counter per table (`tables.last_number`); hand records merged under one id are split
    number_hands_per_table,
    # 5: tables paused because the bot cannot reach their channel (removed from a group): their timers wait
    """
    CREATE TABLE paused_tables (
        table_id  TEXT PRIMARY KEY,
        paused_at REAL NOT NULL
    );
    """,
    # 6: the adapters' own rows (platform ids, never game state; read and written through `bot.store.platform`):
    # each table's current message on Discord and on Telegram, the Telegram users who opened a private chat, the
    # groups that refuse pictures, and who was told in a group to open a private chat. The adapters created these
    # tables themselves before: IF NOT EXISTS keeps the rows of a database that has them.
    """
    CREATE TABLE IF NOT EXISTS discord_table_messages (
        table_id    TEXT PRIMARY KEY,
        channel_id  INTEGER NOT NULL,
        key         TEXT NOT NULL,
        message_id  INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS telegram_table_messages (
        table_id   TEXT PRIMARY KEY,
        hand_key   TEXT NOT NULL,
        chat_id    INTEGER NOT NULL,
        message_id INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS telegram_private_chats (
        user_id    INTEGER PRIMARY KEY
    );
    CREATE TABLE IF NOT EXISTS telegram_no_photos (
        chat_id    INTEGER PRIMARY KEY
    );
    CREATE TABLE IF NOT EXISTS telegram_hinted (
        chat_id    INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    """,
    # 7: the clock page of a tournament (a TV in the room shows it), reached only through its unguessable token
    """
    CREATE TABLE clock_pages (
        token         TEXT PRIMARY KEY,
        tournament_id INTEGER NOT NULL UNIQUE REFERENCES tournaments(id)
    );
    """,
    # 8: the playing-style counts of the hands pruned from the history (`bot.statistics`: VPIP, PFR, aggression,
    # showdowns), kept beside their totals so that /stats reads the same after a pruning
    """
    ALTER TABLE pruned_stats ADD COLUMN vpip INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN pfr INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN postflop_aggressive INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN postflop_calls INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN saw_flop INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN showdowns INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE pruned_stats ADD COLUMN showdowns_won INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: seasons (RULES.md §1d): a chat's named spans of tournaments, numbered per chat; one is on while its end is
    # NULL, and it counts the chat's tournaments created while it was on: numbered after `after_tournament` (the
    # last tournament when it started) up to `through_tournament` (the last one when it ended)
    """
    CREATE TABLE seasons (
        id                 INTEGER PRIMARY KEY,
        chat_id            TEXT NOT NULL REFERENCES chats(chat_id),
        number             INTEGER NOT NULL,
        name               TEXT,
        started_at         REAL NOT NULL,
        ended_at           REAL,
        after_tournament   INTEGER NOT NULL,
        through_tournament INTEGER,
        UNIQUE (chat_id, number)
    );
    CREATE UNIQUE INDEX seasons_on ON seasons(chat_id) WHERE ended_at IS NULL;
    """,
    # 10: the action log that, replayed after the table's last snapshot, resumes it; history's event kind in a column
    add_action_log,
    # 11: Telegram groups that became supergroups, old id -> new id: presses on the old group's messages still
    # arrive with the old id and are mapped to the moved table
    """
    CREATE TABLE IF NOT EXISTS telegram_migrated (
        old_chat_id INTEGER PRIMARY KEY,
        new_chat_id INTEGER NOT NULL
    );
    """,
    # 12: several processes on one database (PostgreSQL) find the due timers by their time (`Service.watch_timers`);
    # whether a process's live table is still current it learns from the table's action number (`Tx.lock_table`)
    """
    CREATE INDEX timers_due ON timers(due_at);
    """,
    # 13: each ended Hold'em hand's statistics per player, written when it ends, which `/stats` adds up
    add_hand_figures,
    # 14: history's kind indexed only where a read looks rows up by it, the hands that ended (`Tx.finished_hands`,
    # `Tx.tournament_hands`): the other rows, about nine in ten, are written without an entry in that index
    """
    DROP INDEX IF EXISTS history_by_kind;
    CREATE INDEX IF NOT EXISTS history_hands_ended ON history(table_id, id) WHERE kind = 'HandEnded'
    """,
    # 15: the timers by due time only where several processes look them up so (PostgreSQL)
    _timers_due_on_postgresql_only,
    # 16: the history in the action log: each action's events in its row, the rows kept, `hand_spans` to find a
    # hand's; the `history` table's rows moved there
    history_into_action_log,
    # 17: the hands' chip moves in the action log's rows (the ledger's record of them), other moves in `ledger`
    moves_into_action_log,
    # 18: a Hold'em hand's moves between its table's stacks and pot reach their balances when it ends
    hands_settled_at_their_end,
    # 19: on SQLite an action's timer changes are in its log row (`actions.timers`), and the `timers` rows hold a
    # table's timers as of its action `tables.timers_seq`, written a table at a time (see `Tx.compact_timers`)
    """
    ALTER TABLE actions ADD COLUMN timers TEXT;
    ALTER TABLE tables ADD COLUMN timers_seq INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX timers_table ON timers(table_id)
    """,
    # 20: a hand's or house round's beginning in its table's row while it is in play, its span row written once, when
    # it ends (see `Tx.log_action`)
    hands_in_their_tables_row,
    # 21: the spans' index by their ends goes: since 20 nearly every span row has its end, so the partial index held
    # them all, one more B-tree ordered by table that each hand's end wrote a page of; the reads of the hands that ended
    # (`Tx.finished_hands`, `Tx.tournament_hands`) take them in the order they began (`hand_spans_in_log`) instead
    """
    DROP INDEX IF EXISTS hand_spans_ended
    """,
    # 22: the hands' figures in one B-tree ordered by chat and end time, where the key by table and hand and the index
    # by chat were two more B-trees ordered by table that each hand's end wrote a page of
    figures_by_chat_and_time,
    # 23: a span's end has its time, and the pruning takes spans in the order they ended: the index it reads them by
    # is written at its end, where keyed by when hands began each hand's end wrote a page of its own
    spans_by_their_end,
    # 24: on SQLite the accounts in one B-tree keyed by their names, so that a hand's end writes its table's stacks'
    # balances on one page
    accounts_by_name,
    # 25: a hand's figures marked when it was a tournament's: the statistics' chips are the cash games' alone
    figures_know_tournament_hands,
    # 26: old table messages waiting to lose their buttons (`OldMessage`, through `bot.store.platform`): written when
    # the table moves on to a new message (with the new one, in its transaction), deleted once the adapter retired
    # the old one or gave up on it, so a retirement still waiting when the process stops is sent after its restart.
    # By the place's chat (a Telegram group, a Discord guild) and the message id, unique there; text columns for the
    # place, which `rekey_chat` renames with its chat. IF NOT EXISTS: a database set back to an older version to run
    # an older migration again (as the tests of the migrations do) runs this one over the table it has
    """
    CREATE TABLE IF NOT EXISTS retiring_messages (
        platform   TEXT NOT NULL,
        chat_id    TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        table_id   TEXT NOT NULL,
        text       TEXT,
        photo      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (platform, chat_id, message_id)
    ) WITHOUT ROWID
    """,
    # 27: each player's label in his chat ("Ann (2)": `players.label`), given when he arrives or renames himself, so
    # that two players of one chat with one display name read apart
    label_players,
    # 28: the instant of the bot's last clean stop (one row), from which start-up measures the downtime a tournament's
    # rebuy period and first break lost (`bot.store.downtime`)
    """
    CREATE TABLE IF NOT EXISTS stops (
        at REAL NOT NULL
    )
    """,
    # 29: Telegram forum topics that refused the bot a post (an administrator closed them): their tables stay paused
    # until the topic itself is heard from, where a table paused because the bot was out of the group plays on once
    # the group is (only a supergroup has topics: no group upgrade renames these)
    """
    CREATE TABLE IF NOT EXISTS telegram_closed_topics (
        chat_id    INTEGER NOT NULL,
        topic      INTEGER NOT NULL,
        PRIMARY KEY (chat_id, topic)
    )
    """,
    # 30: which process holds each old table message waiting to lose its buttons, and when it last said so (a lease,
    # `bot.store.platform.claim_retiring`): with several processes on one database, each queues only its own, and
    # those of a process that stopped once its claim is stale, so no message is retired twice
    claims_on_retiring_messages,
    # 31: each process's heartbeat, and the process that armed each timer: a takeover counts a table's downtime from
    # its owner's last heartbeat when that is later than the table's last write (`bot.store.downtime.last_served`)
    heartbeats,
    # 32: who was dealt in each table's hand in play on Telegram (`bot.telegram.hints.Dealt`), written at the deal: the
    # table message's hint names those of them with no private chat with the bot, after a restart too. Only the hand
    # in play's rows are kept (a new hand's replace them); the table id is text, so `rekey_chat` renames it
    """
    CREATE TABLE IF NOT EXISTS telegram_dealt (
        table_id   TEXT NOT NULL,
        hand_key   TEXT NOT NULL,
        user_id    INTEGER NOT NULL,
        name       TEXT NOT NULL,
        PRIMARY KEY (table_id, user_id)
    )
    """,
    # 33: the platform language each player's last command came with (`players.locale`): what another player's
    # action tells him alone (his cards at a deal) is in it, as what his own actions answer him is
    locale_of_players,
    # 34: the chips of tournament hands pruned before 25 out of the pruned statistics' net and biggest pot, worked out
    # again from the ledger's moves of the pruned cash hands (`bot.store.pruned_tournaments`)
    tournament_chips_out_of_pruned_stats,
    # 35: the pruned statistics kept by the UTC day their hands ended on, so that `/stats 30d` counts those pruned in
    # its days; the rows pruned before, their day unknown, count in the statistics of all time only
    pruned_stats_by_day,
    # 36: the public texts a paused table's chat missed (the bot could not post there), the last few kept in order
    # until whichever process lifts the pause takes them to post before the table (`bot.store.pauses`): kept in
    # memory before, a restart or another process's resume lost them
    """
    CREATE TABLE IF NOT EXISTS missed_texts (
        table_id  TEXT NOT NULL,
        seq       INTEGER NOT NULL,
        line      TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    )
    """,
    # 37: what each table's current message is left reading once the table moves on to a new one
    # (`PostedMessage.retired`): kept in the adapter's memory only before, the seats between hands shown when the bot
    # stopped were retired after the restart still saying "… or press Deal."
    retired_texts_of_table_messages,
]

REBUILDS: frozenset[Migration] = frozenset({accounts_by_name})
"""Migrations that replace a table other tables' rows refer to (create, copy, drop, rename): on SQLite they run with
its foreign keys off, which only a connection outside a transaction can turn off, and checked before the commit."""


def migrate(connection: Connection, dialect: Dialect = SQLITE) -> int:
    """Apply every migration not yet applied, each in its own transaction; return the schema version."""
    version = dialect.schema_version(connection)
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        rebuilds = script in REBUILDS and not dialect.is_shared
        if rebuilds:
            connection.execute("PRAGMA foreign_keys = OFF")
        try:
            connection.execute(dialect.begin_write)
            if callable(script):
                script(connection, dialect)
            else:
                for statement in script.split(";"):
                    if statement.strip():
                        connection.execute(dialect.ddl(statement))
            if rebuilds and (broken := connection.execute("PRAGMA foreign_key_check").fetchone()) is not None:
                raise RuntimeError(f"migration {number} left a row referring to nothing: {tuple(broken)}")
            dialect.set_schema_version(connection, number)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        finally:
            if rebuilds:
                connection.execute("PRAGMA foreign_keys = ON")
        version = number
    return version
