"""The action log: a live table and where its log stands, what an action's row holds, when a snapshot is due
instead, writing either, and replaying the rows on a snapshot (a table read back, or made live at start-up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, cast

import orjson

from bot import commands as cmd
from bot import history
from bot.games import Controller
from bot.games.context import Action
from bot.output import Actor, Place
from bot.replay import RecordingRandom, RecordingTx, ReplayRandom, ReplayTx, entry_command, state_json
from bot.store import Tx
from bot.store.snapshots import Snapshot
from bot.store.tx import HISTORY_ONLY, loads
from bot.store.view import TxView

SNAPSHOT_EVERY = 32
"""The most actions a table's log holds after its snapshot: a long hand gets a fresh snapshot this often (besides the
one at the end of every hand or round), so resuming it replays at most this many."""
TIMER_ROWS_EVERY = 32
"""On SQLite, how many of a table's actions a snapshot writes its timers into their rows after (`Tx.compact_timers`):
an action's timer changes go into its log row, so reading a table's timers (start-up, a firing's claim) goes over the
log rows written since, some `TIMER_ROWS_EVERY` to twice that at most."""

_UNLOGGED = (cmd.Help, cmd.Balance, cmd.Organizers, cmd.Odds, cmd.Top, cmd.History, cmd.Stats, cmd.Season)
"""Commands that leave the table's config and state as they were (a season lives in its own rows): nothing to
replay, so they log no action. A card toggle is logged: the marks it keeps are the table's state; so are a `/table`
and a "My cards" (`/cards`) that retell the story of a hand in play after the chat's `/lang` at another of its
tables (`Service._dispatch`: only then)."""


def is_logged(command: cmd.Command) -> bool:
    """Whether the command may change the table's config or state, so the action log keeps it for a replay
    (`/clock tv` only makes the page's token, in its own row)."""
    return not isinstance(command, _UNLOGGED) and not (isinstance(command, cmd.Clock) and command.tv)


class Dispatch(Protocol):
    """Applies a command to a table (`Service._dispatch`): a replayed action is dispatched as it was live."""

    def __call__(self, act: Action, controller: Controller, command: cmd.Command, pressed: cmd.Pressed | None,
                 answer: history.Answer | None) -> bool | None: ...


@dataclass
class LiveTable:
    """A table kept in memory between actions: its config and state with the engine objects alive in it (a `Hand`,
    a house round), and where its action log stands. Changed only under the table's lock; dropped whenever an
    action on it fails, so the next one loads it again from the store (snapshot + replay of the log)."""

    chat_id: str
    config: dict[str, Any]
    state: dict[str, Any]
    config_json: str
    """The config as the last snapshot stored it (a change of config takes a new snapshot)."""
    seq: int
    """The number of the table's last kept action."""
    snapshot_seq: int
    """The number of the last action the stored snapshot includes."""
    number: int
    """The table's last hand or round number (`Action.next_number`), written with its snapshots."""


def snapshot_due(live: LiveTable, config_json: str, key: str | None, now_key: str | None) -> bool:
    """Whether the action just applied to `live` (its number counted already) is kept as a snapshot rather than a
    log row: a hand or round started or ended (`key`, the one in play before the action, is not `now_key`), the
    table is between them, its config changed, or `SNAPSHOT_EVERY` actions have been logged since the last one."""
    return (config_json != live.config_json or now_key is None or now_key != key
            or live.seq - live.snapshot_seq >= SNAPSHOT_EVERY)


def log_entry(act: Action, entry: dict[str, Any], inputs: tuple[float, Actor | None, str, bool, bytes]
              ) -> dict[str, Any]:
    """A logged action's row, what replaying it needs: how to replay it (`entry`), the inputs it had live (its time,
    actor, language, organizer right and the chat's settings, as `Service._apply` took them before it ran), and the
    store's answers and random draws it recorded."""
    now, actor, language, is_organizer, settings = inputs
    return {
        "e": entry,
        "n": now,
        "a": None if actor is None else [actor.user_id, actor.name, actor.language, actor.is_admin],
        "l": language,
        "o": is_organizer,
        "s": orjson.Fragment(settings),
        "r": cast(RecordingTx, act.tx).reads,
        "d": cast(RecordingRandom, act.rng).draws,
    }


def keep(tx: Tx, table_id: str, live: LiveTable, act: Action, controller: Controller, entry: dict[str, Any] | None,
         inputs: tuple[float, Actor | None, str, bool, bytes], key: str | None, counted: bool) -> None:
    """Make an action applied to `live` durable (`Service._apply`'s last step): a snapshot when a hand or round
    starts (`counted`: its number was counted) or ends (`key`, the one in play before the action, changed), between
    them, after a change of config and every `SNAPSHOT_EVERY` actions; otherwise one row of the action log with what
    replaying it needs (`entry`). Either way the events it recorded and the moves of its hand go into its log row (the
    history and the ledger's record), which a snapshot's action writes only when there are some."""
    live.seq += 1
    config_json = state_json(act.config)
    # no `entry` only for an action that counted a number (a deal): a snapshot either way
    if counted or entry is None or snapshot_due(live, config_json, key, controller.current_key(act)):
        if tx.unlogged(table_id):  # first: a hand it begins is written with the snapshot (`Tx.log_action`)
            tx.log_action(table_id, live.seq, HISTORY_ONLY)
        tx.save_snapshot(table_id, live.chat_id, config_json, state_json(act.state), live.seq, live.number,
                         timers=live.seq // TIMER_ROWS_EVERY > live.snapshot_seq // TIMER_ROWS_EVERY)
        live.config_json, live.snapshot_seq = config_json, live.seq
        return
    tx.log_action(table_id, live.seq, orjson.dumps(log_entry(act, entry, inputs),
                                                   option=orjson.OPT_NON_STR_KEYS).decode())


def read_snapshot(tx: Tx, table_id: str, place: Place | None) -> LiveTable | None:
    """The table as its stored snapshot holds it (a new table is created for `place`; None for an unknown table
    without one)."""
    stored = tx.load_snapshot(table_id)
    if stored is None:
        if place is None:
            return None
        tx.ensure_chat(place.chat_id)
        tx.save_table_json(table_id, place.chat_id, "{}", "{}")  # stored before its first log row
        return LiveTable(place.chat_id, {}, {}, "{}", 0, 0, 0)
    chat_id, config_json, state_text, snapshot_seq, number = stored
    return LiveTable(chat_id, loads(config_json), loads(state_text or "{}"), config_json, snapshot_seq,
                     snapshot_seq, number)


def revived(snapshot: Snapshot, controllers: dict[str, Controller], default_game: str) -> LiveTable | None:
    """A stored table made live as its snapshot holds it, None when it does not read back (also for a game this
    version lacks: resuming it then says why)."""
    try:
        config, state = loads(snapshot.config), loads(snapshot.state)
        if not controllers[config.get("game", default_game)].revive(state):
            return None
    except Exception:  # whatever it is, resuming the table the full way voids it or logs why it cannot
        return None
    return LiveTable(snapshot.chat_id, config, state, snapshot.config, snapshot.seq, snapshot.seq,
                     snapshot.number)


def replay(tx: Tx, table_id: str, live: LiveTable, logged: dict[str, Any], controllers: dict[str, Controller],
           default_game: str, dispatch: Dispatch) -> None:
    """Apply one logged action again, with the answers and draws it had live; it writes nothing."""
    who = logged["a"]
    act = Action(
        tx=cast(TxView, ReplayTx(logged["r"], tx)),
        place=Place(live.chat_id, table_id),
        actor=None if who is None else Actor(who[0], who[1], who[2], who[3]),
        language=logged["l"],
        config=live.config,
        state=live.state,
        now=logged["n"],
        rng=ReplayRandom(logged["d"]),
        chat_settings=logged["s"],
        is_organizer=logged["o"],
        number=live.number,
        replaying=True,
    )
    act.config.setdefault("game", default_game)
    controller = controllers[act.config["game"]]
    entry = logged["e"]
    if entry["k"] == "c":
        dispatch(act, controller, entry_command(entry["c"]), None, None)
    elif entry["k"] == "t":
        controller.on_timer(act, entry["key"], entry["p"])
    else:
        controller.resume(act)
    live.config, live.state, live.number = act.config, act.state, act.number
