"""Plain text for Discord, which reads every message as markdown: what the service writes is shown as written."""

from __future__ import annotations

import re

_SPECIAL = re.compile(
    r"(?P<url>https?://[^\s<]+[^<.,:;\"')\]\s])"  # a link stays a link, its `_` unescaped
    r"|(?P<char>[\\*_~|`<\[])"  # bold, italic, underline, strike-through, spoiler, code, `<@id>`, masked link
    r"|^(?P<lead>[ \t]*)(?P<line>[#>-])"  # a heading, a quote or a list at the start of a line
    r"|@(?P<mention>everyone|here)",
    re.MULTILINE,
)


def plain(text: str) -> str:
    """`text` escaped so Discord shows it as it is: no player's name (nor a hand history's `*** FLOP ***`) turns into
    bold, a spoiler, a masked link, a heading or a list, and no `<@id>`, `<#id>`, `<t:…>` or `@everyone` into a
    mention (a backslash before punctuation shows the punctuation; `@everyone` gets a zero-width space)."""
    return _SPECIAL.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    if found.group("url"):
        return found.group("url")
    if found.group("char"):
        return "\\" + found.group("char")
    if found.group("line"):
        return found.group("lead") + "\\" + found.group("line")
    return "@\u200b" + found.group("mention")
