"""The terminal adapter: several named players share one keyboard at one table, for trying the bot locally."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.command_parser import parse, whole_number
from bot.commands import Cards, Command, CommandError, Help
from bot.i18n import DEFAULT_LANGUAGE, text
from bot.output import Actor, Button, Picture, Place, Reply, TableMessage
from bot.service import Service
from bot.terminal_help import terminal_columns, wrap_help

log = logging.getLogger(__name__)

PLACE = Place("term:local", "term:local:table")

_SPEAKER = re.compile(r"^\s*([^\W\d_][\w.-]{0,31})\s*:\s*(.*)$")  # a name starts with a letter of any alphabet
_QUIT = ("/quit", "/exit", "quit", "exit")
SHOWN_AGAIN_PER_SECOND = 1000.0
"""`Service.show_tables_in_play`'s pace at a start: the terminal's one table has no platform's rate limit to keep."""


def _nothing_typed() -> str:
    """What a line reader that keeps no line of its own holds typed (`read_keyboard`: the terminal echoes it)."""
    return ""


@dataclass
class TerminalAdapter:
    """Reads `name: command` lines, calls the service, and prints its replies with public and private marked."""

    service: Service
    out: TextIO = field(default_factory=lambda: sys.stdout)
    """Where the terminal prints: standard output as it is when the adapter is made."""
    speaker: str | None = None
    """Who said the last line, named (`name: …`) or as the player to act; or who last wrote `name:` alone."""
    to_act: str | None = None
    """The terminal player whose turn it is at the table (not a computer player), None when nobody must act."""
    buttons: list[Button] = field(default_factory=list)
    table: TableMessage | None = None
    files_dir: Path = Path(".")
    """Where files (hand-history exports) are written: next to the database."""
    language: str = DEFAULT_LANGUAGE
    """The chat's language, for the terminal's own words (`[table]`, `[private to ann]`…): read after every
    command."""
    waiting: bool = False
    """Whether the prompt is shown and waits for a line: what a timer causes then goes below it, and the prompt again
    after it."""
    typed: Callable[[], str] = _nothing_typed
    """What the user has typed so far at the waiting prompt (readline's line buffer), drawn again after it: the line
    read ends with it."""
    names: dict[str, str] = field(default_factory=dict)
    """Each player's name as he first wrote it (`Bob`), by the name in lower case (his id's): the prompt and the
    private marks call him so, however he writes it later and though the table names whose turn it is by his id."""

    def actor(self, name: str) -> Actor:
        """A terminal player: his name is his id."""
        name = self.called(name)
        return Actor(f"term:{name.lower()}", name[:1].upper() + name[1:])

    def called(self, name: str) -> str:
        """What the terminal calls the player `name` (written in any case, or his id's): the name he first wrote."""
        return self.names.get(name.lower(), name)

    async def say(self, line: str) -> bool:
        """Handle one input line; return False when the user asked to quit."""
        line = line.strip()
        name = self.voice
        match = _SPEAKER.match(line)
        if match:
            name = self.speaker = match.group(1)
            self.names.setdefault(name.lower(), name)
            line = match.group(2).strip()
        if not line:
            return True
        self.speaker = name  # the player to act too, by a line without a name: when nobody is to act, he speaks on
        if line.lower() in _QUIT:  # `ann: /quit` too: leaving the keyboard is nobody's move
            return False
        word = line.split(maxsplit=1)[0]
        if word.lower() in _QUIT:  # `/quit now`: the terminal's own command takes nothing after it, and no name
            await self.say_quit_alone(word, None if name is None else self.actor(name))
            return True
        if name is None:  # the line typed, with a name, when it says something: `/help` at the start above all
            await self.read_language()
            says = whole_number(line) is not None or _command(line) is not None
            self.print(self.t("term.who", example=line if says else "/join"))
            return True
        actor = self.actor(name)
        number = whole_number(line)
        if number is not None and not 1 <= number <= len(self.buttons):  # a number is a button, never a command
            self.show(Reply(error=self.no_button(number)), to=actor.user_id)
            return True
        command = _command(line) if number is None else None
        if isinstance(command, Help) and f"/{command.topic}" in _QUIT:  # the terminal's own command
            self.show(Reply(private={actor.user_id: self.fitted([await self.quit_help(actor, alone=True)],
                                                                actor.user_id)}))
            return True
        if number is not None:
            button = self.buttons[number - 1]
            look = button.private
            reply = await (self.service.view(PLACE, actor) if look
                           else self.service.press(PLACE, actor, button.payload))
        else:
            look = isinstance(command, Cards)
            reply = await self.service.handle(PLACE, actor, line)  # the parser reads `raise 40` as `/raise 40`
        await self.read_language()  # `/lang ru` speaks Russian from its own answer on
        if look and reply.table is not None and reply.table == self.table:  # printed just above: the cards alone
            reply = dataclasses.replace(reply, table=None)
        if isinstance(command, Help) and reply.private.get(actor.user_id):
            private = await self.with_quit(reply.private, actor) if command.topic is None else reply.private
            private = {**private, actor.user_id: self.fitted(private[actor.user_id], actor.user_id)}
            reply = dataclasses.replace(reply, private=private)
        self.show(reply, to=actor.user_id)
        return True

    async def quit_help(self, actor: Actor, *, alone: bool) -> str:
        """/quit, the terminal's own command, as /help writes it for `actor` (in his help's language): alone, for
        `/help quit`, else as a line of the list."""
        language = await self.service.private_language_of(PLACE, actor)
        about = text(language, "term.about_quit")
        return text(language, "help.one", command="/quit", about=about) if alone else f"/quit — {about}"

    async def with_quit(self, private: dict[str, list[str]], actor: Actor) -> dict[str, list[str]]:
        """The private part of `/help`'s answer with /quit at the end of its list."""
        *told, commands = private[actor.user_id]
        return {**private, actor.user_id: [*told, f"{commands}\n{await self.quit_help(actor, alone=False)}"]}

    async def say_quit_alone(self, word: str, actor: Actor | None) -> None:
        """Answer `/quit` with words after it (`word`: the quit word as typed): type it alone to leave; privately in
        the player's language when he named himself, else to the keyboard in the chat's."""
        if actor is None:
            await self.read_language()
            self.print(self.t("term.quit_alone", command=word))
            return
        language = await self.service.private_language_of(PLACE, actor)
        self.show(Reply(error=text(language, "term.quit_alone", command=word)), to=actor.user_id)

    def fitted(self, messages: list[str], user_id: str) -> list[str]:
        """`/help`'s answer to `user_id` wrapped at the terminal's width, as printed after his private mark (the
        platforms' clients wrap their messages themselves)."""
        width = terminal_columns() - len(self.to(user_id))
        return [wrap_help(message, width) for message in messages]

    def show(self, reply: Reply, to: str | None = None) -> None:
        """Print a reply as a channel reads it (`Reply.around_table`): the refusal (marked private to `to`, the player
        who acted, else for "only you"), the public lines before the table, the private lines (a player's pictures
        first), the table with its numbered buttons, the public lines after it, the table's pictures, the files, and
        last what a hand's end brought about (a tournament's end, settlement)."""
        before, after, last = reply.around_table()
        if reply.error:
            self.print((self.to(to) if to is not None else f"{self.t('term.only_you')} ") + reply.error)
        told = reply.table.text if reply.table is not None else ""
        self.say_public(before, told)
        for user_id, messages in reply.private.items():
            for picture in reply.pictures:
                if picture.to == user_id:
                    self.show_picture(picture)
            for message in messages:
                self.print(_indent(self.to(user_id), message))
        if reply.table is not None:
            self.show_table(reply.table)
        self.say_public(after, told)
        for picture in reply.pictures:
            if picture.to is None or picture.to not in reply.private:
                self.show_picture(picture)
        for file in reply.files:
            path = self.files_dir / Path(file.name).name
            path.write_bytes(file.content)
            self.print(self.to(file.to) + self.t("term.file_saved", path=str(path)))
        self.say_public(last)

    def say_public(self, messages: list[str], told: str = "") -> None:
        """Print public messages, each marked for the table, but those the table message printed beside them tells
        line for line (`told`): a notice such as a showdown's, which on Discord and Telegram is a message of its own
        beside the table message edited in place, would read twice here."""
        for message in messages:
            if f"\n{message}\n" not in f"\n{told}\n":
                self.print(_indent(self.t("term.table") + " ", message))

    def show_picture(self, picture: Picture) -> None:
        """Say a picture was sent: a terminal cannot show images."""
        self.print(self.to(picture.to) + self.t("term.picture", caption=picture.caption))

    def show_table(self, table: TableMessage) -> None:
        """Print the table message and its numbered buttons, and learn from it whose turn it is."""
        self.table = table
        self.buttons = list(table.buttons)
        mark = self.t("term.table") + " "
        self.print(_indent(mark, table.text))
        if self.buttons:
            labels = "  ".join(f"({index}) {button.label}" for index, button in enumerate(self.buttons, 1))
            self.print(" " * len(mark) + labels)
        to_act = table.to_act
        self.to_act = to_act.removeprefix("term:") if to_act and to_act.startswith("term:") else None

    def no_button(self, number: int) -> str:
        """Why `number` pressed nothing: which numbers there are, or that no buttons are shown."""
        if not self.buttons:
            return self.t("term.no_buttons", number=number)
        return self.t("term.no_button", number=number, count=len(self.buttons))

    def to(self, user_id: str | None) -> str:
        """The mark of a line for the table (`user_id` None) or for one player, with the space after it."""
        if user_id is None:
            return self.t("term.table") + " "
        return self.t("term.private", name=self.called(user_id.removeprefix("term:"))) + " "

    def t(self, key: str, /, **params: object) -> str:
        """One of the terminal's own words in the chat's language."""
        return text(self.language, key, **params)

    async def read_language(self) -> None:
        """Learn the chat's language (a `/lang` may have changed it)."""
        self.language = await self.service.language(PLACE, None)

    async def announce(self, place: Place, reply: Reply) -> None:
        """Print what a timer caused (time-outs, the clock's announcements) or what a start shows again; below the
        waiting prompt, and the prompt after it, naming who speaks now."""
        await self.read_language()
        if not self.waiting:  # a command's answer is being printed, or no prompt is shown yet
            self.show(reply)
            return
        self.print("")
        self.show(reply)
        self.prompt_again()

    @property
    def voice(self) -> str | None:
        """Who says a line written without a name: the player whose turn it is, else whoever spoke last."""
        return self.to_act or self.speaker

    def prompt(self) -> str:
        """The input prompt, naming who a line without a name is said by."""
        return f"{self.called(self.voice) if self.voice else '?'}> "

    def prompt_again(self) -> None:
        """Draw the waiting prompt again, below what was printed over it, with what the user had typed after it:
        the line read still holds it, and the next Enter sends it, so it must stay in sight."""
        self.print(self.prompt() + self.typed(), end="")

    def print(self, text: str, end: str = "\n") -> None:
        """Write to the terminal."""
        self.out.write(text + end)
        self.out.flush()


def _command(line: str) -> Command | None:
    """The command `line` says, None when it says none (the service then answers why)."""
    try:
        return parse(line)
    except CommandError:
        return None


def _indent(prefix: str, text: str) -> str:
    pad = " " * len(prefix)
    lines = text.splitlines() or [""]
    return "\n".join([prefix + lines[0], *(pad + line if line else "" for line in lines[1:])])


def read_keyboard(prompt: str) -> str:
    """`input(prompt)` for the terminal table: a line typed at the keyboard, read from standard input's descriptor
    itself; EOFError at its end (Ctrl-D).

    A thread blocked reading `sys.stdin` holds its buffer's lock, which the interpreter needs at exit: a stop while
    it waits (Ctrl-C, SIGTERM) could then end only in a fatal error. A read of the descriptor holds nothing."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = bytearray()
    while not line.endswith(b"\n"):
        byte = os.read(sys.stdin.fileno(), 1)  # one byte at a time: nothing read past the line is lost to a later read
        if not byte:
            if not line:
                raise EOFError
            break
        line += byte
    return line.decode(sys.stdin.encoding or "utf-8", errors="replace").rstrip("\r\n")


@contextlib.contextmanager
def keyboard() -> Iterator[tuple[Callable[[str], str], Callable[[], str]]]:
    """How the terminal table reads the keyboard, for the block: a line reader, and what it holds typed so far.

    At a terminal, readline's `input` (the line can be edited, and earlier lines come back with the arrow keys),
    which knows what has been typed before Enter (`readline.get_line_buffer`), to draw it again after a prompt an
    announcement printed over; the terminal's settings, which readline changes while it reads, are restored at the
    end, should the bot stop mid-line (readline reads through C's stdio, not `sys.stdin`'s buffer: like
    `read_keyboard`, it holds no lock the interpreter's exit needs). Without readline, or with input piped or output
    redirected, `read_keyboard`, which holds nothing typed (the terminal's own line editing keeps and echoes it)."""
    at_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    try:
        import readline
        import termios
    except ImportError:  # a Python built without them (Windows')
        at_terminal = False
    if not at_terminal:
        yield read_keyboard, _nothing_typed
        return
    settings = termios.tcgetattr(sys.stdin.fileno())
    try:
        yield input, readline.get_line_buffer
    finally:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, settings)


async def read_in_thread(read_line: Callable[[str], str], prompt: str) -> str:
    """`read_line(prompt)` in a daemon thread of its own, so that a stop (Ctrl-C, SIGTERM) need not wait for a line.

    A read blocked on the keyboard cannot be interrupted; run in the event loop's executor (`asyncio.to_thread`), it
    held the loop's shutdown until Enter was pressed. This thread is left reading when the wait is cancelled and ends
    with the process (`read_keyboard` holds no lock the interpreter's exit needs)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if future.done():  # the wait was cancelled: nobody wants the line
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(line or "")

    def read() -> None:
        line, error = None, None
        try:
            line = read_line(prompt)
        except BaseException as raised:  # EOFError (Ctrl-D) above all: the terminal ends on it
            error = raised
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, line, error)

    threading.Thread(target=read, name="pokerbot-keyboard", daemon=True).start()
    return await future


class LogBelowPrompt(logging.Handler):
    """The program's log handler writing to the terminal's screen (`handler`), while the terminal table runs: a
    record logged while the prompt waits goes on a line of its own below it, and the prompt comes again after it."""

    def __init__(self, handler: logging.Handler, adapter: TerminalAdapter) -> None:
        super().__init__(handler.level)
        self.handler = handler
        self.adapter = adapter

    def emit(self, record: logging.LogRecord) -> None:
        """Write `record` as `handler` does (its filters redact it), below the waiting prompt."""
        waiting = self.adapter.waiting
        if waiting:
            self.adapter.print("")
        self.handler.handle(record)
        if waiting:
            self.adapter.prompt_again()


@contextlib.contextmanager
def logs_below_prompt(adapter: TerminalAdapter) -> Iterator[None]:
    """For the block, the root logger's handlers that write to the terminal's screen (`logging.basicConfig`'s, on
    standard error) write through `LogBelowPrompt`."""
    root = logging.getLogger()
    on_screen = [handler for handler in root.handlers
                 if type(handler) is logging.StreamHandler and _same_screen(handler.stream, adapter.out)]
    wrapped = [LogBelowPrompt(handler, adapter) for handler in on_screen]
    for handler, wrapper in zip(on_screen, wrapped, strict=True):
        root.removeHandler(handler)
        root.addHandler(wrapper)
    try:
        yield
    finally:
        for handler, wrapper in zip(on_screen, wrapped, strict=True):
            root.removeHandler(wrapper)
            root.addHandler(handler)


def _same_screen(stream: TextIO, out: TextIO) -> bool:
    """Whether `stream` writes where `out` does: the same stream, the same file or pipe, or both on a terminal."""
    if stream is out:
        return True
    try:
        return os.path.samestat(os.fstat(stream.fileno()), os.fstat(out.fileno())) or (stream.isatty() and out.isatty())
    except (OSError, ValueError):  # no descriptor (a StringIO), or closed
        return False


async def show_table_in_play(service: Service) -> None:
    """Show the table as a restart resumes it: its hand or round in play (its table message, its buttons and whose
    turn it is), or the players seated between hands with the Deal button, as `/table` draws them; nothing at a
    table where nobody sits (`Service.show_tables_in_play`, which the platforms' adapters call too)."""
    await service.show_tables_in_play(PLACE.table_id, per_second=SHOWN_AGAIN_PER_SECOND, exact=True, seated=True)


async def run_terminal(service: Service, read_line: Callable[[str], str] | None = None,
                       files_dir: Path = Path(".")) -> None:
    """Play at the terminal until end of input or /quit, reading lines with `read_line` (the `keyboard`'s when None);
    files the bot sends are written to `files_dir`."""
    with contextlib.ExitStack() as stack:
        typed = _nothing_typed
        if read_line is None:
            read_line, typed = stack.enter_context(keyboard())
        await _play(TerminalAdapter(service, files_dir=files_dir, typed=typed), read_line)


async def _play(adapter: TerminalAdapter, read_line: Callable[[str], str]) -> None:
    """`run_terminal`'s loop: a line read, then said, until end of input or /quit."""
    service = adapter.service
    service.subscribe("term:", adapter.announce)
    await adapter.read_language()
    adapter.print(adapter.t("term.intro"))
    with logs_below_prompt(adapter):
        await show_table_in_play(service)
        while True:
            adapter.waiting = True
            try:
                line = await read_in_thread(read_line, adapter.prompt())
            except EOFError:
                adapter.print("")  # Ctrl-D ends no line: the shell's prompt starts on a line of its own
                break
            except asyncio.CancelledError:  # Ctrl-C or SIGTERM: the bot stops, and the prompt's line ends too
                adapter.print("")
                raise
            finally:
                adapter.waiting = False
            try:
                if not await adapter.say(line):
                    break
            except Exception:  # a bug: the transaction rolled back, so say so and keep the table going
                log.exception("command %r failed", line)
                adapter.print(f"{adapter.t('term.only_you')} {adapter.t('term.sorry')}")
