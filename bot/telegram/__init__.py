"""The Telegram adapter (python-telegram-bot): platform I/O only, no rules and no game state."""

from bot.telegram.adapter import TelegramAdapter, TelegramSettings, run_telegram

__all__ = ["TelegramAdapter", "TelegramSettings", "run_telegram"]
