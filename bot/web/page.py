"""The clock page's HTML: one self-contained file (`clock.html`, style and script inline, nothing fetched from
elsewhere) filled with the chat's language, the page's words and its first view."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import orjson

from bot.web.view import labels


@cache
def _template() -> str:
    return resources.files("bot.web").joinpath("clock.html").read_text(encoding="utf-8")


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (no `</script>` or HTML comment can be formed by the text in it)."""
    return orjson.dumps(value).decode().replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(language: str, view: dict[str, Any], nonce: str) -> str:
    """The page in `language`, showing `view` until its stream sends the next; `nonce` lets its inline script and
    style run under the page's content security policy."""
    boot = {"labels": labels(language), "view": view}
    return (_template().replace("__LANG__", language).replace("__NONCE__", nonce)
            .replace("__TITLE__", _escape(view["title"])).replace("__BOOT__", _script_json(boot)))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
