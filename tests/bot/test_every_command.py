"""Every command in every place: each command the parser knows, with no argument, a good one and bad ones, typed in
each game and each phase of a tournament, in English and in Russian, by the player to act, a player out of turn and
one not seated. The answer is the command's effect or a short reason in the chat's language, never nothing, a
traceback or an internal name; a refusal moves no chip and changes nothing the table stores."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import commands as cmd
from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE
from tests.bot.helpers import SIX_PM, all_text, at, night_registered, play, play_out, started_service

SEATED = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
GOOD: dict[str, tuple[str, str]] = {
    "help": ("{}", "join"), "join": ("{}", "200"), "back": ("{}", "post"), "game": ("{}", "texas"),
    "set": ("level {}", "40"), "grant": ("Bob {}", "50"), "bet": ("{}", "20"), "raise": ("{}", "40"),
    "straddle": ("{}", "off"), "pre": ("call {}", "20"), "pawn": ("{}", "jacket"), "automuck": ("{}", "off"),
    "run": ("{}", "once"), "ante": ("{}", "10"), "exchange": ("{}", "1"), "select": ("{}", "1"),
    "tournament": ("minutes {}", "+5"), "clock": ("{}", "tv"), "lang": ("{}", "ru me"), "history": ("{}", "5"),
    "stats": ("Ann {}", "30d"), "season": ("start {}", "Spring"), "export": ("tournament {}", "1"),
    "addbot": ("{}", "Robo"),
}
"""Each command that takes an argument: where the argument goes (`{}`) and a good one."""
ARGUMENTS = {"good": None, "negative": "-5", "zero": "0", "huge": "9" * 5000, "word": "banana"}
"""The arguments each command is typed with (besides none and extra ones); `good` is the command's own (`GOOD`)."""


def lines_of(command: type[cmd.Command]) -> list[str]:
    """The lines a command is typed as: bare, with each of `ARGUMENTS` in its place, and with extra words."""
    template, good = GOOD.get(command.name, ("{}", ""))
    typed = [f"/{command.name}"]
    for argument in ARGUMENTS.values():
        typed.append(f"/{command.name} " + template.format(good if argument is None else argument))
    typed.append(f"/{command.name} " + template.format(f"{good} 7 7").strip())
    return list(dict.fromkeys(line.strip() for line in typed))


LINES = [line for command in cmd.COMMANDS for line in lines_of(command)]


# --- the places ------------------------------------------------------------------------------------------------

async def house_round(service: Service, clock: FakeClock, game: str) -> None:
    """A house table of `game`, Ann, Bob and Cat with an ANTE of 10 each, the round dealt."""
    await play(service, (ANN, f"/game {game}"), *[(actor, "/ante 10") for actor in SEATED.values()], (ANN, "/deal"))


async def cash_hand(service: Service, clock: FakeClock) -> None:
    """A Hold'em cash table, Ann, Bob and Cat seated with 200 each, the first hand dealt."""
    await play(service, *[(actor, "/join 200") for actor in SEATED.values()], (ANN, "/deal"))


async def registering(service: Service, clock: FakeClock) -> None:
    """Ann's home-night tournament at six, Ann, Bob and Cat registered, not started."""
    await night_registered(service, SEATED.values(), structure=None)


async def running(service: Service, clock: FakeClock) -> None:
    """The tournament started: its first hand dealt."""
    await registering(service, clock)
    await play(service, (ANN, "/tournament start"))


async def first_hand_played(service: Service, clock: FakeClock) -> None:
    """The tournament's first hand played out, everyone folding to the big blind."""
    await running(service, clock)
    await play_out(service, PLACE, SEATED, await service.handle(PLACE, ANN, "/table"), ("fold", "check"))


async def on_break(service: Service, clock: FakeClock) -> None:
    """The tournament's clock at its break (19:00) after the first hand: no hand is dealt until 20:00."""
    await first_hand_played(service, clock)
    clock.current = at(19, 0, 1)
    await service.scheduler.fire_due()


async def finished(service: Service, clock: FakeClock) -> None:
    """The tournament closed by Ann after its first hand."""
    await first_hand_played(service, clock)
    await play(service, (ANN, "/tournament close"))


PLACES: dict[str, Callable[[Service, FakeClock], Awaitable[None]]] = {
    "holdem cash": cash_hand, "tournament registering": registering, "tournament running": running,
    "tournament on a break": on_break, "tournament finished": finished,
    **{game: lambda service, clock, game=game: house_round(service, clock, game)
       for game in ("texas", "russian", "caribbean", "three-card")},
}


# --- what an answer must be -------------------------------------------------------------------------------------

INTERNAL = re.compile(r"\b[a-z_]{2,}\.(?!csv\b)[a-z_]{2,}\b|\bNone\b|Traceback|\{'|<[\w.]+ object|\w+Error\b")
"""An internal name in a text: a message key (`holdem.straddle_off`), a Python repr, an exception's name (a file's
name, `ledger-2026-11-29.csv`, is no key)."""
ENGLISH = re.compile(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b")
"""Three lowercase Latin words in a row: an English phrase in a Russian chat (commands and their words aside)."""
COMMAND_WORDS = re.compile(r"/\w[\w-]*(?: (?:[a-z0-9+|-]+|\[[^\]]*\]))*")
"""A command with its English words, as a Russian usage or reason quotes it (`/set straddle on`)."""
SHORT = 400
"""The longest reason: a refusal says why in a sentence or two (the `/tournament` usage is the longest)."""
ENGLISH_BY_DESIGN = ("/history",)
"""What answers in English in every chat: the hand history is written in the PokerStars format."""


class Sweep:
    """One place's run: the bot on a copy of the place's database (`saved`), started again from it after each
    command that changed anything, and what it found wrong. Whether a command changed anything is SQLite's
    `data_version` as another connection reads it: it moves with every commit, so a refusal that leaves it where it
    was moved no chip and changed nothing stored (the table's snapshot, its log, a wallet)."""

    def __init__(self, saved: Path, now: float) -> None:
        self.saved = saved
        self.now = now
        self.problems: list[str] = []

    async def start(self, location: Path) -> None:
        """The bot started on a fresh copy of the place at `location`, at the place's time."""
        shutil.copy(self.saved, location)
        self.store = await Store.open(location)
        self.service = await started_service(self.store, FakeClock(self.now), seed=3)
        self.watcher = sqlite3.connect(location)
        self.version = self.committed()

    async def stop(self) -> None:
        """The bot stopped and its database let go (the next copy may then replace it)."""
        self.watcher.close()
        await self.store.close()

    def committed(self) -> int:
        """SQLite's count of the commits other connections made, as the watcher sees it."""
        return int(self.watcher.execute("PRAGMA data_version").fetchone()[0])

    async def check(self, case: str, actor: Actor, line: str, language: str) -> None:
        """`actor` types `line`: note what is wrong with the answer, and with the store after a refusal; after a
        change, the bot starts again on the place as it was."""
        reply = await self.service.handle(PLACE, actor, line)
        self.problems += [f"{case}: {problem}" for problem in answer_problems(reply, line, language)]
        if reply.error is not None and (reply.public or reply.table is not None or reply.private):
            self.problems.append(f"{case}: refused ({reply.error!r}) but said more")
        if self.committed() != self.version:
            if reply.error is not None:
                self.problems.append(f"{case}: refused ({reply.error!r}) but stored a change")
            self.problems += [f"{case}: the ledger: {problem}"
                              for problem in await self.store.read(lambda tx: tx.check_ledger())]
            location = self.store.location
            await self.stop()
            await self.start(location)


async def swept(tmp_path: Path, place: str, language: str) -> Sweep:
    """The place set up at six in the evening, the chat's language chosen and Dan known to the chat (his wallet
    made, as any first command of his makes it), its database saved to start again from."""
    clock = FakeClock(SIX_PM)
    store = await Store.open(tmp_path / "place.db")
    service = await started_service(store, clock, seed=3)
    await PLACES[place](service, clock)
    await play(service, (ANN, f"/lang {language}"), (DAN, "/balance"))
    await store.close()
    sweep = Sweep(tmp_path / "place.db", clock.current)
    await sweep.start(tmp_path / "bot.db")
    return sweep


def answer_problems(reply: Reply, line: str, language: str) -> list[str]:
    """What is wrong with a reply's texts: none at all, an internal name, a long reason, English in Russian."""
    texts = all_text([reply])
    problems = []
    if not texts:
        problems.append("no answer")
    for shown in texts:
        if internal := INTERNAL.search(shown):
            problems.append(f"internal name {internal[0]!r} in {shown[:120]!r}")
        russian = language == "ru" and not line.startswith(ENGLISH_BY_DESIGN)
        if russian and (english := ENGLISH.search(COMMAND_WORDS.sub("", shown))):
            problems.append(f"English {english[0]!r} in {shown[:120]!r}")
    if reply.error is not None and len(reply.error) > SHORT:
        problems.append(f"a reason of {len(reply.error)} characters")
    return problems


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("place", PLACES)
async def test_every_command_is_answered_and_a_refusal_changes_nothing(tmp_path: Path, place: str,
                                                                      language: str) -> None:
    sweep = await swept(tmp_path, place, language)
    view = await sweep.service.handle(PLACE, ANN, "/table")
    to_act = SEATED.get(view.table.to_act or "", ANN) if view.table else ANN
    actors = {"to act": to_act, "out of turn": next(a for a in SEATED.values() if a != to_act), "not seated": DAN}
    for line in LINES:
        for who, actor in actors.items():
            await sweep.check(f"{place}, {language}, {who}: {line[:40]}", actor, line, language)
    await sweep.stop()
    assert sweep.problems == []


@pytest.mark.parametrize(("reply", "language", "problems"), [
    (Reply(), "en", ["no answer"]),
    (Reply(error="holdem.no_hand"), "en", ["internal name 'holdem.no_hand' in 'holdem.no_hand'"]),
    (Reply(public=["Ann wins None."]), "en", ["internal name 'None' in 'Ann wins None.'"]),
    (Reply(error="It's not your turn: waiting for Ann."), "ru",
     ["English 'not your turn' in \"It's not your turn: waiting for Ann.\""]),
    (Reply(error="Стрэддлы за этим столом выключены (/set straddle on)."), "ru", []),
    (Reply(error="Usage: " + "x" * 400), "en", ["a reason of 407 characters"]),
])
def test_what_the_sweep_finds_wrong_in_an_answer(reply: Reply, language: str, problems: list[str]) -> None:
    assert answer_problems(reply, "/fold", language) == problems
