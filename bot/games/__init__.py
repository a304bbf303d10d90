"""Game controllers: each turns commands into calls on one engine game and its events into text and buttons.

Here are the protocols a controller meets, among them every one checked at run time (`isinstance`): this module is
left interpreted in the compiled build (`bot.compiled`), whose classes `runtime_checkable` refuses."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bot.commands import Command
from bot.games.context import Action, Refusal
from bot.output import TableMessage


class Controller(Protocol):
    """What the service needs from a game. Every method runs inside the action's transaction."""

    side_bet: str | None
    """The side bet a house game's players may place (`pairplus`, `bonus`; "" for a house game without one), None
    for a game that is not played against the house: how a usage answer names the `pp`/`bonus` option."""

    def uses(self, command: type[Command]) -> bool:
        """Whether this game has the command (`/ante` is a house game's, `/raise` Hold'em's): one it has not is
        refused as not used in it, however its arguments were written."""

    def usage(self, command: type[Command], config: dict[str, Any], language: str) -> str | None:
        """What `command` takes at a table of this game with this `config`, in `language`, where it differs from its
        general usage (a house table's `/ante` names only the boxes and side bet it has); None for the general one."""

    def handle(self, act: Action, command: Command) -> None:
        """Apply a game command, or raise a refusal (`act.refuse(...)`)."""

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        """A deadline of this table came due (turn time-out, next hand, clock announcement); False when it is stale
        (a turn already played, a round that is over): it did nothing, so nothing is written for it."""

    def resume(self, act: Action) -> bool:
        """After a restart: check the snapshot can continue, else void the hand and return its chips (or do what else
        `revive` left to it). False when it changed nothing, so nothing is written for it."""

    def revive(self, state: dict[str, Any]) -> bool:
        """Make a stored state (plain JSON values, as a snapshot holds them) live in place, its hand or round read
        back into the engine object; False, the state unchanged, when it cannot be read back as it is (`resume` then
        voids it) or resuming has something to change: start-up resumes only such tables and keeps the others in
        memory. Runs outside any action."""

    def current_key(self, act: Action) -> str | None:
        """The key of the hand or round in progress (buttons carry it), None between hands."""

    def decision(self, act: Action) -> tuple[str, str] | None:
        """The hand key and the decision that buttons drawn now carry (`("h4", "s17")`), None when none is drawn.

        A press acts only when both still match: the decision names the state the button was drawn for (the box and
        the step), so pressing it twice does it once. Only called for presses that carry a decision.
        """

    def is_busy(self, act: Action) -> bool:
        """Whether chips are in play at the table (so the game may not be switched)."""

    def table_message(self, act: Action) -> TableMessage | None:
        """The public table message with the buttons for whoever must act."""

    def private_view(self, act: Action, user_id: str) -> str | None:
        """What only this player may see (his hole cards, his boxes), None when he has nothing."""


@runtime_checkable
class SpentPerPlayer(Protocol):
    """A game some of whose buttons a press spends for its presser alone (Hold'em between hands: a rebuy, an add-on),
    so that a button no longer drawn may still act for another player."""

    def still_acts(self, act: Action, key: str, decision: str) -> bool:
        """Whether a button of `key` drawn for `decision`, which buttons drawn now no longer carry, still acts for
        the presser."""


@runtime_checkable
class Exchanging(Protocol):
    """A game that names a box's cards by their positions for `/exchange` (the house games); read outside any
    action, from the game alone, for an adapter's suggestions as a member types."""

    def exchange_positions(self) -> tuple[int, ...]:
        """The positions `/exchange` may name at this game's tables: a box's every card, none where the game has
        no exchange."""


@runtime_checkable
class Retelling(Protocol):
    """A game whose hand or round in play keeps a story (`bot.render.story`), told in the chat's language."""

    def retell(self, act: Action) -> None:
        """Tell the story of the hand or round in play again in the chat's language now (`act.language`), unless it was
        told in it since the chat's latest change of language (`story.is_told_in`)."""


@runtime_checkable
class KnowsTakenDecisions(Protocol):
    """A game that keeps who took each decision of its round in play and how (a house round's boxes), so that an old
    decision button can be answered truly: "already done" only to the player who did just that."""

    def stale_decision(self, act: Action, decision: str, command: Command) -> Refusal | None:
        """The answer to `command` pressed on a button of the round in play drawn for `decision`, taken since; None
        when the game does not know that decision (the default answer stands)."""


def default_controllers() -> dict[str, Controller]:
    """Every game a table can play, by name: Hold'em, Pot-Limit Omaha and the four house games."""
    from bot.games.holdem import HoldemController
    from bot.games.house import HouseController
    from engine.holdem import Variant
    from engine.house import GAMES

    controllers: dict[str, Controller] = {"holdem": HoldemController(), "omaha": HoldemController(Variant.OMAHA)}
    controllers.update({name: HouseController(name) for name in GAMES})
    return controllers
