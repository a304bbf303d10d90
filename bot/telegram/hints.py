"""Telling players in a group to open a private chat with the bot: the whole hint once, then a short pointer."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from bot.adapter_memory import AdapterMemory
from bot.clock import Clock
from bot.telegram.memory import Memory
from bot.telegram.render import chat_and_topic, telegram_user_id

POINTER_SECONDS = 300.0
"""How often at most a player is pointed to the private chat in a group (by the hint, a pointer or the link his
`/start` there asks for): an answer only he may read is lost otherwise without a word, and a pointer at each of them
would fill the group (the hint's link followed by a pointer's seconds later, as a deal's and his next command's)."""
UNWRITTEN_SECONDS = 10.0
"""How long a process reads again the dealt-in record of a hand another process dealt, while it finds none (`Dealt`):
the dealing process writes it as it shows its deal, at once; one still missing this long after it was first found
missing never will be (that process stopped before writing it, or the database refused the write)."""
START_PAYLOAD = "cards"
"""What the private chat's deep link has Telegram send with `/start` when the player presses Start; a link given
in a table's chat names the table after it (`start_payload`)."""
_TABLE_PAYLOAD = re.compile(r"cards_(m?)(\d{1,19})(?:_(\d{1,10}))?")
"""`cards_m1001234_7`: the chat (`m` for a negative id: the payload allows only A-Z, a-z, 0-9, _ and -) and topic."""


def start_payload(table_id: str | None) -> str:
    """What the deep link given at the table asks `/start` for: the player's cards of that table (`cards` alone
    without one), within Telegram's 64 characters."""
    if table_id is None:
        return START_PAYLOAD
    chat_id, topic = chat_and_topic(table_id)
    sign = "m" if chat_id < 0 else ""
    return f"{START_PAYLOAD}_{sign}{abs(chat_id)}" + (f"_{topic}" if topic else "")


def table_of_payload(payload: str) -> tuple[int, int | None] | None:
    """The chat and topic a `/start` payload names (`start_payload`); None for `cards` alone or anything else."""
    found = _TABLE_PAYLOAD.fullmatch(payload)
    if found is None:
        return None
    sign, chat_id, topic = found.groups()
    return -int(chat_id) if sign else int(chat_id), int(topic) if topic else None


def start_link(username: str | None, table_id: str | None = None) -> str:
    """The deep link that opens the bot's private chat (`https://t.me/<bot>?start=cards_m1001234`): one tap, then
    Start, and the player's cards of the table it was given at come there."""
    return f"https://t.me/{username or ''}?start={start_payload(table_id)}"


class Hints:
    """Who is told what, of the players a reply could not reach privately (they never opened a private chat with
    the bot, or blocked it): in each chat, the whole hint the first time (kept across restarts, `Memory.hint_once`),
    after that a short pointer, each (the first too) `POINTER_SECONDS` at least after the one before (in memory:
    after a restart one may come sooner)."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory
        self._pointed: dict[tuple[int, int], float] = {}
        """(chat, user): when the user was last pointed to the private chat there."""

    async def due(self, chat_id: int, user_ids: list[str], now: float) -> tuple[list[str], list[str]]:
        """Of the players (service ids) a reply could not reach, those to give the hint and those to point to the
        private chat now (each recorded as told); the others were told lately."""
        hinted: list[str] = []
        pointed: list[str] = []
        for user_id in dict.fromkeys(user_ids):
            telegram_id = telegram_user_id(user_id)
            if telegram_id is None:
                continue
            if await self._memory.hint_once(chat_id, telegram_id):
                hinted.append(user_id)
                self._pointed[(chat_id, telegram_id)] = now  # the hint has the link: it counts as a pointer
            elif self.point(chat_id, telegram_id, now):
                pointed.append(user_id)
        return hinted, pointed

    def point(self, chat_id: int, telegram_id: int, now: float) -> bool:
        """Whether to point the player to the private chat in this chat now, whatever asked for it (a reply he could
        not be sent, his `/start` in the group): at most every `POINTER_SECONDS`, recorded as told if so."""
        if now - self._pointed.get((chat_id, telegram_id), -math.inf) < POINTER_SECONDS:
            return False
        self._forget_older_than(now - POINTER_SECONDS)
        self._pointed[(chat_id, telegram_id)] = now
        return True

    def _forget_older_than(self, moment: float) -> None:
        """Drop the pointers given before `moment` (they no longer hold a pointer back), so the record stays small."""
        self._pointed = {key: at for key, at in self._pointed.items() if at >= moment}


class Dealt:
    """Who was dealt in each table's hand in play: the players the bot told privately along with the hand's message
    (their cards), each by the name the table reads. The table message's hint names those of them with no private
    chat with the bot (`bot.telegram.render.table_text`). Kept across restarts by the service (`service.memory`),
    written when players are first told (at the deal), never at a mere action; with several processes on one
    database, read by the others once each, the first time they show the hand (a player's action through another
    process edits the table message: its hint keeps the names), and again while what they read was written before
    the dealing process wrote the hand's record (an action typed through them the instant after the deal), for
    `UNWRITTEN_SECONDS` at most: a record missing that long never comes (its dealer stopped before writing it, or the
    database refused the write), and each action of the hand would read it again for nothing."""

    def __init__(self, kept: AdapterMemory, clock: Clock) -> None:
        self._kept = kept
        self._clock = clock
        self._hands: dict[str, tuple[str, dict[int, str]]] = {}
        """Table id: the key of its hand (or round) in play, and its players dealt in (Telegram id: name)."""
        self._unwritten: dict[str, float] = {}
        """Tables whose hand in play was read before the process that dealt it wrote who it dealt in, and when that
        was first found: read again until `UNWRITTEN_SECONDS` after."""

    async def load(self) -> None:
        """Read what the service kept."""
        self._hands = await self._kept.dealt_in()

    async def unnamed(self, table_id: str, key: str, told: Iterable[int]) -> list[int]:
        """Of the players (Telegram ids) told privately with the hand's message, those not yet known as dealt in."""
        known = (await self._hand(table_id, key))[1]
        return [telegram_id for telegram_id in told if telegram_id not in known]

    async def record(self, table_id: str, key: str, names: dict[int, str]) -> tuple[tuple[int, str], ...]:
        """Add players dealt in the hand (a new key starts the table's record afresh); return them all with names.
        A record `unnamed` just read for the same hand is not read again."""
        hand = await self._hand(table_id, key, again=False)
        if names:
            hand[1].update(names)
            await self._kept.add_dealt_in(table_id, key, names)
        return tuple(hand[1].items())

    async def _hand(self, table_id: str, key: str, *, again: bool = True) -> tuple[str, dict[int, str]]:
        """The table's record for the hand `key`: the one in memory, with (the first time this process shows the
        hand) the one another process on the same database may have written as it dealt it, read once it is written
        and until then `again` each time, for `UNWRITTEN_SECONDS` at most (`AdapterMemory.dealt_in_hand`; nothing to
        read with one process)."""
        hand = self._hands.get(table_id)
        if hand is not None and hand[0] == key and not (again and self._awaited(table_id)):
            return hand
        kept = await self._kept.dealt_in_hand(table_id, key)
        if hand is None or hand[0] != key:
            hand = self._hands[table_id] = (key, {})
            self._unwritten.pop(table_id, None)  # an earlier hand's wait is over
        if kept is None:
            self._unwritten.setdefault(table_id, self._clock.now())
        else:
            self._unwritten.pop(table_id, None)
            hand[1].update(kept)
        return hand

    def _awaited(self, table_id: str) -> bool:
        """Whether the table's hand in play, found with no record, may still get one (`UNWRITTEN_SECONDS`)."""
        since = self._unwritten.get(table_id)
        return since is not None and self._clock.now() - since < UNWRITTEN_SECONDS

    def rekey(self, renamed: Callable[[str], str]) -> None:
        """What is in memory, after the service moved a chat with its tables (a group became a supergroup; the
        stored rows were renamed with it)."""
        self._hands = {renamed(table_id): hand for table_id, hand in self._hands.items()}
        self._unwritten = {renamed(table_id): since for table_id, since in self._unwritten.items()}
