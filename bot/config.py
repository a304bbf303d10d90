"""Settings read once at start-up from the environment and `.env` (see `.env.example` for every setting)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from dotenv import load_dotenv

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""What POKERBOT_LOG_LEVEL may name (in any case)."""


ENVIRONMENT = "the environment"
"""Where a setting came from when the process's environment set it (else it came from the `.env` file)."""


class SettingError(ValueError):
    """A setting whose value is not valid: the message names the setting and what it must be; `source` says where the
    value came from (the `.env` file's name, or `ENVIRONMENT`)."""

    def __init__(self, message: str, source: str) -> None:
        super().__init__(message)
        self.source = source


@dataclass(frozen=True)
class Settings:
    """Everything the application is configured with."""

    database: Path | str = Path("pokerbot.db")
    """A SQLite file, or a PostgreSQL URL (`postgresql://user@host/db`) for several processes on one database."""
    discord_token: str | None = None
    discord_guild: int | None = None
    discord_organizer_role: str | None = None
    discord_shard_count: int = 1
    discord_shard_ids: tuple[int, ...] | None = None
    """The gateway shards this process opens (None: all `discord_shard_count`)."""
    telegram_token: str | None = None
    telegram_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str | None = None
    starting_grant: int = 1000
    log_level: str = "INFO"
    history_days: int | None = None
    """Hands older than this many days are pruned from the history (summarised into the statistics); None keeps
    everything."""
    web_port: int | None = None
    """The port of the clock pages (`/clock tv`); None serves none."""
    web_host: str = "0.0.0.0"
    """The address the clock pages listen on (every interface by default: a TV in the room must reach them)."""
    web_url: str | None = None
    """The address players' browsers reach the clock pages at (`http://192.168.1.20:8080`); without it, the links
    name this machine's host name and the port."""

    def secrets(self) -> tuple[str, ...]:
        """What no log line may show: the bot tokens, the Telegram webhook secret (the one configured, else the
        one derived from the token, which python-telegram-bot logs at DEBUG when it sets the webhook), and a
        PostgreSQL URL's password."""
        found = [self.discord_token, self.telegram_token, self.telegram_webhook_secret,
                 *database_passwords(self.database)]
        if self.telegram_token:
            found.append(webhook_secret_from(self.telegram_token))
        return tuple(secret for secret in found if secret)


def webhook_secret_from(token: str) -> str:
    """A webhook secret derived from the bot token: stable across restarts, unknown to anyone without the token."""
    return hashlib.sha256(f"pokerbot-webhook:{token}".encode()).hexdigest()


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read `.env` (if present; real environment variables win) into Settings. A value that is not valid raises
    `SettingError`, naming the setting, what it must be and where the value came from."""
    from_file: set[str] = set()
    if env_file is not None:
        before = set(os.environ)
        load_dotenv(env_file, override=False)  # it sets only the names the environment does not
        from_file = set(os.environ) - before

    def get(name: str) -> str | None:
        value = os.environ.get(name, "").strip()
        return value or None

    @contextmanager
    def reading(name: str) -> Iterator[None]:
        """A ValueError while reading `name` becomes a SettingError saying where its value came from."""
        try:
            yield
        except ValueError as error:
            raise SettingError(str(error), str(env_file) if name in from_file else ENVIRONMENT) from None

    def number(name: str, least: int, most: int | None = None) -> int | None:
        """The whole number `name` is set to, from `least` to `most`; None when it is not set."""
        value = get(name)
        if value is None:
            return None
        what = f"a whole number from {least} to {most}" if most is not None else f"a whole number, at least {least}"
        with reading(name):
            try:
                found = int(value)
            except ValueError:
                raise ValueError(f"{name} must be {what} (got {value!r})") from None
            if found < least or (most is not None and found > most):
                raise ValueError(f"{name} must be {what} (got {value})")
        return found

    shard_count = number("DISCORD_SHARD_COUNT", 1) or 1
    webhook_port = number("TELEGRAM_WEBHOOK_PORT", 1, 65535) or 8443
    grant = number("POKERBOT_STARTING_GRANT", 0)
    log_level = (get("POKERBOT_LOG_LEVEL") or "INFO").upper()
    with reading("POKERBOT_LOG_LEVEL"):
        if log_level not in LOG_LEVELS:
            raise ValueError(f"POKERBOT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} "
                             f"(got {get('POKERBOT_LOG_LEVEL')!r})")
    with reading("POKERBOT_DB"):
        database = database_location(get("POKERBOT_DB") or "pokerbot.db")
    with reading("DISCORD_SHARD_IDS"):
        shards = shard_ids(get("DISCORD_SHARD_IDS"), shard_count)
    with reading("POKERBOT_WEB_URL"):
        web_url = web_address(get("POKERBOT_WEB_URL"))
    return Settings(
        database=database,
        discord_token=get("DISCORD_TOKEN"),
        discord_guild=number("DISCORD_GUILD_ID", 1),
        discord_organizer_role=get("DISCORD_ORGANIZER_ROLE"),
        discord_shard_count=shard_count,
        discord_shard_ids=shards,
        telegram_token=get("TELEGRAM_TOKEN"),
        telegram_base_url=get("TELEGRAM_BASE_URL"),
        telegram_webhook_url=get("TELEGRAM_WEBHOOK_URL"),
        telegram_webhook_port=webhook_port,
        telegram_webhook_secret=get("TELEGRAM_WEBHOOK_SECRET"),
        starting_grant=1000 if grant is None else grant,
        log_level=log_level,
        history_days=number("POKERBOT_HISTORY_DAYS", 1),
        web_port=number("POKERBOT_WEB_PORT", 1, 65535),
        web_host=get("POKERBOT_WEB_HOST") or "0.0.0.0",
        web_url=web_url,
    )


def web_address(value: str | None) -> str | None:
    """`POKERBOT_WEB_URL` as it is (None when unset): an http:// or https:// address with a host and, when given, a
    port, which the links `/clock tv` posts are built on (a path after it is kept: a proxy may serve the pages
    under one). ValueError, naming the setting, for anything else."""
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError:  # an unclosed [ of an IPv6 address, a port that is no number or out of range
        parts = None
    if (parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.query
            or parts.fragment):
        raise ValueError("POKERBOT_WEB_URL must be the http:// or https:// address browsers reach the clock pages "
                         f"at, like http://192.168.1.20:8080 (got {value!r})")
    return value


def database_location(value: str, setting: str = "POKERBOT_DB") -> Path | str:
    """`POKERBOT_DB` (or the option `setting`): a PostgreSQL URL as it is; `sqlite:///path` or a plain path as the
    SQLite file's path. ValueError, naming `setting`, for a PostgreSQL URL that does not parse or another URL."""
    if value.startswith(("postgresql://", "postgres://")):
        try:
            urlsplit(value).port  # noqa: B018 (reading it checks it)
        except ValueError as error:  # the value is not quoted: it may hold a password
            raise ValueError(f"{setting} is not a valid PostgreSQL URL: {error}") from None
        return value
    if value.startswith("sqlite:///"):
        return Path(value.removeprefix("sqlite://"))
    scheme, separator, _ = value.partition("://")
    if separator and scheme.isalnum():
        raise ValueError(f"{setting} must be a SQLite file (a path, or sqlite:///path) or a postgresql:// URL "
                         f"(got a {scheme}:// URL)")
    return Path(value)


def database_passwords(database: Path | str) -> tuple[str, ...]:
    """The password a PostgreSQL URL holds (after `user:`, or a `password` parameter), as written and decoded:
    libpq quotes the whole URL in some of its errors."""
    if isinstance(database, Path):
        return ()
    try:
        parts = urlsplit(database)
        parts.password  # noqa: B018 (reading it parses the address)
    except ValueError:  # a URL `database_location` refuses
        return ()
    found = [parts.password] + [value for name, value in _query(parts.query) if name == "password"]
    return tuple({form for password in found if password for form in (password, unquote(password))})


def shown_database(database: Path | str) -> str:
    """The database as a message may name it: a PostgreSQL URL with its password (after `user:`, or a `password`
    parameter) replaced by `***`."""
    if isinstance(database, Path):
        return str(database)
    parts = urlsplit(database)
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    query = "&".join(f"{name}=***" if name == "password" else f"{name}={value}" if value is not None else name
                     for name, value in _query(parts.query))
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _query(query: str) -> list[tuple[str, str | None]]:
    """A URL's query as its `name=value` parameters, in order (None: a name without `=`), the passwords among them
    found as libpq finds them."""
    return [(name, value if separator else None) for name, separator, value in (
        item.partition("=") for item in query.split("&")) if name or separator]


def shard_ids(value: str | None, count: int) -> tuple[int, ...] | None:
    """`DISCORD_SHARD_IDS` (`0,2`): the shards this process opens, each below `count` (at least 1, as
    `load_settings` reads it); None (unset) for all."""
    if value is None:
        return None
    try:
        ids = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        ids = ()
    if not ids or any(not 0 <= shard < count for shard in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"DISCORD_SHARD_IDS must be distinct shard numbers from 0 to {count - 1} (got {value})")
    return ids
