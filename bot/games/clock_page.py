"""`/clock tv`: the link of the tournament's clock page, a read-only web page for a TV in the room."""

from __future__ import annotations

from bot.games.context import Action
from bot.store.clock_pages import clock_page_token


def post_clock_page_link(act: Action, web_url: str | None) -> None:
    """Post the link of the table's tournament's clock page (its token made once and kept); without a web address
    configured, say how to serve the pages."""
    if web_url is None:
        raise act.refuse("clock_page.off")
    data = act.state.get("tournament")
    if not data:
        raise act.refuse("tournament.none")
    token = clock_page_token(act.tx, int(data["id"]))
    act.say("clock_page.link", url=f"{web_url.rstrip('/')}/clock/{token}")
