"""The service: one table per channel, actions serialised per table, applied and committed in one transaction."""

from __future__ import annotations

import asyncio
import functools
import random
from collections import defaultdict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson

from bot import commands as cmd
from bot import history
from bot.adapter_memory import AdapterMemory
from bot.clock import Clock
from bot.command_parser import parse, parse_payload
from bot.games import Controller, Exchanging, default_controllers
from bot.games.clock_page import ClockPageReading
from bot.games.context import Action, Refusal
from bot.games.general import GENERAL, Hosting
from bot.i18n import chat_language
from bot.output import Actor, Place, Reply
from bot.randomness import SecureRandom
from bot.render import story
from bot.render.picture_views import draw
from bot.replay import RecordingRandom, RecordingTx, command_entry, state_json
from bot.scheduler import Scheduler
from bot.service.action_log import LiveTable, is_logged, keep
from bot.service.chat_moves import move_chat, tables_of
from bot.service.clock_pages import clock_page
from bot.service.failures import cannot_save, short_of_chips
from bot.service.language import (
    TableGames,
    chat_language_at,
    parse_error_text,
    private_language_at,
    remembered_private_language,
)
from bot.service.listeners import Listener, Listeners
from bot.service.pauses import pause_play, refuse_while_paused, resume_play, run_unless_paused, waits_for_resume
from bot.service.players import cleaned, welcome
from bot.service.presses import StalePress, check_press
from bot.service.reads import READS, read_then_run
from bot.service.startup import show_tables_in_play, start_tables, stop_tables
from bot.service.stored_tables import load_table, stored_table
from bot.service.tables import Tables
from bot.service.takeover import WATCH_SECONDS, watch_timers
from bot.service.timers import fire_timer
from bot.store import CannotSave, InsufficientFunds, Store, Tx
from bot.store.tx import HISTORY_ONLY
from bot.store.view import TxView


@dataclass(frozen=True)
class ServiceSettings:
    """Application-wide defaults (from `.env`)."""

    starting_grant: int = 1000
    default_game: str = "holdem"
    web_url: str | None = None
    """Where players' browsers reach the clock pages (`/clock tv`); None when the bot serves none."""


class Service:
    """Maps each channel to its table and applies commands to it.

    Every action takes its table's lock (so one channel never waits for another), runs the whole change — the
    engine call, the balances, the timers, the action's log row (its events and its hand's chip moves: the history
    and the ledger's record) or a new snapshot — as one transaction in a group-committed batch, and returns what to
    show only after the commit.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        rng: random.Random | None = None,
        settings: ServiceSettings | None = None,
        controllers: dict[str, Controller] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or SecureRandom()
        self.settings = settings or ServiceSettings()
        self.controllers = controllers if controllers is not None else default_controllers()
        self.scheduler = Scheduler(clock, self._on_timer)
        self.memory = AdapterMemory(store, clock)
        """What the adapters keep across restarts (their table messages' ids): they never open the store."""
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._live: dict[str, LiveTable] = {}
        self._unreplayed: dict[str, LiveTable] = {}
        self._chats: dict[str, str] = {}
        self._listeners = Listeners()
        """The adapters' listeners, for replies no player asked for (and those caused before one subscribed)."""
        self._paused: dict[str, float] = {}
        self._shared = store.dialect.is_shared
        """Whether other processes share the database (PostgreSQL): they may pause a table or lift its pause."""
        self._watchers: list[Callable[[str], None]] = []
        self._paused_elsewhere: list[Callable[[dict[str, float]], None]] = []
        self._tables = Tables(self._locks, self._live, self._unreplayed, self._chats, self._paused)
        """The maps above for the parts off the action path (each described by `bot.service.tables.Tables`)."""

    # --- wiring -------------------------------------------------------------------------------------------

    def subscribe(self, prefix: str, listener: Listener) -> None:
        """Deliver timer-caused replies for tables whose id starts with `prefix` (one adapter each).

        Replies caused before this call for those tables (a hand voided at start-up, a timer that came due while
        the adapter was still connecting) are delivered to it now, in order, by a task of the running loop.
        """
        self._listeners.subscribe(prefix, listener)

    async def start(self) -> None:
        """Re-arm every stored timer, keep the stored tables in memory and void what cannot resume
        (`bot.service.startup.start_tables`); what resuming says goes to the table's chat like a timer's reply."""
        await start_tables(self.store, self.scheduler, self._tables, self.controllers, self.settings.default_game,
                           self._run, self._publish, self.clock.now())

    async def stop(self) -> None:
        """Before the store closes at a clean shutdown, once the adapters are stopped: a fresh snapshot of every
        table with actions logged after it (`bot.service.startup.stop_tables`), so the next start replays no log, and
        this process's claims on old table messages waiting to lose their buttons released
        (`AdapterMemory.release_retiring`), so the next process takes them at once."""
        await stop_tables(self.store, self.clock, self._tables, self._current)
        await self.memory.release_retiring()

    async def show_tables_in_play(self, prefix: str, *, per_second: float, exact: bool = False,
                                  seated: bool = False) -> None:
        """Hand the table message of every table of one platform (ids starting with `prefix`) with a hand or round
        in play to that platform's listener, at most `per_second` a second (`bot.service.startup.show_tables_in_play`):
        an adapter asks for it once it has subscribed after a start, and for one chat's tables (the chat's id and a
        colon as `prefix`), or with `exact` one table (its id as `prefix`), when a chat that refused the bot takes it
        back; with `seated`, a table with players seated between hands too, as `/table` draws it. Read only: nothing
        is logged or changed."""
        await show_tables_in_play(self.store, self._tables, self._run, self._publish, prefix, per_second=per_second,
                                  exact=exact, seated=seated)

    async def clock_page(self, token: str) -> ClockPageReading | None:
        """What a clock page's token opens now (the web server shows it), None for a token that opens nothing."""
        return await clock_page(self.store, self.clock, self._tables, self.stored_table, token)

    def watch(self, watcher: Callable[[str], None]) -> None:
        """Call `watcher(table_id)` after each committed action or timer of a table (the clock pages go live by it);
        it must only take note, quickly, without waiting."""
        self._watchers.append(watcher)

    def on_paused_elsewhere(self, listener: Callable[[dict[str, float]], None]) -> None:
        """With several processes on one database: call `listener(paused)` with the tables (and since when) the watch
        learns another process paused (`watch_timers`); it must only take note, quickly, without waiting."""
        self._paused_elsewhere.append(listener)

    # --- tables the platform cannot reach, chats that change id -------------------------------------------

    async def pause(self, table_ids: list[str], missed: Mapping[str, Sequence[str]] | None = None) -> None:
        """Hold tables whose channel the bot cannot reach (removed from the group, channel hidden): no timer fires,
        a hand in progress waits as it is (`bot.service.pauses.pause_play`); `missed`: the public texts dropped for
        them, kept (the last few) for `resume`. Stored, so a pause survives a restart; `resume` lifts it."""
        await pause_play(self.store, self.scheduler, self._paused, table_ids, self.clock.now(), missed or {})

    async def resume(self, table_ids: list[str]) -> dict[str, list[str]]:
        """Lift a pause: each timer of the table gets back the time it had left (`bot.service.pauses.resume_play`).
        With several processes on one database, whichever process paused it. Returns the tables resumed, each with
        the texts its chat missed (oldest first), for the adapter to post, once, before the table as it stands."""
        return await resume_play(self.store, self.scheduler, self._paused, table_ids, self.clock.now())

    def is_paused(self, table_id: str) -> bool:
        """Whether the table is paused (with several processes on one database, as the watch last read it: within
        `WATCH_SECONDS` of another process's pause or resume: what that shows, `bot.service.pauses`)."""
        return table_id in self._paused

    async def tables_of(self, chat_id: str) -> list[str]:
        """The ids of a chat's tables (a group's forum topics each have one)."""
        return await tables_of(self.store, chat_id)

    async def move_chat(self, old: str, new: str, also: Callable[[Tx], None] | None = None) -> bool:
        """A chat got a new id (a Telegram group upgraded to a supergroup): rename it, its tables, wallets, ledger
        accounts, history and timers in one transaction (`also` runs in it too: the adapter's own rows;
        `bot.service.chat_moves.move_chat`). False when there was nothing to move (unknown chat, or moved already)."""
        return await move_chat(self.store, self.clock, self.scheduler, self._tables, old, new, also)

    # --- entry points for adapters ------------------------------------------------------------------------

    def handle(self, place: Place, actor: Actor, message: str) -> Coroutine[Any, Any, Reply]:
        """Apply a chat command (`/raise 40`); unknown or malformed input gets a usage answer. The command is read
        now; what it does, when the returned coroutine is awaited (see `execute`)."""
        try:
            command = parse(message)
        except cmd.CommandError as error:
            return self._usage_reply(place, actor, error)
        return self.execute(place, actor, command)

    def press(self, place: Place, actor: Actor, payload: str) -> Coroutine[Any, Any, Reply]:
        """Apply a button press; a press on an older hand's message is answered and changes nothing. The payload is
        read now; what it does, when the returned coroutine is awaited (see `execute`)."""
        try:
            pressed = parse_payload(payload)
        except cmd.CommandError as error:
            return self._usage_reply(place, actor, error)
        return self.execute(place, actor, pressed.command, pressed=pressed)

    def execute(self, place: Place, actor: Actor, command: cmd.Command,
                pressed: cmd.Pressed | None = None) -> Coroutine[Any, Any, Reply]:
        """Apply a parsed command; `pressed` is the button it came from (its hand and decision).

        A plain function returning the table's run (`_run`), not a coroutine awaiting it: an action is then one
        coroutine rather than three nested ones, each made, resumed and traversed by the young collections while it
        waits for its batch. A read command (`/stats`, `/top`, `/history`) first reads on the store's read-only
        connection, outside the table's lock and the writer's thread (`bot.service.reads`); only its answer (names,
        wallets) is made in the table's transaction."""
        actor = cleaned(actor)
        if self._shared:  # another process may have paused the table: asked under its lock (`_dispatch_unless_paused`)
            return self._start(place, actor, command, pressed, waits_for_resume(command))
        if self._paused and waits_for_resume(command):  # some table is paused: perhaps this one, when it runs
            return run_unless_paused(self._paused, self.private_language_of, self._start, place, actor, command,
                                     pressed)
        return self._start(place, actor, command, pressed)

    def _start(self, place: Place, actor: Actor, command: cmd.Command, pressed: cmd.Pressed | None,
               unless_paused: bool = False) -> Coroutine[Any, Any, Reply]:
        """`execute`'s run of a command (`actor` already cleaned); `unless_paused`: refused if its table is paused
        when its row is locked (several processes on one database)."""
        read = READS.get(type(command))
        if read is not None:  # `/stats`, `/top`…: read first, outside the table's lock (`bot.service.reads`)
            return read_then_run(self.store, self.clock, self._run, self._dispatch, place, actor, command, pressed,
                                 read)
        entry = {"k": "c", "c": command_entry(command)} if is_logged(command) else None
        dispatch = self._dispatch_unless_paused if unless_paused else self._dispatch
        return self._run(place, actor, place.table_id,
                         functools.partial(dispatch, command=command, pressed=pressed, answer=None), entry)

    async def _usage_reply(self, place: Place, actor: Actor, error: cmd.CommandError) -> Reply:
        games = TableGames(self.store, self.controllers, self.settings.default_game, self._live)
        return Reply(error=await parse_error_text(games, place, actor, error))

    async def view(self, place: Place, actor: Actor) -> Reply:
        """The table message as it stands, and the actor's private view (for a "my cards" button)."""
        return await self.execute(place, actor, cmd.Cards())

    # --- the one path every change takes -------------------------------------------------------------------

    async def _run(
        self,
        place: Place | None,
        actor: Actor | None,
        table_id: str,
        body: Callable[[Action, Controller], bool | None],
        entry: dict[str, Any] | None = None,
    ) -> Reply:
        """Apply `body` to the live table in one transaction; `entry` says how to replay it (None: it changes no
        table state, so it is not logged). A body that returns False applied nothing (a timer found cleared or moved
        since it was armed, or stale): nothing is logged, since replaying `entry` would apply what it did not."""
        lock = self._locks[table_id]
        if actor is not None and lock.locked():  # perhaps a timer's job, holding the table while presses go first
            self.store.hurry(table_id)
        async with lock:
            # a partial of a method rather than closures: a job waits in the store's queue through a young collection,
            # and a closure's cells are so many more objects it traverses (see `bot.collector.before_batch`)
            job = functools.partial(self._apply, place, actor, table_id, body, entry)
            try:
                # a timer's action (no actor) waits behind the players' presses in a burst of due timers
                act, _ = await self.store.transact(job, now=self.clock.now(), background=actor is None,
                                                   holding=table_id, then=self._committed)
            except BaseException as error:  # the live objects may be half changed: the store holds the truth
                if not isinstance(error, StalePress):
                    self._live.pop(table_id, None)
                if isinstance(error, Refusal):
                    return Reply(error=error.message)
                if not isinstance(error, InsufficientFunds | CannotSave):
                    raise
                failed = error
            else:
                if act.drawings:  # drawn after the commit, off the database thread, so no other table waits on it
                    act.reply.pictures = await asyncio.to_thread(draw, act.drawings)
                return act.reply
        # answered out of the except block: compiled (mypyc), an await in the handler of an awaited error corrupts
        # the exception's state (`tests/test_compiled_awaits.py`)
        if isinstance(failed, InsufficientFunds):
            return await short_of_chips(self.private_language_of, place, actor)
        return await cannot_save(self.language, place, actor, table_id, failed)  # the disk is full or read-only

    def _committed(self, applied: tuple[Action, LiveTable]) -> None:
        """What follows `_apply`'s commit in this process, run by the store right after it (`Store.transact`'s
        `then`), so also when `_run`'s caller was cancelled meanwhile (an abandoned interaction, a shutdown): the
        table kept live, its watchers told, its timers armed or disarmed (else it would wait for ever)."""
        act, live = applied
        table_id = act.place.table_id
        self._live[table_id] = live
        self._chats[table_id] = live.chat_id
        for watcher in self._watchers:
            watcher(table_id)
        for change in act.timers:
            if change.due_at is None:
                self.scheduler.disarm(change.key)
            else:
                self.scheduler.arm(change.key, table_id, change.due_at, change.payload)

    def _apply(self, place: Place | None, actor: Actor | None, table_id: str,
               body: Callable[[Action, Controller], bool | None], entry: dict[str, Any] | None,
               tx: Tx) -> tuple[Action, LiveTable]:
        """`_run`'s job, in the store's transaction: `body` applied to the live table and kept
        (`bot.service.action_log.keep`). Whatever fails drops the live table (a refusal of a stale press changes
        nothing), so that the next run, which the store may make at once (PostgreSQL: the table was held), does not
        see a half changed table."""
        try:
            live = self._current(tx, table_id, place)
            assert live is not None, "a timer for a table that was never saved"
            act = self._open(tx, live, table_id, place, actor)
            controller = self.controllers[act.config["game"]]
            inputs = (act.now, act.actor, act.language, act.is_organizer, orjson.dumps(act.chat_settings))
            key = controller.current_key(act)
            applied = body(act, controller)
            act.store_timers()
            counted = act.number != live.number  # a hand or round was dealt: its number goes with the snapshot
            live.config, live.state, live.number = act.config, act.state, act.number
            if counted or (entry is not None and applied is not False):
                keep(tx, table_id, live, act, controller, entry, inputs, key, counted)
            elif tx.unlogged(table_id):  # events or moves of an action that changed no state: a row for them
                live.seq += 1
                tx.log_action(table_id, live.seq, HISTORY_ONLY)
            return act, live
        except BaseException as error:
            if not isinstance(error, StalePress):
                self._live.pop(table_id, None)
            raise

    def _current(self, tx: Tx, table_id: str, place: Place | None) -> LiveTable | None:
        """The table an action applies to: the live one, read from the store first when it is not in memory.

        With several processes on one database (PostgreSQL), the table's row is locked first (`Tx.lock_table`) and
        the live table is used only while its last action is still the stored table's last: when another process
        has acted on the table since, it is read again (its snapshot, then its log replayed)."""
        live = self._live.get(table_id)
        if not tx.dialect.is_shared:
            return live or load_table(tx, self._unreplayed, table_id, place, self.controllers,
                                      self.settings.default_game, self._dispatch)
        seq = tx.lock_table(table_id)
        if seq is None:
            if place is None:
                return None
            tx.create_table(table_id, place.chat_id)  # stored before its first log row
            seq = tx.lock_table(table_id)  # another process may have created it meanwhile: its row stands
        if live is None or live.seq != seq:
            live = load_table(tx, self._unreplayed, table_id, place, self.controllers, self.settings.default_game,
                              self._dispatch)
        return live

    def stored_table(self, tx: Tx, table_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """A table's config and state as a restart would resume them (its snapshot and the log replayed), as
        plain JSON values (`bot.service.stored_tables.stored_table`); None for an unknown table. For audits and tests:
        the service's own tables stay live."""
        return stored_table(tx, self._unreplayed, table_id, self.controllers, self.settings.default_game,
                            self._dispatch)

    def live_state(self, table_id: str) -> str | None:
        """The live table's config and state as JSON text (None when it is not in memory)."""
        live = self._live.get(table_id)
        return None if live is None else state_json([live.config, live.state])

    def exchange_positions(self, table_id: str) -> tuple[int, ...]:
        """The card positions `/exchange` may name at a table (`bot.games.Exchanging`), for an adapter's suggestions
        while a member types: read from its live game, without a transaction or the table's lock. A table not in
        memory (never played, or served by another process) may be of any game: those every game takes."""
        live = self._live.get(table_id)
        games = [self.controllers[live.config["game"]]] if live is not None else self.controllers.values()
        return tuple(sorted({position for game in games if isinstance(game, Exchanging)
                             for position in game.exchange_positions()}))

    def _open(self, tx: Tx, live: LiveTable, table_id: str, place: Place | None, actor: Actor | None) -> Action:
        """The action's view of the live table (its store reads and random draws recorded for the log)."""
        place = place or Place(live.chat_id, table_id)
        settings = tx.chat_settings(live.chat_id)
        # new, renamed, or come with another platform language
        if actor is not None and not tx.knows_player(live.chat_id, actor.user_id, actor.name, actor.language):
            welcome(tx, place, actor, self.settings.starting_grant)
            settings = tx.chat_settings(live.chat_id)
        live.config.setdefault("game", self.settings.default_game)
        language = chat_language(settings, actor.language if actor else None)
        organizers = settings.get("organizers", [])
        return Action(
            tx=cast(TxView, RecordingTx(tx)),
            place=place,
            actor=actor,
            language=language,
            config=live.config,
            state=live.state,
            now=self.clock.now(),
            rng=RecordingRandom(self.rng),
            chat_settings=settings,
            is_organizer=actor is not None and (actor.is_admin or actor.user_id in organizers),
            number=live.number,
        )

    async def language(self, place: Place | None, actor: Actor | None) -> str:
        """The language of what the chat reads at `place` (`bot.service.language.chat_language_at`);
        `private_language_of` for what only `actor` reads."""
        return await chat_language_at(self.store, place, actor)

    async def private_language_of(self, place: Place | None, actor: Actor | None) -> str:
        """The language of an answer only `actor` reads (`bot.service.language.private_language_at`)."""
        return await private_language_at(self.store, place, actor)

    def remembered_language(self, place: Place | None, actor: Actor) -> str:
        """The language of an answer only `actor` reads, from what is in memory alone
        (`bot.service.language.remembered_private_language`): for the apology for an error."""
        return remembered_private_language(self.store, place, actor)

    async def player_name(self, place: Place, user_id: str) -> str:
        """A player's display name in the place's chat (his id when the chat has never seen him)."""
        return await self.store.read(lambda tx: tx.player_name(place.chat_id, user_id))

    # --- commands every table understands -------------------------------------------------------------------

    def _dispatch(self, act: Action, controller: Controller, command: cmd.Command, pressed: cmd.Pressed | None,
                  answer: history.Answer | None) -> bool | None:
        """Apply the command to the table; False when it changed nothing that a replay must redo: a `/table` or a
        "My cards" (`/cards`) that retold no story (each is logged only after the chat's `/lang` at another table,
        when it retells one)."""
        if pressed is not None:
            check_press(act, controller, command, pressed)
        if answer is not None:
            answer(act)
            return None
        told = act.state.get(story.TOLD_IN)
        general = GENERAL.get(type(command))
        if general is not None:
            general(Hosting(tuple(self.controllers), self.settings.web_url), act, controller, command)
        else:
            controller.handle(act, command)
        if type(command) in _REDRAWS and act.state.get(story.TOLD_IN) == told:
            return False
        return None

    def _dispatch_unless_paused(self, act: Action, controller: Controller, command: cmd.Command,
                                pressed: cmd.Pressed | None, answer: history.Answer | None) -> bool | None:
        """`_dispatch`, for a command a paused table refuses, with several processes on one database: refused when
        the table is paused as its row is locked, whichever process paused it (`bot.service.pauses`)."""
        refuse_while_paused(act)
        return self._dispatch(act, controller, command, pressed, answer)

    def _on_timer(self, key: str, table_id: str, payload: dict[str, Any]) -> Coroutine[Any, Any, None]:
        """The scheduler's call when a timer comes due: its firing (`bot.service.timers.fire_timer`), returned
        rather than awaited, so a firing is one coroutine as before."""
        return fire_timer(self.scheduler, self.clock, self._paused, self._shared, self._run, self._publish, key,
                          table_id, payload)

    async def watch_timers(self, *, every: float = WATCH_SECONDS) -> None:
        """Forever: this process's heartbeat, and with several processes on one database (PostgreSQL) the timers
        another process armed and never fired armed here once they are overdue, and the tables other processes
        paused or resumed learned (`bot.service.takeover.watch_timers`)."""
        await watch_timers(self.store, self.clock, self.scheduler, self._paused, every, self._paused_elsewhere)

    async def _publish(self, table_id: str, reply: Reply) -> None:
        """Hand a reply no player asked for to the table's adapter, or keep it until that adapter subscribes."""
        if reply.refused or not (reply.public or reply.private or reply.table):
            return
        await self._listeners.publish(Place(self._chats[table_id], table_id), reply)


_REDRAWS = (cmd.Table, cmd.Cards)
"""Commands that draw the table again, logged only when they retold its story (`Service._dispatch`)."""
