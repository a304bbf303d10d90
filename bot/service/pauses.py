"""Pausing tables whose channel the bot cannot reach: their timers held (the pause stored, so it survives a restart)
and their play refused until play resumes, each timer then given back the time it had left.

Such a table plays nothing while paused, whatever still reaches it (a button in a closed Telegram forum topic works
where the bot may not post): its players can see nothing it would say, and a tournament gets back, when play resumes,
the time the pause took (`resume_play`), so nothing may have been played meanwhile. RULES.md speaks only of the
organizer's pause of the tournament clock (`/tournament pause`, `bot.games.tournament`), which is another thing: there
the table is in view, the hand in play is finished and no new hand is dealt, as in a card room when the clock stops.
Here the hand in play waits as it is, as a card room's table waits when its dealer is called away: nobody acts, deals,
sits down or leaves, buys or cashes chips, and no setting changes (`waits_for_resume`); what only reads (the table,
the clock, the tournament's status, one's cards, statistics, help) and `/lang` are answered as ever.

With several processes on one database (PostgreSQL) any of them may pause a table or lift its pause, so none of them
takes its own memory's word for it: an action reads it under the table's lock (`Tx.lock_table`), and a command is
refused (`refuse_while_paused`) or a timer held there; pausing and resuming ask the database, not memory; the watch
loop keeps each process's memory of the pauses (`Service.is_paused`, which the adapters ask) up to date
(`learn_pauses`). The process that lifts a pause arms the table's timers (moved on; of two lifting it at once, the one
whose transaction took the pause's row, `resume_tables`); the others, whose copies fired while it was paused, were
held and forgotten. On SQLite, one process, the service's memory is the truth.

So a process's memory may be wrong for `WATCH_SECONDS` after another process paused a table or lifted its pause, and its
adapters show nothing wrong meanwhile: a command or press they pass on for a table just paused elsewhere is refused
under its row lock as the process that paused it would refuse it (the player told the table is paused, in his language;
no chip moves, no text or table message for the chat), its timers are held there too, and a table held as paused after
another process resumed it is resumed again for nothing (and shown again as it stands). A sign in that window that the
chat is reachable is not lost: the first from a chat since the start resumes the tables the database holds paused
(Telegram's `Reach.back_in_group`, the group's; Discord's `_play_on`, the channel's), and a sign taken for nothing new
(a chat heard from already, its table not known paused: no read of the database at every message or press) lifts the
pause once the watch's next look learns it (`Service.on_paused_elsewhere`: the adapter notes when it last heard from
each chat, topic or channel, and resumes the tables paused before that).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

from bot import commands as cmd
from bot.games.context import Action
from bot.i18n import text
from bot.output import Actor, Place, Reply
from bot.scheduler import APPOINTMENT, Scheduler
from bot.service.action_log import is_logged
from bot.service.language import LanguageOf
from bot.service.presses import StalePress
from bot.service.startup import stamp_downtime
from bot.store import Store, Tx
from bot.store.pauses import keep_missed, pause_tables, resume_tables

KEPT_TEXTS = 5
"""How many of a paused table's public texts its chat missed are kept to post when it plays on: the last ones (a
hand's result, a level's announcement); a table paused for long is shown again as it stands anyway."""
RESUME_GRACE_SECONDS = 30.0
"""The least time a timer of a table gets when play resumes after a pause (nobody times out at once)."""
PAUSED_REFUSAL = "table.paused"
"""The answer to a command a paused table refuses (`waits_for_resume`)."""
_ANSWERED = (cmd.Table, cmd.Cards, cmd.Clock, cmd.Lang, cmd.Export)
"""Commands a paused table answers as ever, besides those that change nothing (`is_logged`): they play nothing."""
_TOURNAMENT_READS = frozenset({"status", "clock"})
"""The `/tournament` subcommands that only read (so does `redeem` without an item: the player's items)."""


def waits_for_resume(command: cmd.Command) -> bool:
    """Whether a paused table refuses `command` until play resumes (the module says why): all but what only reads and
    `/lang`."""
    if not is_logged(command) or isinstance(command, _ANSWERED):
        return False
    if isinstance(command, cmd.Tournament):
        return command.action not in _TOURNAMENT_READS and not (command.action == "redeem"
                                                                 and not command.argument.strip())
    return True


class RefusedWhilePaused(StalePress):
    """A command refused because its table is paused, before the game saw it: the live table stays in memory, as
    for a stale press (a storm of presses on a paused table costs no reload)."""


Start = Callable[[Place, Actor, cmd.Command, cmd.Pressed | None], Awaitable[Reply]]
"""`Service._start`: a command run on its table (its actor already cleaned)."""


async def run_unless_paused(paused: dict[str, float], private_language_of: LanguageOf, start: Start, place: Place,
                            actor: Actor, command: cmd.Command, pressed: cmd.Pressed | None) -> Reply:
    """A command a paused table does not take (`waits_for_resume`): refused in the actor's language, nothing
    applied, while the table is paused when it is awaited (an adapter may resume the table first: the Discord
    adapter's `_play_on`); run as ever otherwise. One process on the database (SQLite): its memory of the pauses
    (`paused`) is the truth."""
    if place.table_id in paused:
        return Reply(error=text(await private_language_of(place, actor), PAUSED_REFUSAL))
    return await start(place, actor, command, pressed)


def refuse_while_paused(act: Action) -> None:
    """With several processes on one database: refuse the command (`waits_for_resume`'s) in the actor's language
    when its table was paused as the action locked its row, whichever process paused it."""
    if act.place.table_id in act.tx.locked_paused:
        with act.privately(act.actor.user_id if act.actor else None):
            raise RefusedWhilePaused(act.t(PAUSED_REFUSAL))


async def pause_play(store: Store, scheduler: Scheduler, paused: dict[str, float], table_ids: list[str],
                     now: float, missed: Mapping[str, Sequence[str]]) -> None:
    """Hold tables as of `now` (`paused`: the service's paused tables and since when): no timer fires (no time-out,
    no new hand, no clock announcement), a hand in progress waits as it is. Pausing a paused table changes nothing
    but the texts kept. With several processes, the database says which tables are paused already (another process
    may have paused or resumed them since this one last looked).

    `missed`: the public texts dropped for these tables (oldest first), kept in the same transaction, the last
    `KEPT_TEXTS` of each, for whichever process lifts the pause to post (`resume_play`): stored, not in memory, so a
    restart or another process's resume posts them too. Texts are dropped only for a table that is paused, or
    pausing: it plays nothing, so this write is on no action's path."""
    fresh = table_ids if store.dialect.is_shared else [table_id for table_id in table_ids if table_id not in paused]
    kept = {table_id: lines for table_id, lines in missed.items() if lines and table_id in table_ids}
    if not fresh and not kept:
        return

    def write(tx: Tx) -> None:
        pause_tables(tx, fresh)
        keep_missed(tx, kept, KEPT_TEXTS)

    await store.transact(write, now=now)
    for table_id in fresh:
        paused.setdefault(table_id, now)
    for timer in scheduler.armed:  # the store keeps them; `resume_play` arms them again
        if timer.table_id in paused:
            scheduler.disarm(timer.key)


async def resume_play(store: Store, scheduler: Scheduler, paused: dict[str, float], table_ids: list[str],
                      now: float) -> dict[str, list[str]]:
    """Lift a pause as of `now`: each timer of the table gets back the time it had left when the table paused (at
    least `RESUME_GRACE_SECONDS`), so play goes on where it stopped. Resuming a table not paused changes nothing.

    The tournament clock's appointments keep their instants: its levels and breaks run by the wall clock, a pause or
    not. One that fell due during the pause fires at once, carrying when the pause began (`DOWN_SINCE`, with
    `BY_PAUSE`: the players are told the table was paused, not that the bot was offline): RULES.md is
    silent, and as a card room gives back the time a table could not play, the players, who could neither see the
    table nor act, get back what the pause took as they would after the bot's downtime (a rebuy period cut short,
    a missed break's add-ons; `bot.games.tournament_play.on_clock`).

    With several processes, the database says which tables are paused and since when (another process may have
    paused them), and this process arms their timers: those the others held while the table was paused are gone
    from their schedulers. Returns the tables whose pause this call lifted, each with the public texts its chat
    missed (`pause_play`), oldest first, taken in the transaction that lifted it: of two processes lifting it at
    once, only that one posts them."""
    held = table_ids if store.dialect.is_shared else [table_id for table_id in table_ids if table_id in paused]
    if not held:
        return {}
    since, moved, missed = await store.transact(
        lambda tx: resume_tables(tx, held, RESUME_GRACE_SECONDS, lambda payload: bool(payload.get(APPOINTMENT))),
        now=now)
    for table_id in held:
        paused.pop(table_id, None)
    for key, table_id, due_at, payload in moved:
        scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, since[table_id], now, paused=True))
    return missed


def learn_pauses(paused: dict[str, float], before: dict[str, float], stored: dict[str, float]) -> dict[str, float]:
    """With several processes: take into `paused` (this process's memory of the pauses) the paused tables the
    database holds (`stored`), but for those this process paused or resumed itself while they were read (changed
    since `before`, a copy made before the read): its own change is newer. Returns the pauses learned (table: since
    when): those another process made that this one did not know."""
    learned: dict[str, float] = {}
    for table_id in before.keys() | stored.keys():
        if paused.get(table_id) != before.get(table_id):
            continue
        if table_id in stored:
            if table_id not in paused:
                learned[table_id] = stored[table_id]
            paused[table_id] = stored[table_id]
        else:
            paused.pop(table_id, None)
    return learned
