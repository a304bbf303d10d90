"""Settings read once at start-up from the environment and `.env` (see `.env.example` for every setting)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from dotenv import load_dotenv


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
        """What no log line may show: the bot tokens, and the Telegram webhook secret (the one configured, else the
        one derived from the token, which python-telegram-bot logs at DEBUG when it sets the webhook)."""
        found = [self.discord_token, self.telegram_token, self.telegram_webhook_secret]
        if self.telegram_token:
            found.append(webhook_secret_from(self.telegram_token))
        return tuple(secret for secret in found if secret)


def webhook_secret_from(token: str) -> str:
    """A webhook secret derived from the bot token: stable across restarts, unknown to anyone without the token."""
    return hashlib.sha256(f"pokerbot-webhook:{token}".encode()).hexdigest()


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read `.env` (if present; real environment variables win) into Settings."""
    if env_file is not None:
        load_dotenv(env_file, override=False)

    def get(name: str) -> str | None:
        value = os.environ.get(name, "").strip()
        return value or None

    guild = get("DISCORD_GUILD_ID")
    history_days = get("POKERBOT_HISTORY_DAYS")
    if history_days is not None and int(history_days) < 1:
        raise ValueError(f"POKERBOT_HISTORY_DAYS must be a whole number of days, at least 1 (got {history_days})")
    web_port = get("POKERBOT_WEB_PORT")
    if web_port is not None and not 1 <= int(web_port) <= 65535:
        raise ValueError(f"POKERBOT_WEB_PORT must be a port number from 1 to 65535 (got {web_port})")
    shard_count = int(get("DISCORD_SHARD_COUNT") or 1)
    return Settings(
        database=database_location(get("POKERBOT_DB") or "pokerbot.db"),
        discord_token=get("DISCORD_TOKEN"),
        discord_guild=int(guild) if guild else None,
        discord_organizer_role=get("DISCORD_ORGANIZER_ROLE"),
        discord_shard_count=shard_count,
        discord_shard_ids=shard_ids(get("DISCORD_SHARD_IDS"), shard_count),
        telegram_token=get("TELEGRAM_TOKEN"),
        telegram_base_url=get("TELEGRAM_BASE_URL"),
        telegram_webhook_url=get("TELEGRAM_WEBHOOK_URL"),
        telegram_webhook_port=int(get("TELEGRAM_WEBHOOK_PORT") or 8443),
        telegram_webhook_secret=get("TELEGRAM_WEBHOOK_SECRET"),
        starting_grant=int(get("POKERBOT_STARTING_GRANT") or 1000),
        log_level=get("POKERBOT_LOG_LEVEL") or "INFO",
        history_days=int(history_days) if history_days is not None else None,
        web_port=int(web_port) if web_port is not None else None,
        web_host=get("POKERBOT_WEB_HOST") or "0.0.0.0",
        web_url=get("POKERBOT_WEB_URL"),
    )


def database_location(value: str) -> Path | str:
    """`POKERBOT_DB`: a PostgreSQL URL as it is; `sqlite:///path` or a plain path as the SQLite file's path."""
    if value.startswith(("postgresql://", "postgres://")):
        return value
    return Path(value.removeprefix("sqlite://")) if value.startswith("sqlite:///") else Path(value)


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
    query = "&".join("password=***" if item.partition("=")[0] == "password" else item
                     for item in parts.query.split("&")) if parts.query else ""
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def shard_ids(value: str | None, count: int) -> tuple[int, ...] | None:
    """`DISCORD_SHARD_IDS` (`0,2`): the shards this process opens, each below `count`; None (unset) for all."""
    if count < 1:
        raise ValueError(f"DISCORD_SHARD_COUNT must be at least 1 (got {count})")
    if value is None:
        return None
    ids = tuple(int(part) for part in value.split(",") if part.strip())
    if not ids or any(not 0 <= shard < count for shard in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"DISCORD_SHARD_IDS must be distinct shard numbers from 0 to {count - 1} (got {value})")
    return ids
