"""The Telegram adapter (python-telegram-bot): platform I/O only, no rules and no game state."""

from bot.telegram.adapter import TelegramAdapter, run_telegram
from bot.telegram.settings import TelegramSettings

__all__ = ["TelegramAdapter", "TelegramSettings", "run_telegram"]
