"""Practice seats: computer players at a cash Hold'em table, paid for by the chat's house account.

`/addbot [name]` (organizer) seats a computer player `bot:<name>` with the table's buy-in, moved in the ledger from
`house:<chat>` to its stack; `/addbot remove <name>` (organizer) stands it up (after the hand if it is still in one).
Whatever it holds when it leaves, or nothing when it busts, goes back to `house:<chat>`: no player's wallet pays for
it. Computer players never sit at a tournament (the table refuses while one is registering or running, and a
tournament cannot be created while anyone is seated) nor at a house game. A hand is dealt only while at least one
human is dealt in, and when the last human stands up (he leaves, he is away too long, a voided hand's leaver goes, he
busts) the computer players stand up too, their chips back to `house:<chat>` (`stand_up_alone`): otherwise they would
sit there, dealt nothing, keeping the table busy (`/game` refused) until an organizer removed them; a table left so
by an older version (or a crash) has them stand up at start-up, or after the hand in play ends. When a computer
player must act, the Hold'em controller arms a short timer (`BOT_SECONDS`, kind "bot"); when it fires, `play_turn`
applies `engine.practice.decide` through the same commit path as a player's command, so the table sees it "think" and
every chip moves in the ledger as usual.
"""

from __future__ import annotations

import re
from typing import Any

from bot import commands as cmd
from bot.games.context import BOT_MARK, Action
from bot.games.holdem_table import HoldemTable
from engine.practice import View, decide
from engine.reasons import Reason
from engine.text import quote_input

BOT_PREFIX = "bot:"
"""Computer players' ids start with this (`bot:robo`); no platform's user id does."""

BOT_SECONDS = 1.5
"""How long a computer player "thinks" before it acts."""

NAMES = ("Robo", "Chip", "Deuce", "Rivera", "Bluffy", "Nuts", "Tilt", "Flopsy", "Kicker")
"""Names given in turn when `/addbot` names none."""

_NAME = re.compile(r"^[^\W_][\w-]{0,15}$")


def is_bot(player_id: str | None) -> bool:
    """Whether the player is a computer player."""
    return bool(player_id) and str(player_id).startswith(BOT_PREFIX)


def house_account(act: Action) -> str:
    """The chat's house account: pays computer players' buy-ins and gets their chips back."""
    return f"house:{act.place.chat_id}"


def home_account(act: Action, player_id: str) -> str:
    """Where a player's stack goes when he stands up: his wallet, or the house for a computer player."""
    return house_account(act) if is_bot(player_id) else act.wallet(player_id)


def has_human(seats: list[dict[str, Any]]) -> bool:
    """Whether any of these seats holds a human player."""
    return any(not is_bot(seat["id"]) for seat in seats)


def drop_private(act: Action) -> None:
    """Computer players have no inbox: remove the private messages addressed to them (their hole cards)."""
    for player in [player for player in act.reply.private if is_bot(player)]:
        del act.reply.private[player]


def add_bot(controller: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/addbot [name]` seats a computer player; `/addbot remove name` stands one up (organizers). The Hold'em
    controller hands it the command (a house game refuses it)."""
    assert isinstance(command, cmd.AddBot)
    act.state.setdefault("seats", [])
    if act.state.get("tournament"):
        raise act.refuse("odds.bot_no_tournament")
    act.require_organizer()
    if command.remove:
        _remove(controller, act, command.bot_name or "")
        return
    taken = {seat["id"] for seat in act.state["seats"]}
    name = command.bot_name or next((name for name in NAMES if _bot_id(name) not in taken), None)
    if name is None or not _NAME.match(name):
        raise act.refuse("odds.bot_bad_name", name=quote_input(name or ""))
    bot_id = _bot_id(name)
    if bot_id in taken:  # named as the table shows him ("🤖 Deuce"), whatever case was typed
        raise act.refuse("odds.bot_name_taken", name=act.name(bot_id))
    if len(act.state["seats"]) >= controller.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    chips = int(controller.config(act, "buy_in"))
    act.tx.ensure_player(act.place.chat_id, bot_id, BOT_MARK + name)
    act.move(house_account(act), controller.stack_account(act, bot_id), chips, Reason.PRACTICE_SEAT)
    controller.sit(act, bot_id, chips)
    act.say("odds.bot_joined", player=act.name(bot_id), chips=chips)
    controller._maybe_schedule_next(act)
    act.show_table(controller.table_message(act))


def _bot_id(name: str) -> str:
    return BOT_PREFIX + name.lower()


def _remove(controller: HoldemTable, act: Action, name: str) -> None:
    seat = controller.seat(act, _bot_id(name))
    if seat is None:
        raise act.refuse("odds.bot_unknown", name=quote_input(name))
    hand = controller._hand(act)
    if hand is not None and seat["id"] in hand.players:
        if seat.get("leaving"):
            raise act.refuse("odds.bot_already_leaving", player=act.name(seat["id"]))
        seat["leaving"] = True
        act.say("odds.bot_leaving", player=act.name(seat["id"]))
        return
    controller._stand_up(act, seat)
    act.show_table(controller.table_message(act))


def left_alone(state: dict[str, Any]) -> bool:
    """Whether only computer players sit at this cash table and no hand is in play: nobody is left for them to play
    with, so they stand up (`stand_up_alone`)."""
    seats = state.get("seats") or []
    return bool(seats) and not state.get("tournament") and not state.get("hand") and not has_human(seats)


def stand_up_alone(controller: HoldemTable, act: Action) -> bool:
    """After a human stood up at a cash table (or at start-up, where an older version or a crash left them so): when
    only computer players are left seated (and no hand is in play), they stand up too, their stacks back to the house,
    said in one line. False when they did not (a human sits, a hand is in play, or nobody sits)."""
    if not left_alone(act.state):
        return False
    seats = act.state["seats"]
    names = [act.name(seat["id"]) for seat in seats]
    chips = sum(controller.cash_out(act, seat) for seat in list(seats))
    act.say("odds.bots_alone", players=", ".join(names), count=len(names), chips=chips)
    return True


def play_turn(controller: HoldemTable, act: Action) -> None:
    """The computer player to act plays the practice strategy's action (a timer of kind "bot" fired)."""
    hand = controller._hand(act)
    if hand is None or not is_bot(hand.to_act):
        return
    player = hand.to_act
    assert player is not None
    action = decide(View(hand.hole_cards(player), hand.board, hand.legal_actions(), hand.pot_total, hand.level))
    if not hand.can_act(player, action):
        action = hand.timeout_action()
    controller._commit(act, hand, hand.act(player, action))
