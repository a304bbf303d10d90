"""The terminal adapter: several named players share one keyboard at one table, for trying the bot locally."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.commands import whole_number
from bot.output import Actor, Button, Place, Reply, TableMessage
from bot.service import Service

log = logging.getLogger(__name__)

PLACE = Place("term:local", "term:local:table")

INTRO = """\
pokerbot at the terminal. Several players share this keyboard: write `name: command`, e.g.
  ann: /join      bob: /join      ann: /deal
After that, the prompt names whose turn it is; a line without a name is said by that player
(by whoever spoke last when nobody is to act).
Buttons are numbered: type the number to press one. /help lists the commands, /quit leaves.
Lines marked [table] are public; [private to ann] would only reach Ann on Discord or Telegram.
"""

_SPEAKER = re.compile(r"^\s*([A-Za-z][\w.-]{0,31})\s*:\s*(.*)$")
_QUIT = ("/quit", "/exit", "quit", "exit")


@dataclass
class TerminalAdapter:
    """Reads `name: command` lines, calls the service, and prints its replies with public and private marked."""

    service: Service
    out: TextIO = sys.stdout
    speaker: str | None = None
    """Who last wrote `name: …`."""
    to_act: str | None = None
    """The terminal player whose turn it is at the table (not a computer player), None when nobody must act."""
    buttons: list[Button] = field(default_factory=list)
    table: TableMessage | None = None
    files_dir: Path = Path(".")
    """Where files (hand-history exports) are written: next to the database."""

    def actor(self, name: str) -> Actor:
        """A terminal player: his name is his id."""
        return Actor(f"term:{name.lower()}", name[:1].upper() + name[1:])

    async def say(self, line: str) -> bool:
        """Handle one input line; return False when the user asked to quit."""
        line = line.strip()
        name = self.voice
        match = _SPEAKER.match(line)
        if match:
            name = self.speaker = match.group(1)
            line = match.group(2).strip()
        if not line:
            return True
        if line.lower() in _QUIT:  # `ann: /quit` too: leaving the keyboard is nobody's move
            return False
        if name is None:
            self.print("Who is speaking? Write `name: command`, e.g. `ann: /join`.")
            return True
        actor = self.actor(name)
        number = whole_number(line)
        if number is not None and 1 <= number <= len(self.buttons):
            button = self.buttons[number - 1]
            reply = await (self.service.view(PLACE, actor) if button.private
                           else self.service.press(PLACE, actor, button.payload))
        else:
            reply = await self.service.handle(PLACE, actor, line)  # the parser reads `raise 40` as `/raise 40`
        self.show(reply)
        return True

    def show(self, reply: Reply) -> None:
        """Print a reply: refusal, public lines, private lines, then the table with its numbered buttons."""
        if reply.error:
            self.print(f"[only you] {reply.error}")
        for message in reply.public:
            self.print(_indent("[table] ", message))
        for picture in reply.pictures:  # a terminal cannot show images: only say one was sent
            to = f"[private to {picture.to.removeprefix('term:')}] " if picture.to else "[table] "
            self.print(f"{to}[picture: {picture.caption}]")
        for user_id, messages in reply.private.items():
            name = user_id.removeprefix("term:")
            for message in messages:
                self.print(_indent(f"[private to {name}] ", message))
        for file in reply.files:
            path = self.files_dir / Path(file.name).name
            path.write_bytes(file.content)
            who = "table" if file.to is None else f"private to {file.to.removeprefix('term:')}"
            self.print(f"[{who}] file saved: {path}")
        if reply.table is not None:
            self.table = reply.table
            self.buttons = list(reply.table.buttons)
            self.print(_indent("[table] ", reply.table.text))
            if self.buttons:
                labels = "  ".join(f"({index}) {button.label}" for index, button in enumerate(self.buttons, 1))
                self.print(f"        {labels}")
            to_act = reply.table.to_act
            self.to_act = to_act.removeprefix("term:") if to_act and to_act.startswith("term:") else None

    async def announce(self, place: Place, reply: Reply) -> None:
        """Print what a timer caused (time-outs, the clock's announcements)."""
        self.print("")
        self.show(reply)
        self.print(self.prompt(), end="")

    @property
    def voice(self) -> str | None:
        """Who says a line written without a name: the player whose turn it is, else whoever spoke last."""
        return self.to_act or self.speaker

    def prompt(self) -> str:
        """The input prompt, naming who a line without a name is said by."""
        return f"{self.voice or '?'}> "

    def print(self, text: str, end: str = "\n") -> None:
        """Write to the terminal."""
        self.out.write(text + end)
        self.out.flush()


def _indent(prefix: str, text: str) -> str:
    pad = " " * len(prefix)
    lines = text.splitlines() or [""]
    return "\n".join([prefix + lines[0], *(pad + line if line else "" for line in lines[1:])])


async def run_terminal(service: Service, read_line: Callable[[str], str] = input, files_dir: Path = Path(".")) -> None:
    """Play at the terminal until end of input or /quit; files the bot sends are written to `files_dir`."""
    adapter = TerminalAdapter(service, files_dir=files_dir)
    service.subscribe("term:", adapter.announce)
    adapter.print(INTRO)
    while True:
        try:
            line = await asyncio.to_thread(read_line, adapter.prompt())
        except EOFError:
            break
        try:
            if not await adapter.say(line):
                break
        except Exception:  # a bug: the transaction rolled back, so say so and keep the table going
            log.exception("command %r failed", line)
            adapter.print("[only you] Something went wrong on our side; nothing changed.")
