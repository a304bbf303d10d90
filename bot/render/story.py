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

import re
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
HEAD = "story_head"
"""The state's key for how many of the story's first lines stay at its top (`add`'s `head`): the hand's start and
its blinds, through the preflop round."""
SAID_NAMES = "story_said_names"
"""The state's key for the names the lines said beside the events (a time-out's) gave each player (`name_said`)."""


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


def add(state: dict[str, Any], lines: Sequence[Line], *, restart: bool = False, head: bool = False) -> None:
    """Add the lines of one action; `restart` begins a new hand or round with them.

    The story runs on across streets (the flop's line marks where one begins), so a table message that an
    adapter's queue replaced by a newer one before sending it loses no line the newer one does not show, unless
    more than `SHOWN_LINES` came in between. Every line of the latest action stays shown, even past
    `SHOWN_LINES` (a whole run-out), so each action appears in the table message at least once.

    `head` (Hold'em's preflop round): the lines the hand began with (its start, who posted the blinds) stay at the
    story's top, over its latest `SHOWN_LINES`, so a reader still sees who posted the blinds however many lines
    the round has (every player acting, pawns); once an action adds lines without `head`, they scroll as any."""
    if restart:
        state["story"] = list(lines)
        if head:
            state[HEAD] = len(lines)
        else:
            state.pop(HEAD, None)
        return
    if not lines:
        return
    held = state.get(HEAD, 0)
    if held and not head:  # the preflop round is over: the hand's first lines scroll as any
        del state[HEAD]
        held = 0
    old = list(state.get("story") or [])
    every = old + list(lines)
    start = max(held, min(len(old), len(every) - SHOWN_LINES))
    state["story"] = every[:held] + every[start:] if held else every[start:]


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
    state.pop(HEAD, None)
    state.pop(TOLD_IN, None)
    state.pop(SAID_NAMES, None)


def name_said(state: dict[str, Any], player: str, name: str) -> None:
    """Remember that a line said beside the events (a time-out's) named `player` `name`: such a line may outlive
    every event line naming him so (a sitting out's comes after his fold's), and `retell` still knows it is his
    when he has been renamed since (`retell` remembers so the name it retells such a line with). Only time-outs say
    such lines, so no betting action adds anything here."""
    names = state.setdefault(SAID_NAMES, {}).setdefault(player, [])
    if name not in names:
        names.append(name)


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


Names = Callable[[str], str]
"""A player's name from his id, as a line is written with it."""


def retell(state: dict[str, Any], language: str, told: Callable[[str, Names], Sequence[str]],
           said: Callable[[str, Names], Sequence[str]], names: Mapping[str, str]) -> None:
    """Write the lines shown again in `language` (the chat's `/lang` changed during the hand or round), naming each
    player as `names` (id → name) does now, as the seats do.

    `told(l, name)`: every line the hand's recorded events tell, in order, in language `l`, each player named with
    `name`; `said(l, name)`: the lines a game says beside its events (a time-out's), each one it may have said, in
    the same order in every language. The lines shown are the end of what was told (`add`), under the first ones
    when it keeps them at the top (`HEAD`), so they are matched from the latest back (and those first ones from the
    first on), each to the event line due there in any language, whatever name a player had when it was told
    (he may have been renamed since); a line matched by none is a said one, written in `language` when it is one of
    `said`'s naming its players by a name they are known by (now, in an event line matched, or by a said line:
    `name_said`, which remembers the name it is retold with too), and left as it was otherwise (nothing is lost, nor
    told twice)."""
    shown_now = shown(state)
    if not shown_now:
        return
    marks = _Marks()
    versions = [[_pattern(line) for line in told(other, marks)] for other in languages()]
    spoken = [[_pattern(line) for line in said(other, marks)] for other in languages()]
    new, new_said = told(language, names.__getitem__), said(language, names.__getitem__)
    players = list(marks.players)
    known: dict[str, set[str]] = {player: {name} for player, name in names.items()}
    for player, said_names in state.get(SAID_NAMES, {}).items():
        known.setdefault(player, set()).update(said_names)
    lines = list(shown_now)
    held = min(state.get(HEAD, 0), len(lines), len(new))  # the first lines told, kept at the top (`add`)
    due = len(new) - 1
    unmatched = []
    for at in [*range(len(lines) - 1, held - 1, -1), *range(held)]:  # the latest back, then those kept at the top
        if at < held:
            due = at
        match = _first_match(lines[at], [version[due] for version in versions] if due >= held or at < held else [])
        if match is None:
            unmatched.append(at)
            continue
        lines[at] = new[due]
        due -= 1
        for player, name in _named(match, players).items():
            known.setdefault(player, set()).add(name)
    for at in unmatched:
        found = _said_by_known(lines[at], spoken, players, known)
        if found is None:
            continue
        index, named = found
        lines[at] = new_said[index]
        for player in named:  # it names him anew: a retelling after his next rename must still know it is his
            name_said(state, player, names[player])
    state["story"] = lines


def _said_by_known(line: str, spoken: Sequence[Sequence[re.Pattern[str]]], players: Sequence[str],
                   known: Mapping[str, set[str]]) -> tuple[int, dict[str, str]] | None:
    """Which of the said lines (`spoken`, in each language) `line` is, naming each of its players by a name he is
    known by: its index and the names it gives; None when it is none of them."""
    for patterns in spoken:
        for index, pattern in enumerate(patterns):
            match = pattern.fullmatch(line)
            if match is not None:
                named = _named(match, players)
                if all(name in known.get(player, ()) for player, name in named.items()):
                    return index, named
    return None


def _first_match(line: str, patterns: Iterable[re.Pattern[str]]) -> re.Match[str] | None:
    """The match of `line` by the first of `patterns` that matches it whole, None when none does."""
    return next((match for pattern in patterns if (match := pattern.fullmatch(line)) is not None), None)


def _named(match: re.Match[str], players: Sequence[str]) -> dict[str, str]:
    """The name each player has in a line matched by a `_pattern` (`players`: the ids in the order of their marks)."""
    return {players[int(group[1:])]: name for group, name in match.groupdict().items()}


_MARK = "\x00"
"""What stands around a player's mark in a line written to be matched (`_Marks`): no name holds it."""


class _Marks:
    """Names each player by a mark (his number between two `_MARK`s) in the lines `retell` matches against, so
    that a line matches whatever name he was told with."""

    def __init__(self) -> None:
        self.players: dict[str, int] = {}

    def __call__(self, player: str) -> str:
        return f"{_MARK}{self.players.setdefault(player, len(self.players))}{_MARK}"


def _pattern(marked: str) -> re.Pattern[str]:
    """The lines `marked` (written with `_Marks`) stands for: its text with any name at each mark, one player's
    marks with the same name (group `p<number>` is the name of the player of that number)."""
    parts = marked.split(_MARK)
    seen: set[str] = set()
    regex = []
    for at, part in enumerate(parts):
        if at % 2 == 0:
            regex.append(re.escape(part))
        elif part in seen:
            regex.append(f"(?P=p{part})")
        else:
            seen.add(part)
            regex.append(f"(?P<p{part}>.+?)")
    return re.compile("".join(regex), re.DOTALL)
