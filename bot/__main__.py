"""The `pokerbot` command: run the bot (Discord, Telegram, or the terminal table) or a tool such as `odds`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib.util
import logging
import os
import signal
import socket
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot import compiled, odds_cli
from bot.config import SettingError, Settings, database_location, load_settings, shown_database
from bot.logs import setup_logging

if TYPE_CHECKING:
    from bot.store import Store
    from bot.web.server import ClockPages


class CannotStart(Exception):
    """A setting the bot cannot start with, found once it tries: its message names the setting and says why."""


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="pokerbot",
        usage="\n  pokerbot [--db DB]        run the bot\n  pokerbot odds GAME [...]  house edges (pokerbot odds -h)",
        description="Poker for friends in Discord and Telegram chats.\n\n"
                    "Plain `pokerbot` (no tool) runs the bot: with DISCORD_TOKEN and/or TELEGRAM_TOKEN in .env it "
                    "plays in those chats,\nwith neither it opens a table in this terminal.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", help="SQLite file or PostgreSQL URL (default: POKERBOT_DB or pokerbot.db)")
    subparsers = parser.add_subparsers(dest="tool", metavar="TOOL", title="tools (optional)", prog="pokerbot")
    odds_cli.add_parser(subparsers)
    return parser


async def serve(settings: Settings) -> None:
    """Open the store, start the service and its timers, and run every adapter that has a token."""
    from bot.store import Store
    from bot.store.one_process import hold_database

    # held before the store's connections (a second bot on the file stops here), let go after they have closed
    with hold_database(settings.database):
        store = await Store.open(settings.database)  # a file it cannot use raises, its connection already closed
        try:
            await _serve_store(settings, store)
        finally:
            await store.close()


async def _serve_store(settings: Settings, store: Store) -> None:
    """`serve`'s work on the opened store: the service, its timers, the clock pages and the adapters (or the
    terminal), stopped in turn when it ends."""
    from bot.clock import SystemClock
    from bot.collector import LULL_SECONDS, FullCollections, starting_up
    from bot.service import Service, ServiceSettings
    from bot.store.prune import keep_history
    from bot.terminal import run_terminal

    tasks: list[asyncio.Task[None]] = []
    pages: ClockPages | None = None
    service: Service | None = None
    try:
        service = Service(store, SystemClock(), settings=ServiceSettings(starting_grant=settings.starting_grant,
                                                                        web_url=clock_pages_url(settings)))
        with starting_up():  # then what start-up built (modules, catalogues, resumed tables) is frozen: no young
            # collection traverses it again (a full one does: `bot.collector.full_collection`)
            await service.start()
        tasks.append(asyncio.create_task(service.scheduler.run()))
        # the collector makes no full collection by itself; a due one waits for nobody to be pressing
        tasks.append(asyncio.create_task(FullCollections(quiet=lambda: store.quiet_for(LULL_SECONDS)).run()))
        tasks.append(asyncio.create_task(service.watch_timers()))  # the heartbeat; takeovers on PostgreSQL
        tasks.append(asyncio.create_task(keep_history(store, service.clock, settings.history_days)))
        if settings.web_port is not None:
            from bot.web.server import serve_clock_pages

            try:
                pages = await serve_clock_pages(service, settings.web_host, settings.web_port)
            except OSError as error:  # the port taken, or a host this machine has no address of
                # the system's words for a bind's errno (asyncio's strerror repeats the address); a lookup's own
                reason = os.strerror(error.errno) if error.errno and error.errno > 0 else error.strerror or error
                raise CannotStart(f"the clock pages cannot be served on POKERBOT_WEB_HOST {settings.web_host}, "
                                  f"POKERBOT_WEB_PORT {settings.web_port}: {reason}") from error
        adapters = []
        if settings.telegram_token:
            from bot.telegram import run_telegram

            adapters.append(run_telegram(service, settings))
        if settings.discord_token:
            from bot.discord import run_discord

            adapters.append(run_discord(service, settings))
        if adapters:
            await asyncio.gather(*adapters)
        else:
            files_dir = Path.cwd() if isinstance(settings.database, str) else settings.database.resolve().parent
            await run_terminal(service, files_dir=files_dir)
    finally:
        if pages is not None:
            await pages.stop()
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if service is not None:
            try:
                await service.stop()
            except Exception as error:  # the store is failing: the next start replays the logs instead
                logging.getLogger("pokerbot").warning("no snapshots at shutdown: %s", error)


async def serve_until_stopped(settings: Settings) -> None:
    """`serve` until it ends or the process is asked to stop: SIGTERM (what systemd, Docker and `kill` send) stops it
    as Ctrl-C does, cancelling it so that the adapters send what they have queued and every table is snapshotted.
    A second SIGTERM during that shutdown ends the process at once."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopping = False

    def stop() -> None:
        nonlocal stopping
        stopping = True
        loop.remove_signal_handler(signal.SIGTERM)
        task.cancel()

    with contextlib.suppress(NotImplementedError, RuntimeError):  # none here: Windows, or not the main thread
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        await serve(settings)
    except asyncio.CancelledError:
        if not stopping:
            raise


def clock_pages_url(settings: Settings) -> str | None:
    """Where browsers reach the clock pages: POKERBOT_WEB_URL, else this machine's name and the port; None when
    POKERBOT_WEB_PORT is not set (no pages)."""
    if settings.web_port is None:
        return None
    if settings.web_url:
        return settings.web_url
    logging.getLogger("pokerbot").warning(
        "POKERBOT_WEB_URL is not set: clock page links name this machine (%s); set it to the address the TV reaches",
        socket.gethostname())
    return f"http://{socket.gethostname()}:{settings.web_port}"


def database_errors(database: Path | str) -> tuple[type[Exception], ...]:
    """What the database's driver raises when the database cannot be used: sqlite3's errors, and psycopg's for a
    PostgreSQL URL (`main` has made sure psycopg is installed for one)."""
    if isinstance(database, Path):
        return (sqlite3.Error,)
    import psycopg

    return (sqlite3.Error, psycopg.Error)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script and of `python -m bot`."""
    refusal = compiled.refusal()  # a compiled module older than its source would run its old code
    if refusal is not None:
        print(f"pokerbot stopped: {refusal}", file=sys.stderr)
        return 1
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.tool == "odds":
        return odds_cli.run(args)
    try:
        settings = load_settings()
    except SettingError as error:  # a number that is not one, an address that is none…
        print(f"pokerbot stopped: a setting in {error.source} is not valid: {error}", file=sys.stderr)
        return 1
    if args.db:
        try:
            settings = dataclasses.replace(settings, database=database_location(args.db, "--db"))
        except ValueError as error:
            parser.error(str(error))
    if isinstance(settings.database, str) and importlib.util.find_spec("psycopg") is None:
        print("pokerbot stopped: the database is a PostgreSQL URL, which needs psycopg: pip install -e '.[postgres]'",
              file=sys.stderr)
        return 1
    redaction = setup_logging(settings.log_level, settings.secrets())
    try:
        asyncio.run(serve_until_stopped(settings))
    except KeyboardInterrupt:
        pass
    except database_errors(settings.database) as error:  # a corrupt, unwritable or busy file, a server refusing us
        logging.getLogger("pokerbot").debug("the database cannot be used", exc_info=True)
        reason = " ".join(str(error).split())  # libpq's messages run over several lines
        print(redaction.redact(f"pokerbot stopped: the database {shown_database(settings.database)} cannot be used: "
                               f"{reason}"), file=sys.stderr)
        return 1
    except CannotStart as error:
        logging.getLogger("pokerbot").debug("start-up failed", exc_info=True)
        print(redaction.redact(f"pokerbot stopped: {error}"), file=sys.stderr)
        return 1
    except Exception as error:  # a platform unreachable or a token refused at start-up: say so in one line
        logging.getLogger("pokerbot").debug("start-up failed", exc_info=True)
        print(redaction.redact(f"pokerbot stopped: {type(error).__name__}: {error}"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
