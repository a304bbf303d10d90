"""How Telegram words what it refuses, read from its errors: how long a 429 holds a chat, a group that refuses
pictures, a forum topic that refuses posts."""

from __future__ import annotations

import warnings
from datetime import timedelta

from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

PHOTO_REFUSALS = ("rights to send photos", "not enough rights", "photos are not allowed", "have no rights")
"""How Telegram words a group's refusal of pictures (the bot may not send media there)."""

TOPIC_REFUSALS = ("topic_closed", "topic_deleted", "message thread not found")
"""How Telegram words its refusal of a post in a forum topic an administrator closed or deleted."""


def retry_seconds(error: RetryAfter) -> float:
    """The seconds a 429 asks the chat to wait."""
    with warnings.catch_warnings():  # PTB 22 warns that the int will become a timedelta; both are taken
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        retry_after = error.retry_after
    return retry_after.total_seconds() if isinstance(retry_after, timedelta) else float(retry_after)


def refuses_photos(error: Exception) -> bool:
    """Whether the error is a group's refusal of pictures."""
    reason = str(error).lower()
    return any(words in reason for words in PHOTO_REFUSALS)


def refuses_topic(error: Exception) -> bool:
    """Whether the error is a forum topic's refusal of a post (closed or deleted)."""
    reason = str(error).lower()
    return any(words in reason for words in TOPIC_REFUSALS)
