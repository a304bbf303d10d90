"""What the tournament, the practice seats and the `holdem_*` modules beside the Hold'em controller (its options,
settings, seats, timers…) ask of the controller that calls them, so that none of them imports it (it imports them)."""

from __future__ import annotations

from typing import Any, Protocol

from bot.games.context import Action, Refusal
from bot.output import TableMessage
from engine import holdem as engine
from engine.common import Event


class HoldemTable(Protocol):
    """The Hold'em controller as `bot.games.tournament` (and its `tournament_play`), `bot.games.practice` and the
    `bot.games.holdem_*` modules use it: its variant, seats, hands, accounts, timers."""

    variant: engine.Variant

    def table_message(self, act: Action, hand: engine.Hand | None = None) -> TableMessage | None:
        """The hand's public view with the buttons for the player to act (or the seats between hands)."""

    def decision(self, act: Action) -> tuple[str, str] | None:
        """The hand (the last one between hands) and the step its buttons are drawn for, while there is a table."""

    def config(self, act: Action, name: str) -> Any:
        """A table setting, or its default."""

    def seat(self, act: Action, user_id: str) -> dict[str, Any] | None:
        """The player's seat, if he sits here."""

    def not_playing(self, act: Action) -> Refusal:
        """Why the actor takes no part in the hand: not dealt in, not seated, or out of the tournament."""

    def no_hand(self, act: Action) -> Refusal:
        """Why a hand's command finds no hand in play (a tournament's break, before its start, not seated…)."""

    def stack_account(self, act: Action, user_id: str) -> str:
        """The ledger account of a player's chips at this table."""

    def sit(self, act: Action, user_id: str, chips: int) -> None:
        """Give the player the next seat with `chips` (already on the table's stack account)."""

    def remove_seat(self, act: Action, seat: dict[str, Any]) -> None:
        """Take a seat away (the button keeps its place)."""

    def start_hand(self, act: Action, *, quiet: bool) -> None:
        """Deal the next hand when two players can play."""

    def cash_out(self, act: Action, seat: dict[str, Any]) -> int:
        """A cash table's player leaves with his stack (home: his wallet, or the house); the chips he left with."""

    def _stand_up(self, act: Action, seat: dict[str, Any]) -> None:
        """A player stands up, his chips going home; said with how many, or that he has none left."""

    def _commit(self, act: Action, hand: engine.Hand, events: list[Event], said: list[str] | None = None,
                after_own: str | None = None) -> None:
        """Write a hand's events (moves, history, story; `said` first, `after_own` after the player's own action's
        line) and save or finish it."""

    def spend_buttons(self, act: Action) -> None:
        """Between hands, make the buttons drawn so far stale (after a rebuy or an add-on)."""

    def _time_out(self, act: Action) -> None:
        """The player to act ran out of time: his hand checks or folds for him."""

    def _maybe_schedule_next(self, act: Action) -> None:
        """Arm the next hand's timer when one can be dealt."""

    def _account(self, act: Action, local: str) -> str:
        """The ledger account of an engine's local account name."""

    def _hand(self, act: Action) -> engine.Hand | None:
        """The hand in play, if any."""

    def eligible(self, act: Action) -> list[dict[str, Any]]:
        """Seats that are dealt in."""

    def _dealt_in(self, act: Action, seat: dict[str, Any]) -> bool:
        """Whether the seat is dealt into the next hand."""

    def _next_button(self, act: Action) -> int:
        """The seat the button moves to for the next hand."""

    def _timer(self, act: Action) -> str:
        """The key of the table's turn and next-hand timer."""
