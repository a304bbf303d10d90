"""What a game controller works with during one action: the open transaction, the table, and the reply."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from babel.lists import format_list

from bot.i18n import DEFAULT_LANGUAGE, catalogue, languages, message, own_language
from bot.output import Actor, Place, Reply, TableMessage
from bot.render import Narration, Voice
from bot.store import held_account, wallet_account
from bot.store.view import TxView
from engine.common import Event, Move, RuleError
from engine.reasons import LedgerReason
from engine.text import as_typed, inert, quote_input

UNREADABLE = (KeyError, ValueError, TypeError)
"""What reading back a stored hand or round (`from_dict`) raises when the snapshot no longer reads."""


def revive_into(state: dict[str, Any], field: str, load: Callable[[Any], object]) -> bool:
    """Read a stored state's hand or round (`state[field]`) back into its engine object through `load` (its
    `from_dict`), in place; False, the state unchanged, when it does not read back. What a controller's `revive`
    does to a snapshot."""
    stored = state.get(field)
    if not stored:
        return True
    try:
        state[field] = load(stored)
    except UNREADABLE:
        return False
    return True


def private_language(settings: dict[str, Any], user_id: str) -> str | None:
    """The language a player chose for what only he reads in this chat (`/lang ru me`, kept in the chat's settings
    as `private_languages`), None when he chose none."""
    chosen = settings.get("private_languages")
    language = chosen.get(user_id) if isinstance(chosen, dict) else None
    return language if isinstance(language, str) and language in languages() else None


def wrong_game_text(language: str, command: str, game: str) -> str:
    """The answer to another game's command (`/ante` at a Hold'em table): `/command` is not used in the table's
    `game`, both said in `language`."""
    return message(language, "wrong_game", {"command": command, "game": message(language, f"game.{game}", {})})


class Refusal(Exception):
    """A command refused with a reason for the actor; raising it rolls the whole action back."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


BOT_MARK = "🤖 "
"""What a computer player's display name starts with ("🤖 Robo"): a player may leave it out when he names one."""


@dataclass(slots=True)
class TimerChange:
    """A deadline to arm (due_at set) or disarm (due_at None) once the action commits."""

    key: str
    due_at: float | None
    payload: dict[str, Any] = field(default_factory=dict)

    # written out, not generated: see bot/compiled.py
    def __init__(self, key: str, due_at: float | None, payload: dict[str, Any] | None = None) -> None:
        self.key = key
        self.due_at = due_at
        self.payload = {} if payload is None else payload


@dataclass(slots=True)
class Names:
    """Players' display names as one action reads them: each read once from its transaction (and so recorded for its
    log), as it stands when the action first asks for it. What the action's voices name players with: kept apart
    from the action, so that a voice does not refer back to the action that holds it (see `Action.voice`).

    A name is shown `inert`: written into the bot's texts, a name like `@alice` or `/leave` is no mention or command
    (Telegram finds both in plain text); only the bot's own words are."""

    tx: TxView
    chat_id: str
    read: dict[str, str] = field(default_factory=dict, init=False)

    # written out, not generated: see bot/compiled.py
    def __init__(self, tx: TxView, chat_id: str) -> None:
        self.tx = tx
        self.chat_id = chat_id
        self.read = {}

    def __call__(self, user_id: str) -> str:
        """The player's display name."""
        name = self.read.get(user_id)
        if name is None:
            name = self.read[user_id] = inert(self.tx.player_name(self.chat_id, user_id))
        return name


@dataclass(slots=True)
class Action:
    """One command (or timer) being applied to one table inside one transaction.

    Controllers read and replace `config` and `state` (plain JSON-able dicts: the snapshot), move chips through
    `move`/`apply_moves` (each recorded in this transaction: a ledger row, or a hand's move in the action's log row),
    set deadlines through `arm`/`disarm` (their rows written when the body is done, `store_timers`), and describe the
    outcome through `say`, `tell` and `table`. If anything raises, the transaction rolls back and nothing the action
    did is kept.
    """

    tx: TxView
    place: Place
    actor: Actor | None
    language: str
    config: dict[str, Any]
    state: dict[str, Any]
    now: float
    rng: random.Random
    chat_settings: dict[str, Any]
    reply: Reply = field(default_factory=Reply, init=False)
    timers: list[TimerChange] = field(default_factory=list, init=False)
    """What `arm` and `disarm` asked, in order: stored by `store_timers`, given to the scheduler after the commit."""
    drawings: list[Any] = field(default_factory=list, init=False)
    """Pictures to draw once the action has committed (see `bot.render.picture_views.draw`)."""
    is_organizer: bool = False
    number: int = 0
    """The table's last hand or round number (`next_number` counts on from it; the service keeps what it reaches)."""
    replaying: bool = False
    """A logged action applied again to resume its table: its rows and timers are in the store and nobody reads what
    it says, so only its state is made (see `Service._replay`)."""
    _names: Names = field(init=False, repr=False)
    """Players' names read so far in this action (each is read, and recorded for the log, once)."""
    _voices: dict[str, Voice] = field(default_factory=dict, init=False, repr=False)
    """`voice` per language, made once."""

    # written out, not generated: see bot/compiled.py
    def __init__(self, tx: TxView, place: Place, actor: Actor | None, language: str, config: dict[str, Any],
                 state: dict[str, Any], now: float, rng: random.Random, chat_settings: dict[str, Any],
                 is_organizer: bool = False, number: int = 0, replaying: bool = False) -> None:
        self.tx = tx
        self.place = place
        self.actor = actor
        self.language = language
        self.config = config
        self.state = state
        self.now = now
        self.rng = rng
        self.chat_settings = chat_settings
        self.reply = Reply()
        self.timers = []
        self.drawings = []
        self.is_organizer = is_organizer
        self.number = number
        self.replaying = replaying
        self._names = Names(tx, place.chat_id)
        self._voices = {}

    # --- text ---------------------------------------------------------------------------------------------

    def t(self, key: str, /, **params: object) -> str:
        """A message in the chat's language."""
        return message(self.language, key, params)

    @property
    def voice(self) -> Voice:
        """What renderers write with: the language now in use (the reader's inside `privately`) and the players'
        names."""
        voice = self._voices.get(self.language)
        if voice is None:
            # its names through `Names`, not this action's bound method: that made a reference cycle per action, and
            # the actions of a batch outlive the young collections, so their garbage piled up for a full collection
            # (see `bot.collector.tune_collector`)
            voice = self._voices[self.language] = Voice(self.language, self._names)
        return voice

    def say(self, key: str, /, **params: object) -> None:
        """A public message for the channel."""
        if self.replaying:
            return
        self.reply.public.append(self.t(key, **params))

    def say_text(self, message: str) -> None:
        """A public message already rendered."""
        if message and not self.replaying:
            self.reply.public.append(message)

    def tell(self, user_id: str, key: str, /, **params: object) -> None:
        """A private message for one player, in his own language (`language_of`)."""
        if self.replaying:
            return
        # not through `privately`: a deal tells each player his cards, and a context manager costs a few µs a use
        self.reply.tell(user_id, message(self.language_of(user_id), key, params))

    def tell_narration(self, narration: Narration) -> list[str]:
        """Tell a narration's private messages (each in its reader's language) and say its notice; return its story
        lines, for the table message."""
        for told in narration.told:
            self.tell(told.player, told.key, **told.params)
        self.say_text(narration.notice)
        return narration.lines

    def language_of(self, user_id: str) -> str:
        """The language of what only `user_id` reads: his own choice (`/lang ru me`), else the chat's `/lang`, else
        his platform's (`own_language`: the actor's as he acts, another player's as his last command came with it),
        else the chat's."""
        chosen = private_language(self.chat_settings, user_id)
        if chosen is not None:
            return chosen
        if self.actor is not None and user_id == self.actor.user_id:
            return own_language(self.chat_settings, self.actor.language)
        locale = self.tx.player_locale(self.place.chat_id, user_id)
        return self.language if locale is None else own_language(self.chat_settings, locale)

    @contextmanager
    def privately(self, user_id: str | None) -> Iterator[None]:
        """Render in the language of what only `user_id` reads (see `language_of`) until the block ends; for a whole
        private answer whose parts are rendered before they are told."""
        chat_language = self.language
        if user_id is not None:
            self.language = self.language_of(user_id)
        try:
            yield
        finally:
            self.language = chat_language

    def refuse(self, key: str, /, **params: object) -> Refusal:
        """A refusal to raise: `raise act.refuse("not_seated")`; only the actor reads it, in his own language."""
        with self.privately(self.actor.user_id if self.actor else None):
            return Refusal(self.t(key, **params))

    def usage_refusal(self, command: str, usage_key: str) -> Refusal:
        """The refusal of `/command` typed with words it does not take: how to write it (the message `usage_key`),
        the pattern in the actor's language as the sentence around it."""
        with self.privately(self.actor.user_id if self.actor else None):
            return self.refuse("parse.usage", command=command, usage=self.t(usage_key))

    def wrong_game(self, command: str, game: str) -> Refusal:
        """The refusal of another game's command at this table, which plays `game` (see `wrong_game_text`)."""
        with self.privately(self.actor.user_id if self.actor else None):
            return Refusal(wrong_game_text(self.language, command, game))

    def rule_refusal(self, error: RuleError) -> Refusal:
        """An engine rule error as a refusal in the chat's language (the engine's English when untranslated).

        A range whose ends meet (`min == max`) reads better as one amount: `rule.<code>.exact` when there is one. A
        `stake` parameter names a stake line (`pairplus`), said by its label ("PAIRPLUS").
        """
        key = f"rule.{error.code}"
        if "min" in error.params and error.params["min"] == error.params.get("max") and f"{key}.exact" in catalogue(
                DEFAULT_LANGUAGE):
            key += ".exact"
        try:
            with self.privately(self.actor.user_id if self.actor else None):
                params = dict(error.params)
                if "stake" in params:
                    params["stake"] = self.t(f"stake.{params['stake']}")
                return Refusal(self.t(key, **params))
        except (KeyError, IndexError):
            return Refusal(error.message)

    def show_table(self, message: TableMessage | None) -> None:
        """Set the table message adapters should post or edit."""
        self.reply.table = message

    # --- who ----------------------------------------------------------------------------------------------

    @property
    def user(self) -> str:
        """The actor's id (commands always have one; timers do not)."""
        if self.actor is None:
            raise RuntimeError("this action has no actor")
        return self.actor.user_id

    def name(self, user_id: str) -> str:
        """A player's display name, as it stands when the action first asks for it (a name changes only before an
        action: `Service._open` stores a renamed actor's new name, `/addbot` a new bot's before it names him)."""
        return self._names(user_id)

    def written_name(self, user_id: str) -> str:
        """A player's display name as a file (an export) writes it: `name` without the word joiners that keep a chat
        from finding a mention or a command in it (see `Names`); programs read a file, not a chat client."""
        return as_typed(self.name(user_id))

    def player_named(self, name: str) -> str:
        """The id of the player of this chat a typed name means (his display name, a computer player's with or
        without its `BOT_MARK`, or his id), else a refusal: none is called that, or several are (they are listed as
        the chat shows them, "Ann (2) or Ann (3)": a shown name is one player's alone, and it finds him)."""
        name = as_typed(name)  # a name copied from the bot's text (see `Names`)
        found = (self.tx.find_players(self.place.chat_id, name)
                 or self.tx.find_players(self.place.chat_id, BOT_MARK + name.lstrip("@")))
        if not found:
            raise self.refuse("unknown_player", player=quote_input(name))
        if len(found) > 1:
            with self.privately(self.actor.user_id if self.actor else None):
                names = format_list([self.name(user_id) for user_id in found], style="or", locale=self.language)
                raise self.refuse("ambiguous_player", player=quote_input(name), names=names)
        return found[0]

    def organizers(self) -> list[str]:
        """The names of the chat's organizers (the chat's first player and those made organizers since; the
        platform's admins are organizers too without being listed)."""
        return [self.name(user_id) for user_id in self.chat_settings.get("organizers", [])]

    def require_organizer(self) -> None:
        """Refuse unless the actor organizes this chat, saying who does."""
        if not self.is_organizer:
            raise self.organizer_refusal("organizer_only")

    def organizer_refusal(self, key: str, /, **params: object) -> Refusal:
        """A refusal of something only organizers may do, naming them: `key` for one organizer, `key.several` for
        more, `key.unnamed` when none is listed (only the platform's admins)."""
        names = self.organizers()
        suffix = "" if len(names) == 1 else ".several" if names else ".unnamed"
        return self.refuse(key + suffix, names=", ".join(names), **params)

    # --- chips, history, timers -----------------------------------------------------------------------------

    def wallet(self, user_id: str) -> str:
        """A player's wallet account in this chat."""
        return wallet_account(self.place.chat_id, user_id)

    def held(self, user_id: str) -> str:
        """The account keeping, for this table's house round, the chips a player's boxes may still bet."""
        return held_account(self.place.table_id, user_id)

    def balance(self, account: str) -> int:
        """An account's balance inside this transaction."""
        return self.tx.balance(account)

    def move(self, source: str, target: str, amount: int, reason: LedgerReason, hand_id: str | None = None) -> None:
        """Move chips between two ledger accounts in this transaction; a move of a hand, round or tournament
        (`hand_id`) is recorded in the action's log row, the others in a ledger row."""
        self.tx.move(self.place.chat_id, source, target, amount, reason, table_id=self.place.table_id,
                     hand_id=hand_id, logged=hand_id is not None)

    def apply_moves(self, moves: Iterable[Move], account: Callable[[str], str], hand_id: str) -> None:
        """Write an engine's moves to the ledger, mapping its local account names with `account`."""
        if self.replaying:
            return
        for move in moves:
            if move.amount:
                self.move(account(move.source), account(move.target), move.amount, move.reason, hand_id)

    def next_number(self) -> int:
        """The number of the hand or round about to start: the table's counter, shared by every game it plays and
        never reset, so the number (and the `h…`/`r…` id built from it) names one hand for good. The service keeps it
        with the live table and writes it with the snapshot the hand's start takes (`Tx.save_snapshot`)."""
        self.number += 1
        return self.number

    def record(self, hand_id: str, events: Iterable[Event]) -> None:
        """Append events to the hand's or round's history (written in the action's log row)."""
        if self.replaying:
            return
        self.tx.record(self.place.table_id, hand_id, [event.to_dict() for event in events])

    def arm(self, key: str, seconds: float, **payload: Any) -> None:
        """Arm a timer `seconds` from now: stored with the action (`store_timers`), armed once it commits."""
        if self.replaying:
            return
        self.timers.append(TimerChange(key, self.now + seconds, payload))

    def disarm(self, key: str) -> None:
        """Disarm a timer: its row goes with the action (`store_timers`), its deadline once it commits."""
        if self.replaying:
            return
        self.timers.append(TimerChange(key, None))

    def store_timers(self) -> None:
        """Write the action's timers to its transaction, each key once, as the action left it: into its log row on a
        database of one process (`Tx.log_timers`), else into the timers' rows, where a key disarmed and armed again (a
        hand's end arming the next deal, a fired turn starting the time bank) has its row rewritten in place."""
        changes = self.timers
        if len(changes) > 1:  # most actions arm one timer
            changes = list({change.key: change for change in changes}.values())
        if changes and not self.tx.dialect.is_shared:
            self.tx.log_timers(self.place.table_id, [(change.key, change.due_at, change.payload) for change in changes])
            return
        for change in changes:
            if change.due_at is None:
                self.tx.clear_timer(change.key)
            else:
                self.tx.set_timer(change.key, self.place.table_id, change.due_at, change.payload)
