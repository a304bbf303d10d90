"""A tiny scripted game for adapter tests: seats, a round with two secret cards each, check or fold in turn.

It exercises everything an adapter must show (public texts, private cards, one table message per round with the
buttons of the player to act, refusals, stale keys, a timer announcement, a bug) without the real games' rules.
"""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.command_parser import button_payload
from bot.games.context import Action, Refusal
from bot.output import Button, TableMessage
from engine.cards import Deck


class Duel:
    """The scripted game (registered as `duel` in `bot.games.CONTROLLERS` by the tests)."""

    def usage(self, command: type[cmd.Command], config: dict[str, Any], language: str) -> str | None:
        return None  # every command's general usage (`/help`)

    def handle(self, act: Action, command: cmd.Command) -> None:
        state = act.state
        state.setdefault("seats", [])
        state.setdefault("round", 0)
        if isinstance(command, cmd.Join):
            if act.user in state["seats"]:
                raise Refusal("You are already seated.")
            state["seats"].append(act.user)
            act.reply.public.append(f"{act.name(act.user)} sits down.")
            return
        elif isinstance(command, cmd.Deal):
            if state.get("cards"):
                raise Refusal("A round is in progress.")
            if len(state["seats"]) < 2:
                raise Refusal("Two players are needed.")
            state["round"] += 1
            deck = Deck(act.rng)
            state["cards"] = {user: " ".join(str(card) for card in deck.deal(2)) for user in state["seats"]}
            state["acted"] = []
            state["to_act"] = 0
            for user, cards in state["cards"].items():
                act.reply.tell(user, f"Your cards: {cards}")
            act.reply.public.append(f"Round {state['round']} dealt.")
        elif isinstance(command, (cmd.Check, cmd.Fold)):
            if act.user not in state["seats"]:
                raise Refusal("You are not seated at this table.")
            if not state.get("cards"):
                raise Refusal("No round is in progress.")
            if state["seats"][state["to_act"]] != act.user:
                raise Refusal("It is not your turn.")
            state["acted"].append(f"{act.name(act.user)} {command.name}s")
            state["to_act"] += 1
            if state["to_act"] == len(state["seats"]):
                act.show_table(self._message(act, over=True))
                act.reply.public.append(f"Round {state['round']} is over.")
                state["cards"] = {}
                return
        elif isinstance(command, cmd.Clock):
            act.arm(f"announce:{act.place.table_id}", 300, text="Level 2 in 5 minutes: blinds 20/40.")
            act.reply.public.append("Clock started.")
            return
        elif isinstance(command, cmd.Pawn) and command.item == "boom":
            raise RuntimeError("a bug in the game")
        else:
            raise Refusal(f"/{command.name} is not part of this game.")
        act.show_table(self._message(act))

    def _message(self, act: Action, over: bool = False) -> TableMessage:
        state = act.state
        key = f"r{state['round']}"
        lines = [f"Round {state['round']}", *state.get("acted", [])]
        if over or not state.get("cards"):
            return TableMessage(key, "\n".join([*lines, "Over."]))
        to_act = state["seats"][state["to_act"]]
        lines.append(f"To act: {act.name(to_act)}")
        buttons = (
            Button("Check", button_payload(key, "check")),
            Button("Fold", button_payload(key, "fold")),
            Button("My cards", button_payload(key, "cards"), private=True),
        )
        return TableMessage(key, "\n".join(lines), buttons, to_act)

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        act.reply.public.append(str(payload["text"]))
        return True

    def resume(self, act: Action) -> bool:
        return False  # nothing to check or void: it changed nothing

    def revive(self, state: dict[str, Any]) -> bool:
        return True

    def current_key(self, act: Action) -> str | None:
        return f"r{act.state['round']}" if act.state.get("cards") else None

    def is_busy(self, act: Action) -> bool:
        return bool(act.state.get("cards"))

    def table_message(self, act: Action) -> TableMessage | None:
        return self._message(act) if act.state.get("round") else None

    def private_view(self, act: Action, user_id: str) -> str | None:
        cards = act.state.get("cards", {}).get(user_id)
        return f"Your cards: {cards}" if cards else None
