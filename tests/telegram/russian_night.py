"""A Russian-speaking group's tournament night through Telegram: its players, and a driver that plays the group's
hands by pressing the buttons the table message shows, in Russian."""

from __future__ import annotations

import re

from tests.telegram.conftest import Running
from tests.telegram.fake_api import GROUP

IVAN = {"id": 301, "is_bot": False, "first_name": "Иван", "username": "ivan", "language_code": "ru"}
PETROV = {"id": 302, "is_bot": False, "first_name": "Пётр", "last_name": "Петров", "language_code": "ru"}
OLGA = {"id": 303, "is_bot": False, "first_name": "Ольга", "username": "olga", "language_code": "ru"}
SASHA = {"id": 304, "is_bot": False, "first_name": "Саша", "language_code": "ru"}
SASHA_TOO = {"id": 305, "is_bot": False, "first_name": "Саша", "language_code": "ru"}
"""A second Саша: the group reads him as "Саша (2)"."""
PLAYERS = (IVAN, PETROV, OLGA, SASHA, SASHA_TOO)
NAMES = {"ivan": IVAN, "Пётр Петров": PETROV, "olga": OLGA, "Саша": SASHA, "Саша (2)": SASHA_TOO}
"""How the group names each player."""
TO_ACT = re.compile(r"^▶ Ход: (.+?)(?:, для колла .*| \(⏱.*|\.)$", re.MULTILINE)


async def play_hand(bot: Running, shovers: set[int], pawns: dict[int, str] | None = None) -> None:
    """Play the hand on the table message, if one is on: a shover goes all-in (or calls all-in), anyone else checks,
    calls a small bet or folds; a run-it-twice question is answered "once". A player with an item in `pawns` pawns it
    (taken out of `pawns`) when the table tells him he is short of a call."""
    pawns = {} if pawns is None else pawns
    for _ in range(60):
        with_buttons = [sent for sent in bot.group() if sent.buttons()]
        if not with_buttons:
            return
        current = bot.api.messages[GROUP["id"], with_buttons[-1].message_id]
        buttons = current.buttons()
        found = TO_ACT.search(current.text)
        if found is None:
            once = next((button for button in buttons if button["text"] == "Раздать один раз"), None)
            if once is None:
                return
            runs = re.search(r"Ждём ответа: (.+?) \(дважды", current.text)
            assert runs, current.text
            await bot.press_data(NAMES[runs.group(1).split(", ")[0]], current, once["callback_data"])
            continue
        user = NAMES[found.group(1)]
        if user["id"] in pawns and f"🧥 {found.group(1)}:" in current.text:
            await bot.command(user, f"/pawn {pawns.pop(user['id'])}")
            continue
        owes = re.search(r"для колла (?:— олл-ин на )?([\d\s]+)", found.group(0))
        small = owes is None or int(re.sub(r"\s", "", owes.group(1))) <= 20
        words = ("Олл-ин", "Колл", "Чек", "Пас") if user["id"] in shovers else (
            ("Чек", "Колл", "Пас") if small else ("Чек", "Пас"))
        button = next(button for word in words for button in buttons if button["text"].startswith(word))
        await bot.press_data(user, current, button["callback_data"])
    raise AssertionError("the hand did not end")


async def play_until(bot: Running, until: float, shovers: set[int], *, step: float = 20,
                     pawns: dict[int, str] | None = None) -> None:
    """Hands one after another (each dealt when the table's timer fires) until `until` or the tournament's end."""
    while bot.clock.now() < until:
        await bot.fire_timers(step)
        await play_hand(bot, shovers, pawns)
        if any(text.startswith("🏆 Турнир окончен") for text in said(bot)):
            return


def said(bot: Running) -> list[str]:
    """Every message the group was sent (a picture's caption too), each split into its paragraphs."""
    return [part for sent in bot.group() for part in (sent.history[0] or "").split("\n\n")]


