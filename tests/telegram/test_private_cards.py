"""Private cards stay private on Telegram, in every game: each hand or round is played through the group (the fake
with Telegram's limits), each player learns his cards from what the bot tells him alone, and every request the fake
recorded is read for a card shown to anyone but its holder before RULES.md makes it public."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from engine.house import GAMES as HOUSE_GAMES
from tests.bot.helpers import CASES, REVEALS, Case, cards_in, never_shown, shown_to_others
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running, private_chat
from tests.telegram.fake_api import GROUP, FakeBotApi, Request, Sent
from tests.telegram.test_cash_evening import DAN
from tests.telegram.test_games import command_of, home_night_started

SEAT_TO_ACT = re.compile(r"^▶ (.+?) · ", re.MULTILINE)
"""The seat (Hold'em) or box (house games) marked to act, as the table message lists it in either language."""
USERS = {"ann": ANN, "Bob Brown": BOB, "cat": CAT}


def read(request: Request) -> bool:
    """Whether a request shows something to someone: a message to a chat, or an answer to a press."""
    return "chat_id" in request.params or request.method == "answerCallbackQuery"


def reader(api: FakeBotApi, request: Request) -> int | None:
    """Whom a request shows its text to: a user (his private chat, or the alert answering his press), or None for
    the group."""
    if request.method == "answerCallbackQuery":
        return api.pressed_by[request.params["callback_query_id"]]
    chat = int(request.params["chat_id"])
    return chat if chat > 0 else None


def shown(request: Request) -> str:
    """Everything a request shows: its text or caption (a replaced picture's too), each button's label and data, a
    file's content."""
    params = request.params
    media = params.get("media") if isinstance(params.get("media"), dict) else {}
    rows = (params.get("reply_markup") or {}).get("inline_keyboard", [])
    document = params.get("document")
    return "\n".join([params.get("text") or "", params.get("caption") or "", media.get("caption") or "",
                      *(f"{button['text']} {button.get('callback_data', '')}" for row in rows for button in row),
                      document.decode(errors="replace") if isinstance(document, bytes) else ""])


def leaks(api: FakeBotApi, secrets: dict[int, set[str]], start: int, stop: int | None = None) -> list[str]:
    """Each request of `start:stop` that showed a player's secret cards to someone else (the group, or another
    player): its method, reader and text."""
    seen = [(request, reader(api, request), shown(request)) for request in filter(read, api.requests[start:stop])]
    return [f"{request.method} → {reader(api, request) or 'the group'}: {shown(request)!r}"
            for request in shown_to_others(seen, secrets)]


def revealed(api: FakeBotApi, start: int) -> int:
    """The index of the first group request from `start` on that shows cards by the rules (showdown, settlement)."""
    return next(index for index, request in enumerate(api.requests[start:], start)
                if read(request) and reader(api, request) is None
                and any(reveal in shown(request) for reveal in REVEALS))


def to_act(message: Sent) -> dict[str, Any] | None:
    """The user the table message marks to act, None when nobody must."""
    found = SEAT_TO_ACT.search(message.text)
    return USERS[found.group(1)] if found else None


async def learn(bot: Running, table: Sent, users: tuple[dict[str, Any], ...]) -> dict[int, set[str]]:
    """Each user's cards, as "My cards" on the table message shows them to him alone."""
    learned = {}
    for user in users:
        answer = await bot.press(user, table, "🂠")
        assert answer["show_alert"] is True, answer
        learned[user["id"]] = cards_in(answer["text"])
    return learned


async def play_out(bot: Running, table: Sent, plan: dict[int, list[str]], secrets: dict[int, set[str]]) -> None:
    """Press for whoever the table marks to act until nobody is: his planned commands first, each on the first button
    whose command begins with it, then the cheapest way on. At a house game, what "My cards" shows a player after
    each of his decisions joins his secrets (a draw's new cards, his next box's)."""
    for _ in range(60):
        current = bot.api.messages[GROUP["id"], table.message_id]
        user = to_act(current)
        if user is None:
            return
        commands = {command_of(button): button for button in current.buttons()}
        planned = plan.get(user["id"], [])
        wanted = [planned.pop(0)] if planned else ["check", "call", "play", "decline", "fold"]
        command = next((command for word in wanted for command in commands if command.startswith(word)), None)
        assert command is not None, f"none of {wanted} in {list(commands)}"
        await bot.press_data(user, current, commands[command]["callback_data"])
        if bot.game in HOUSE_GAMES and to_act(bot.api.messages[GROUP["id"], table.message_id]) is not None:
            secrets[user["id"]] |= (await learn(bot, table, (user,)))[user["id"]]
    raise AssertionError("the hand did not end")


async def deal(bot: Running, case: Case) -> None:
    """The next hand or round: Ann deals Hold'em; at a house game Ann, Bob and Cat bet an ANTE of 10 (and a PAIRPLUS
    of 5, at Three Card Poker), Ann on each of her boxes, and Cat presses Deal."""
    if bot.game not in HOUSE_GAMES:
        await bot.command(ANN, "/deal")
        return
    side = " pp 5" if bot.game == "three-card" else ""
    for user, box in [(ANN, box) for box in range(1, case.boxes + 1)] + [(BOB, 1), (CAT, 1)]:
        await bot.command(user, f"/ante 10 box {box}{side}" if box > 1 else f"/ante 10{side}")
    table = bot.table_message()
    await bot.press_data(CAT, table, next(button["callback_data"] for button in table.buttons()
                                          if command_of(button) == "deal"))


async def first_deal(make_bot: Callable[..., Awaitable[Running]], case: Case) -> Running:
    """The case's table with its first hand or round dealt, Ann having opened her private chat with the bot (Bob and
    Cat have none: they read their cards in alerts)."""
    if case.game == "tournament":
        return await home_night_started(make_bot, private=(ANN,))
    bot = await make_bot(case.game, seed=5)
    await bot.command(ANN, "/start", private_chat(ANN))
    if case.game in HOUSE_GAMES:
        await deal(bot, case)
    else:
        await bot.seat_three_and_deal()
    return bot


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
@pytest.mark.parametrize("case", CASES)
async def test_no_player_sees_anothers_cards_before_the_rules_show_them(make_bot, api, case: str) -> None:
    """Bob folds at his first decision, Ann draws where the game lets her; "My cards" is pressed by everyone, by Dan
    who is not seated, and from the last hand; `/cards` is typed with and without a private chat; the chat turns
    Russian mid-hand."""
    bot = await first_deal(make_bot, CASES[case])
    table = bot.table_message()
    my_cards = table.button("🂠")["callback_data"]
    secrets = await learn(bot, table, (ANN, BOB, CAT))
    assert [len(cards) for cards in secrets.values()] == CASES[case].dealt(), secrets
    assert len(set().union(*secrets.values())) == sum(CASES[case].dealt()), "a card was told to two players"
    stranger = await bot.press(DAN, table, "🂠")  # not seated: nothing to see
    assert stranger["text"] == "You have no cards in play."
    await bot.command(ANN, "/cards")  # to her private chat
    assert cards_in(api.chat(ANN["id"])[-1].text) == secrets[ANN["id"]]
    await bot.command(CAT, "/cards")  # no private chat: pointed to one, in the group
    await bot.command(ANN, "/lang ru")  # the table is told again, in Russian
    await play_out(bot, table, {ANN["id"]: list(CASES[case].plan), BOB["id"]: ["fold"]}, secrets)
    assert len(secrets[ANN["id"]]) == CASES[case].anns()
    shown_at = revealed(api, 0)
    assert leaks(api, secrets, 0, shown_at) == []
    await bot.command(CAT, "/history")
    await bot.command(ANN, "/history")
    hidden = never_shown(secrets, shown(api.requests[shown_at]))
    assert hidden[BOB["id"]] == secrets[BOB["id"]], "Bob folded: his cards are not shown"
    assert leaks(api, hidden, 0) == [], "a folded, mucked or discarded card was shown later"

    start = len(api.requests)
    await deal(bot, CASES[case])
    later = bot.table_message()
    assert later.message_id != table.message_id
    secrets = await learn(bot, later, (ANN, BOB, CAT))
    stale = await bot.press_data(BOB, table, my_cards)  # from the last hand: his cards of this one, to him alone
    assert stale["text"] == (await bot.press(BOB, later, "🂠"))["text"]
    assert leaks(api, secrets, start) == []
