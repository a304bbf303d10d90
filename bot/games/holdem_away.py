"""Away and back at a Hold'em table (RULES.md §1a): `/away`, `/back` and its choice of posting a big blind or waiting
for it, the players dealt in or left waiting at a deal, and the stand-up of a cash player away too long.

State it keeps, beside the controller's: per seat `away_since` and `away_number` (when he went away, and the table's
hand number then) and `back` ("ask": returning at a cash table and not yet chosen, "wait": waiting for the big blind,
"post": posting one in the next hand).
"""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.command_parser import button_payload
from bot.games import holdem_straddle as straddling
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.output import Button
from engine.common import Event
from engine.seating import dealing_order


def actor_seat(ctl: HoldemTable, act: Action) -> dict[str, Any]:
    """The seat of the player who sent the command; refused "not seated" when he has none (`/away`, `/back`,
    `/leave`)."""
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise act.refuse("not_seated")
    return seat


def away(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/away`: sit out from the next hand, keeping seat and stack (a tournament deals him in and blinds him out from
    then on); the hand he holds cards in he plays out. An `/away` an older version logged (`cmd.Away.from_next_hand`
    False) blinded a tournament player out at once, his turn played then if it was his: it replays so."""
    assert isinstance(command, cmd.Away)
    seat = actor_seat(ctl, act)
    if seat["out"]:
        raise act.refuse("holdem.already_away")
    act.say("holdem.away_tournament" if act.state.get("tournament") else "holdem.away", player=act.name(act.user))
    events = mark_away(ctl, act, seat, at_once=not command.from_next_hand)
    hand = ctl._hand(act)
    if events and hand is not None:  # an older version's: his turn, played at once
        ctl._commit(act, hand, events)
    else:
        act.show_table(ctl.table_message(act))


def mark_away(ctl: HoldemTable, act: Action, seat: dict[str, Any], *, at_once: bool) -> list[Event]:
    """Sit a player out (by `/away` or after time-outs) and start counting how long he is away: from the next deal a
    cash table deals him out, a tournament deals him in and blinds him out (RULES.md §1a; `is_blinded_out`). The hand
    he is in he plays out like anyone (his turn time and time bank, his time-out checking or folding), unless
    `at_once` in a tournament: then he is blinded out of it from now on, his hand folded at his turn, at once (the
    events of this one if it is his, for the caller to commit). A straddle he announced for the next hand is dropped,
    and the table told."""
    seat["out"], seat["back"], seat["away_since"] = True, "", act.now
    seat["away_number"] = act.state.get("number", 0)  # the hand in play or the last one: he has missed none yet
    if act.state.get("straddle") == seat["id"]:  # the table heard it announced: it hears it dropped
        straddling.drop_next(act, seat["id"], act.t("holdem.straddle_away"))
    arm_stand_up(ctl, act)
    hand = ctl._hand(act)
    if not at_once or not act.state.get("tournament") or hand is None or seat["id"] not in hand.players:
        return []
    events = hand.set_absent(seat["id"], True)
    act.state["hand"] = hand  # the live table keeps the engine object
    return events


def back(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/back` (or `/join` while away): return. At a cash table where a game goes on, the player chooses to post a big
    blind in the next hand or to wait for the big blind to reach him (`/back post`, `/back wait`, or the buttons)."""
    assert isinstance(command, (cmd.Back, cmd.Join))
    seat = actor_seat(ctl, act)
    choice = command.choice if isinstance(command, cmd.Back) else None
    if not seat["out"] and seat.get("back") not in ("ask", "wait", "post"):
        raise act.refuse("holdem.not_away")
    if not seat["out"] and choice is not None and seat.get("back") == choice:
        raise act.refuse("already_done")
    if not seat["out"] and choice is None:
        raise act.refuse("holdem.back_choose")
    if not _choice_needed(ctl, act, seat):
        seat["out"], seat["timeouts"], seat["back"], seat["away_since"] = False, 0, "", None
        act.say("holdem.back_in", player=act.name(act.user))
        hand = ctl._hand(act)
        if hand is not None and act.user in hand.players:  # a tournament's: his turns in this hand are his again
            hand.set_absent(act.user, False)
            act.state["hand"] = hand  # the live table keeps the engine object
    else:
        seat["out"], seat["timeouts"], seat["away_since"] = False, 0, None
        seat["back"] = choice or "ask"
        if choice is None:
            act.tell(act.user, "holdem.back_choose")
        else:
            act.say(f"holdem.back_{choice}", player=act.name(act.user))
    arm_stand_up(ctl, act)
    ctl._maybe_schedule_next(act)
    act.show_table(ctl.table_message(act))


def _choice_needed(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> bool:
    """Whether a returning player chooses how to come back: at a cash table that has dealt a hand without him since he
    went away, with two others dealt in (else he simply plays the next hand)."""
    if act.state.get("tournament") or act.state.get("button", -1) < 0:
        return False
    if seat["out"] and seat.get("away_number") == act.state.get("number", 0):
        return False
    return sum(1 for other in ctl.eligible(act) if other is not seat) >= 2


def is_blinded_out(act: Action, seat: dict[str, Any] | None) -> bool:
    """Whether the seat is a tournament's absent player blinded out of the hand in play (RULES.md §1a): away since
    before it was dealt, so the engine folds his hand the moment his turn comes; a turn of his that reaches the table
    anyway (in a hand an older version dealt) passes after a moment, with no time bank and no time-out told. One who
    went away during the hand (his `away_number` is its number) plays it out like anyone, as a cash table's player
    does; one sat out by time-outs during it is blinded out of the rest of it in the engine (`mark_away`)."""
    return (seat is not None and bool(seat["out"]) and bool(act.state.get("tournament"))
            and seat.get("away_number") != act.state.get("number"))


def is_waiting(seat: dict[str, Any]) -> bool:
    """Whether a returning player is not dealt in yet: still choosing, or waiting for the big blind."""
    return seat.get("back") in ("ask", "wait")


def waiting_to_deal(ctl: HoldemTable, act: Action) -> list[dict[str, Any]]:
    """The returning players waiting for the big blind (or still choosing) who are dealt in at once because without
    them fewer than two players would be: a card room does not make a player wait when waiting would stop the game
    (he posts no extra blind, only the blind of his place). None at a tournament or where two others play."""
    if act.state.get("tournament") or len(ctl.eligible(act)) >= 2:
        return []
    return [seat for seat in act.state["seats"] if is_waiting(seat) and seat["stack"] > 0]


def deal_in_rather_than_stop(ctl: HoldemTable, act: Action) -> None:
    """Before a deal: the players of `waiting_to_deal` stop waiting and are dealt in."""
    for seat in waiting_to_deal(ctl, act):
        seat["back"] = ""


def deal_in_waiting(ctl: HoldemTable, act: Action, button: int) -> None:
    """Before a deal with `button`: a player waiting for the big blind on whom it now falls is dealt in."""
    seats = act.state["seats"]
    present = [ctl._dealt_in(act, seat) or (seat.get("back") == "wait" and seat["stack"] > 0) for seat in seats]
    if sum(present) < 2:
        return
    order = dealing_order(present, button)
    big = order[1] if len(order) == 2 else order[2]
    if seats[big].get("back") == "wait":
        seats[big]["back"] = ""


def posting(act: Action) -> list[str]:
    """The returning players who post a big blind in the hand about to be dealt (their choice is then done)."""
    posting = [seat["id"] for seat in act.state["seats"] if seat.get("back") == "post"]
    for seat in act.state["seats"]:
        if seat.get("back") == "post":
            seat["back"] = ""
    return posting


def stand_up_away(ctl: HoldemTable, act: Action) -> None:
    """The stand-up timer: at a cash table, players away longer than `away_minutes` stand up (after the hand they
    are in), their stacks going back to their wallets."""
    limit = 60 * ctl.config(act, "away_minutes")
    hand = ctl._hand(act)
    stood = False
    for seat in list(act.state.get("seats", [])):
        since = seat.get("away_since")
        if act.state.get("tournament") or not seat["out"] or since is None or act.now - since < limit:
            continue
        act.say("holdem.away_too_long", player=act.name(seat["id"]), minutes=limit // 60)
        seat["away_since"] = None
        if hand is not None and seat["id"] in hand.players:
            seat["leaving"] = True
        else:
            ctl._stand_up(act, seat)
            stood = True
    if stood:
        bots.stand_up_alone(ctl, act)
    arm_stand_up(ctl, act)
    if stood:
        act.show_table(ctl.table_message(act))


def arm_stand_up(ctl: HoldemTable, act: Action) -> None:
    """Arm (or disarm) the stand-up timer for the first cash player away (again when `away_minutes` changes)."""
    key = f"holdem:{act.place.table_id}:away"
    times = [seat["away_since"] for seat in act.state.get("seats", []) if seat["out"] and seat.get("away_since")]
    if act.state.get("tournament") or not times:
        act.disarm(key)
        return
    act.arm(key, max(0.0, min(times) + 60 * ctl.config(act, "away_minutes") - act.now), kind="away")


def away_buttons(act: Action, key: str, decision: str = "") -> tuple[Button, ...]:
    """"Post a big blind" and "Wait for the big blind", while a returning player has not chosen: on any message of
    the hand in play, or between hands on the table's current state (`decision`, as the Deal button)."""
    if not any(seat.get("back") == "ask" for seat in act.state.get("seats", [])):
        return ()
    return (Button(act.t("button.back_post"), button_payload(key, "back post", decision)),
            Button(act.t("button.back_wait"), button_payload(key, "back wait", decision)))
