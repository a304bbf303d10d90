"""Discord's message length: cut one message to it, pack short ones together, split a long answer into pages."""

from __future__ import annotations

CONTENT_LIMIT = 2000
"""Discord refuses longer message content."""


def clip(content: str, limit: int = CONTENT_LIMIT) -> str:
    """Cut a message to Discord's limit (or `limit`), marking the cut (for what is never long: table messages,
    notices)."""
    return content if len(content) <= limit else content[: limit - 1] + "…"


def pack(messages: list[str], limit: int = CONTENT_LIMIT) -> list[str]:
    """Messages joined by blank lines into as few Discord messages as fit `limit` characters each; a message
    longer than `limit` is split at line ends (within a line only when the line itself is too long)."""
    packed: list[str] = []
    for message in messages:
        for page in _split(message, limit):
            if packed and len(packed[-1]) + 2 + len(page) <= limit:
                packed[-1] += "\n\n" + page
            else:
                packed.append(page)
    return packed


def _split(message: str, limit: int) -> list[str]:
    if len(message) <= limit:
        return [message]
    pages: list[str] = []
    page = ""
    for line in message.split("\n"):
        while len(line) > limit:  # one line longer than a page: cut at the last space that fits, else anywhere
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if page:
                pages.append(page)
                page = ""
            pages.append(line[:cut])
            line = line[cut:].lstrip(" ")
        if page and len(page) + 1 + len(line) > limit:
            pages.append(page)
            page = line
        else:
            page = f"{page}\n{line}" if page else line
    if page:
        pages.append(page)
    return pages
