"""Settings read once at start-up from the environment and `.env` (see `.env.example` for every setting)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


@dataclass(frozen=True)
class Settings:
    """Everything the application is configured with."""

    database: Path = Path("pokerbot.db")
    discord_token: str | None = None
    discord_guild: int | None = None
    discord_organizer_role: str | None = None
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
    return Settings(
        database=Path(get("POKERBOT_DB") or "pokerbot.db"),
        discord_token=get("DISCORD_TOKEN"),
        discord_guild=int(guild) if guild else None,
        discord_organizer_role=get("DISCORD_ORGANIZER_ROLE"),
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
