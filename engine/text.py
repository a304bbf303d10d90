"""Text typed by players, as the rules and the replies may keep or quote it: cleaned, and quoted briefly."""

from __future__ import annotations

import re
import unicodedata

QUOTE_LIMIT = 40
"""How many characters of a player's input an answer quotes: a 2,000-character line is not echoed back whole."""

ELLIPSIS = "…"

_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")
"""Direction marks, embeddings, overrides and isolates (and a stray byte-order mark): they would reorder the reply
around the quote, so a quote drops them."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
"""Letters that draw nothing (the Hangul fillers, the blank Braille pattern): a name of them alone looks empty."""


def is_blank(text: str) -> bool:
    """Whether `text` shows nothing: only spaces, format characters (zero-width spaces and joiners, direction
    marks…), combining marks with nothing to combine with, and letters that draw nothing."""
    return all(char in _BLANK_LETTERS or unicodedata.category(char)[0] in "ZCM" for char in text)


def is_storable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (the database's encoding): False for a lone surrogate like "\\ud800",
    which a chat client or a badly decoded terminal line may send."""
    if text.isprintable():  # the usual name or command: printable text holds no surrogate
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def clean_text(text: str) -> str:
    """`text` made safe to store and show: a lone surrogate becomes "\ufffd", control characters (new lines, tabs,
    NUL…) become spaces, direction overrides are dropped, runs of spaces become one and the ends are trimmed."""
    if text.isprintable():  # the usual name (every action cleans its actor's): no surrogate, control or format mark
        return " ".join(text.split())
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            kept.append("\ufffd")
        elif category == "Cc":
            kept.append(" ")
        elif char not in _INVISIBLE:
            kept.append(char)
    return " ".join("".join(kept).split())


WORD_JOINER = "\u2060"
_LIVE = re.compile(f"[@/](?!{WORD_JOINER})")
"""An `@` or a `/` a chat client could read as the start of a mention or a command: none follows it yet."""


def inert(text: str) -> str:
    """`text` with a word joiner (U+2060, which shows nothing) after each `@` and `/`: read the same, but no chat
    client finds a mention (`@alice`) or a command (`/leave`) in it. For anything a player typed inside the bot's
    texts: his name, a name he gave (a season's, a pawned item's), his input quoted (`quote_input`). Inert text stays
    as it is (one joiner each), so a text made inert twice reads as once."""
    if "@" not in text and "/" not in text:
        return text
    return _LIVE.sub(rf"\g<0>{WORD_JOINER}", text)


def quote_input(text: object, limit: int = QUOTE_LIMIT) -> str:
    """A player's input as an answer quotes it (the message puts the quotation marks): cleaned by `clean_text`, at
    most `limit` characters of it, followed by an ellipsis when it was longer, and `inert`, so that what he typed
    (`/set straddle /fold`) is never a command or a mention in the answer. The limit counts what was typed: a quote
    copied back (`/\u2060fold`) is quoted as the same text typed."""
    return inert(_bounded(clean_text(as_typed(str(text))), limit))


def log_quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """A player's input as the engine's English (the message a log prints) quotes it, in `repr`'s quotes: cleaned and
    bounded as `quote_input` quotes it for an answer, but `as_typed`, since `repr` would show each word joiner as a
    visible `\\u2060` ('10/\\u206030'). Input already quoted for an answer reads the same: `log_quote(word)` and
    `log_quote(quote_input(word))` are one text."""
    return repr(_bounded(clean_text(as_typed(str(text))), limit))


def _bounded(cleaned: str, limit: int) -> str:
    """At most `limit` characters of `cleaned`, followed by an ellipsis when it was longer."""
    return cleaned if len(cleaned) <= limit else cleaned[:limit].rstrip() + ELLIPSIS


def as_typed(quoted: str) -> str:
    """Text made `inert` (a name, input quoted by `quote_input`) as the player typed it, without the word joiners: for
    a file, for the engine's English (`log_quote`) and for text copied back from the bot's (a name, a command)."""
    return quoted.replace(WORD_JOINER, "")
