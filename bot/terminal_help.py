"""How the terminal table writes `/help`: each line wrapped at the terminal's width, as a command line's help is."""

from __future__ import annotations

import shutil
import textwrap

FALLBACK_COLUMNS = 80
"""The width of a terminal that cannot be asked (output piped or redirected)."""
NARROWEST = 30
"""The fewest columns a help line is wrapped to, however little room the terminal's mark leaves."""
USAGE_INDENT = "  "
"""Where a command's usage goes on when it takes more than one line."""
DESCRIPTION_INDENT = "    "
"""Where the description of a command whose usage is long starts, on the line below the usage."""
_KEPT = "\0"
"""A space inside a usage's brackets while it is wrapped: no line breaks there (`[bounty M]` stays whole)."""


def terminal_columns() -> int:
    """The terminal's width in columns (`shutil.get_terminal_size`: `$COLUMNS`, else the terminal's own), 80 when
    unknown."""
    return shutil.get_terminal_size((FALLBACK_COLUMNS, 24)).columns


def wrap_help(message: str, width: int) -> str:
    """`message`, a part of `/help`'s answer, with each line wrapped to `width` columns (at least `NARROWEST`).

    A line that fits stays as it is. An entry `usage — description` goes on under its description's first word; one
    whose usage takes more than half the width (/tournament's) goes on as a command line's help does then: the usage
    wrapped, indented under itself (never broken inside its brackets), and the description below it, indented
    further. A usage alone (`/help command`'s first line) goes on indented; any other line (a heading, a
    description alone) under its own start."""
    width = max(width, NARROWEST)
    return "\n".join(wrapped for line in message.splitlines() for wrapped in _wrap_line(line, width))


def _wrap_line(line: str, width: int) -> list[str]:
    """One line of `/help`'s answer wrapped, as `wrap_help` says."""
    if len(line) <= width:
        return [line]
    usage, dash, about = line.partition(" — ")
    if dash and len(usage) + len(dash) <= width // 2:
        return _fill(line, width, "", " " * (len(usage) + len(dash)))
    if dash:
        return [*_fill_usage(usage, width), *_fill(f"— {about}", width, DESCRIPTION_INDENT, DESCRIPTION_INDENT + "  ")]
    return _fill_usage(line, width) if line.startswith("/") else _fill(line, width, "", "")


def _fill_usage(usage: str, width: int) -> list[str]:
    """A command's usage in lines of at most `width` columns, going on indented, never broken inside brackets."""
    kept, depth = [], 0
    for char in usage:
        depth += (char == "[") - (char == "]")
        kept.append(_KEPT if char == " " and depth > 0 else char)
    return [line.replace(_KEPT, " ") for line in _fill("".join(kept), width, "", USAGE_INDENT)]


def _fill(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` in lines of at most `width` columns, broken at spaces only (a usage's `+N|-N` or a long word stays
    whole), the first line indented by `first`, the others by `rest`; an empty line stays."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False) or [""]
