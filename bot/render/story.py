"""The story of the hand or round in play: its latest lines, kept in the table's state, shown in the table message.

The table message of a hand tells what happened ("Bob raises to 40.", "Cat folds.") under the state it shows, so
the chat is not sent a new message per action. The lines live in the table's snapshot (`state["story"]`), so a
restart in the middle of a hand shows the same story.

A line may be kept unwritten (`Later`): what writes it is captured at the action, and it is written the first time a
table message shows it or a snapshot stores it, so an action whose table message no adapter shows writes no line.
A snapshot always stores the lines as text.

When the chat's language changes mid-hand, `retell` writes the lines shown again in the new one, from the hand's
recorded events (read back at that rare moment, so an action keeps nothing more than its line). Since a chat's
`/lang` reaches only the table where it was typed, the state says in which language the story was told (`mark_told`,
at the deal and at a retelling), so another table of the chat finds out cheaply whether its story needs retelling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.i18n import languages

LANGUAGE_CHANGES = "language_changes"
"""The chat setting counting the times the chat's `/lang` changed its language: a line told at one table after a
`/lang` at another is written in the new language beside the older ones, so the language alone would not say that
a story told in English, then French, then English again is all in English."""
TOLD_IN = "told_in"
"""The state's key for the language the story was told in and the chat's count of changes then (`mark_told`)."""
SHOWN_LINES = 6
"""How many of the latest lines the table message shows (more when one action said more, so none is missed)."""


class Later:
    """A story line written only when it is first read: `write(*args)` must draw from values captured when the line
    was told (a `Voice` with the names as they were, frozen engine events), never from a live table or transaction.
    The state's JSON stores its text (`to_dict`), as for a line given as text."""

    __slots__ = ("_args", "_text", "_write")

    def __init__(self, write: Callable[..., str], *args: Any) -> None:
        self._write = write
        self._args = args
        self._text: str | None = None

    def to_dict(self) -> str:
        """The line's text, written now if it was not yet (the state's JSON stores it so). The database thread (a
        snapshot) and an adapter (a table message) may both read it at once: each then writes the same text.

        Once written, the line lets go of what wrote it (the event, the voice and its names), so a live table keeps
        only text for the lines its table message has shown: fewer objects for every collection to traverse."""
        args = self._args  # before the text: a reader that finds the arguments gone finds the text written
        text = self._text
        if text is None:
            text = self._text = self._write(*args)
            self._args = ()  # after the text, for the same reason
        return text


Line = str | Later
"""A story line: its text, or a `Later` that writes it when read."""


def add(state: dict[str, Any], lines: Sequence[Line], *, restart: bool = False) -> None:
    """Add the lines of one action; `restart` begins a new hand or round with them.

    The story runs on across streets (the flop's line marks where one begins), so a table message that an
    adapter's queue replaced by a newer one before sending it loses no line the newer one does not show, unless
    more than `SHOWN_LINES` came in between. Every line of the latest action stays shown, even past
    `SHOWN_LINES` (a whole run-out), so each action appears in the table message at least once.
    """
    if not lines and not restart:
        return
    old = [] if restart else list(state.get("story") or [])
    every = old + list(lines)
    state["story"] = every[min(len(old), max(0, len(every) - SHOWN_LINES)):]


def kept(state: dict[str, Any]) -> tuple[Line, ...]:
    """The lines the table message shows now, written or not (to write them later with `written`)."""
    return tuple(state.get("story") or ())


def written(lines: Iterable[Line]) -> list[str]:
    """The text of each line (a `Later` written now, once)."""
    return [line if isinstance(line, str) else line.to_dict() for line in lines]


def shown(state: dict[str, Any]) -> list[str]:
    """The lines the table message shows now, as text."""
    return written(state.get("story") or ())


def clear(state: dict[str, Any]) -> None:
    """Forget the story (the hand or round is over and its last table message already shows it)."""
    state.pop("story", None)
    state.pop(TOLD_IN, None)


def _edition(language: str, chat_settings: Mapping[str, Any]) -> list[Any]:
    return [language, chat_settings.get(LANGUAGE_CHANGES, 0)]


def mark_told(state: dict[str, Any], language: str, chat_settings: Mapping[str, Any]) -> None:
    """Remember that every line of the story is written in `language`, the chat's language since its latest change
    (`chat_settings`): at the deal, and once it is retold."""
    state[TOLD_IN] = _edition(language, chat_settings)


def is_told_in(state: dict[str, Any], language: str, chat_settings: Mapping[str, Any]) -> bool:
    """Whether the story (if any) was told or retold in `language` since the chat's latest change of language, so
    that it needs no retelling (a story older than `mark_told` is retold once)."""
    return not state.get("story") or state.get(TOLD_IN) == _edition(language, chat_settings)


def retell(state: dict[str, Any], language: str, told: Callable[[str], Sequence[str]],
           said: Callable[[str], Sequence[str]]) -> None:
    """Write the lines shown again in `language` (the chat's `/lang` changed during the hand or round).

    `told(l)`: every line the hand's recorded events tell, in order, in language `l`; `said(l)`: the lines a game
    says beside its events (a time-out's), each one it may have said, in the same order in every language. The
    lines shown are the end of what was told (`add`), so they are matched from the latest back, each to the event
    line due there in any language; a line matched by none is a said one, written in `language` when it is one of
    `said`'s and left as it was otherwise (nothing is lost, nor told twice)."""
    shown_now = shown(state)
    if not shown_now:
        return
    versions = {other: told(other) for other in languages()}
    new = versions[language]
    spoken = {old: line for other in languages() for old, line in zip(said(other), said(language), strict=True)}
    due = len(new) - 1
    lines = list(shown_now)
    for at in range(len(lines) - 1, -1, -1):
        if due >= 0 and any(lines[at] == version[due] for version in versions.values()):
            lines[at] = new[due]
            due -= 1
        else:
            lines[at] = spoken.get(lines[at], lines[at])
    state["story"] = lines
