"""Record what an action read from outside its table, so the action log can replay it after the last snapshot.

A table's state changes only through controllers, which see the world through the `Action`: the store (`act.tx`),
the random source (`act.rng`), the clock (`act.now`), the actor and the chat's settings. An action applied live
records every value the store and the random source gave it; replaying it hands the same values back in the same
order and writes nothing (its moves, events and timers are in the store already), so the controller takes
the same branches and leaves the same state, byte for byte.

In the compiled build (`bot/compiled.py`) the four stand-ins stay Python classes, their methods compiled
(`native_class=False`): a `Tx`'s stand-in answers any other method through `__getattr__` and keeps what it found as
its own attribute, and the random sources derive from `random.Random`, both of which a native class cannot.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, MutableSequence
from typing import Any

import orjson
from mypy_extensions import mypyc_attr

from bot.commands import Command
from bot.store.tx import LedgerRow

WRITES = frozenset({"move", "record", "summarise_hand", "settle_hand", "set_timer", "clear_timer", "log_timers",
                    "set_chat_settings", "change_chat_settings", "ensure_chat", "save_table", "save_table_json"})
"""`Tx` methods that only write (they return nothing): a replay skips them. Every other method is a read whose
result is recorded (a write that answers, like `save_tournament`, counts as a read: its answer is replayed and its
write is not done again)."""

SERVICE_ONLY = frozenset({"lock_table", "claim_timer"})
"""`Tx` methods the service calls around an action (the table's row lock, a due timer's claim), never a controller:
they are not part of what a replay gives back, so they are not recorded."""

_DECODE: dict[str, Callable[[Any], Any]] = {
    "ledger_rows": lambda rows: [LedgerRow(*row) for row in rows],
}
"""Results that JSON does not give back as they were."""


class ReplayError(Exception):
    """A logged action asked for something other than what it asked for live (the code or the log changed)."""


def state_json(value: Any) -> str:
    """JSON text of a table's config or state, live engine objects (`Hand`, a house round) written by `to_dict`."""
    return orjson.dumps(value, default=_plain_object, option=orjson.OPT_NON_STR_KEYS).decode()


def _plain_object(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if to_dict is None:
        raise TypeError(f"cannot store {type(value).__name__}")
    return to_dict()


def _fragment(value: Any) -> str:
    """The value as JSON text now (a later change to a returned dict must not change what was recorded)."""
    if isinstance(value, LedgerRow):
        value = [value.source, value.target, value.amount, value.reason, value.table_id, value.hand_id]
    elif isinstance(value, list) and value and isinstance(value[0], LedgerRow):
        return "[" + ",".join(_fragment(row) for row in value) + "]"
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


_IMMUTABLE = frozenset({str, int, float, bool, type(None)})
"""Results recorded as they are: nothing can change them later, and the log row writes them as they would be."""


def _kept(value: Any) -> Any:
    """A read's result as the record keeps it until the log row is written: as it is when nothing can change it (a
    name, a balance), else its JSON text now."""
    return value if type(value) in _IMMUTABLE else orjson.Fragment(_fragment(value))


@mypyc_attr(native_class=False)  # compiled, a Python class with compiled methods: see the module's docstring
class RecordingTx:
    """A `Tx` as a controller sees it during a live action: every call goes to the store, reads are recorded.

    The reads and writes of almost every action are here from the start (no lookup, nothing built per action); any
    other method is found once per action by `__getattr__`. What was read is written as JSON only when the action is
    kept as a log row (`reads_json`), not when it takes a snapshot."""

    def __init__(self, tx: Any) -> None:
        self._tx = tx
        self.reads: list[list[Any]] = []
        """Each read's method name and result (see `_kept`), in call order."""
        # the writes of almost every action, bound once (they are not recorded)
        self.move, self.record, self.log_timers, self.dialect = tx.move, tx.record, tx.log_timers, tx.dialect

    def player_name(self, chat_id: str, user_id: str) -> str:
        """`Tx.player_name`, recorded."""
        name: str = self._tx.player_name(chat_id, user_id)
        self.reads.append(["player_name", name])
        return name

    def balance(self, account: str) -> int:
        """`Tx.balance`, recorded."""
        chips: int = self._tx.balance(account)
        self.reads.append(["balance", chips])
        return chips

    def player_locale(self, chat_id: str, user_id: str) -> str | None:
        """`Tx.player_locale`, not recorded: it chooses only the language of what one player alone is told
        (`Action.language_of`), and a replay tells nobody anything (`ReplayTx.player_locale`)."""
        locale: str | None = self._tx.player_locale(chat_id, user_id)
        return locale

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._tx, name)
        if not callable(attribute):
            return attribute
        # `db` (raw SQL) is for commands that log no action: nothing of it is replayed
        unrecorded = name in WRITES or name in SERVICE_ONLY or name == "db"
        found = attribute if unrecorded else _recorded(self.reads, name, attribute)
        setattr(self, name, found)  # found here from now on: an action may call the same method again
        return found

    def reads_json(self) -> str:
        """The recorded reads as one JSON array."""
        return orjson.dumps(self.reads, option=orjson.OPT_NON_STR_KEYS).decode()


def _recorded(reads: list[list[Any]], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """`method`, its every result recorded in `reads` (a module function: compiled, mypyc cannot make a closure in a
    method of a Python class)."""

    def read(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        reads.append([name, _kept(result)])
        return result

    return read


ANSWERING_WRITES = frozenset({"save_tournament", "ensure_player"})
"""Reads that also write: a replay can only give back what they answered live, never ask the store again."""


@mypyc_attr(native_class=False)  # compiled, a Python class with compiled methods: see the module's docstring
class ReplayTx:
    """A `Tx` as a controller sees it during a replay: reads answer what they answered live, writes do nothing.

    When the code asks for something else than it did live (a new version of the bot replaying an older log: one
    more name shown, one fewer balance read), the replay asks `store` from then on for plain reads (a name or a
    balance as stored now); a read that also writes cannot be asked again, and raises `ReplayError`."""

    def __init__(self, reads: list[Any], store: Any = None) -> None:
        self._reads = iter(reads)
        self._store = store
        self._diverged = False

    def __getattr__(self, name: str) -> Any:
        if name in WRITES:
            return _nothing
        # a partial, not a closure kept on the replay: that would hold the replay in a reference cycle, and with it
        # the store's transaction, for a full collection to free (`bot.collector`)
        return functools.partial(self._read, name)

    def player_locale(self, chat_id: str, user_id: str) -> None:
        """None: what a replay would tell a player alone is told to nobody, so his language is not asked for (and
        was not recorded: `RecordingTx.player_locale`)."""
        return None

    def _read(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self._diverged:
            recorded = next(self._reads, None)
            if recorded is not None and recorded[0] == name:
                decode = _DECODE.get(name)
                return decode(recorded[1]) if decode is not None else recorded[1]
            self._diverged = True
        if self._store is None or name in ANSWERING_WRITES:
            raise ReplayError(f"the log holds no answer for {name}")
        return getattr(self._store, name)(*args, **kwargs)


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


@mypyc_attr(native_class=False)  # compiled, a Python class with compiled methods: see the module's docstring
class RecordingRandom(random.Random):
    """The service's random source as an action sees it: draws from `inner` (so a seeded test source deals as
    before) and records each outcome; a shuffle is recorded as the order it produced."""

    def __init__(self, inner: random.Random) -> None:  # no seeding: every draw comes from `inner`
        self._inner = inner
        self.draws: list[Any] = []

    def random(self) -> float:
        value = self._inner.random()
        self.draws.append(value)
        return value

    def getrandbits(self, k: int) -> int:
        value = self._inner.getrandbits(k)
        self.draws.append(str(value))  # may exceed 64 bits, which JSON numbers here do not
        return value

    def shuffle(self, x: MutableSequence[Any]) -> None:
        # the positions are shuffled, not the items: the same draws make the same order (a shuffle's swaps depend
        # only on the length), recorded without hashing each item (52 cards' `__hash__` in Python at every deal)
        order = list(range(len(x)))
        self._inner.shuffle(order)
        before = list(x)
        for position, taken in enumerate(order):
            x[position] = before[taken]
        self.draws.append(order)


@mypyc_attr(native_class=False)  # compiled, a Python class with compiled methods: see the module's docstring
class ReplayRandom(random.Random):
    """A random source that gives back what a `RecordingRandom` recorded."""

    def __init__(self, draws: list[Any]) -> None:
        self._draws = iter(draws)

    def _next(self) -> Any:
        try:
            return next(self._draws)
        except StopIteration:
            raise ReplayError("the log holds no more random draws") from None

    def random(self) -> float:
        return float(self._next())

    def getrandbits(self, k: int) -> int:
        return int(self._next())

    def shuffle(self, x: MutableSequence[Any]) -> None:
        before = list(x)
        x[:] = [before[position] for position in self._next()]


def command_entry(command: Command) -> dict[str, Any]:
    """A parsed command as the action log keeps it: its type and its fields."""
    kind = type(command)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(item.name for item in dataclasses.fields(command))
    entry: dict[str, Any] = {"t": kind.__name__}
    for name in names:
        entry[name] = getattr(command, name)
    return entry


_FIELD_NAMES: dict[type[Command], tuple[str, ...]] = {}
"""Each command type's fields, in order (asked for on every logged command)."""


def entry_command(entry: dict[str, Any]) -> Command:
    """The command `command_entry` wrote (lists back to the tuples the parser made); a field an older version did not
    write takes the value that version applied (`Command.logged_before`), not the default of a command typed now."""
    kind = _COMMAND_TYPES[entry["t"]]
    fields = {name: tuple(value) if isinstance(value, list) else value for name, value in entry.items() if name != "t"}
    if kind.logged_before:
        fields = {**kind.logged_before, **fields}
    return kind(**fields)


def _command_types() -> dict[str, type[Command]]:
    found: dict[str, type[Command]] = {}
    waiting: list[type[Command]] = [Command]
    while waiting:
        cls = waiting.pop()
        found[cls.__name__] = cls
        waiting += cls.__subclasses__()
    return found


_COMMAND_TYPES = _command_types()
