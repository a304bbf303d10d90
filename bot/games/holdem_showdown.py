"""Show or muck, run it twice and the rabbit hunt at a Hold'em table (RULES.md §1a): the commands, the buttons'
timers, the settings.

The engine decides the order and what is allowed (`engine.showdown`, `engine.runs`); this module gives the hand its
`ShowdownRules` from the table (`/set run_it_twice on|off`, each player's `/automuck on|off`, kept in the table's
state under `automuck_off`), applies `/show`, `/muck` and `/run once|twice` through the controller's commit path,
arms their timers (the run-it-twice question: `engine.runs.ANSWER_SECONDS`; show or muck: the turn time), and lets
the winner of an uncontested pot show his cards until the next hand is dealt (`won_uncontested` says he may; the
finished hand is the one kept for the rabbit hunt, `last_hand`, which `/rabbit` asks). Practice players agree to run
it twice at once and keep automuck on.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import commands as cmd
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.render import holdem as render
from bot.render import story
from engine import holdem as engine
from engine.common import Event, RuleError
from engine.runs import ANSWER_SECONDS

SETTING = "run_it_twice"
VALUES = ("on", "off")


def rules(controller: HoldemTable, act: Action, players: list[str]) -> engine.ShowdownRules:
    """The showdown options of a hand dealt now to `players`."""
    off = set(act.state.get("automuck_off", ()))
    return engine.ShowdownRules(muck=True, automuck=frozenset(player for player in players if player not in off),
                                run_it_twice=controller.config(act, SETTING) == "on")


def forget_uncontested(act: Action) -> None:
    """A new hand is dealt: the last uncontested winner may no longer show."""
    act.state.pop("won_uncontested", None)


def remember_uncontested(act: Action, hand: engine.Hand) -> None:
    """A hand just ended: when won without a showdown, its winner may show until the next deal (the hand is the one
    kept as `last_hand`: a flag here, not a second copy of it in every snapshot until then)."""
    if hand.result is not None and not hand.result.went_to_showdown:
        act.state["won_uncontested"] = True
    else:
        forget_uncontested(act)


def answer_for_bots(hand: engine.Hand) -> list[Event]:
    """Practice players asked "once or twice?" say twice at once (they have no opinion to wait for)."""
    events: list[Event] = []
    for player in [player for player in hand.runs_asked if bots.is_bot(player)]:
        if hand.runs_asked:
            events += hand.choose_runs(player, twice=True)
    return events


def waiting_timer(controller: HoldemTable, act: Action, hand: engine.Hand) -> tuple[str, float] | None:
    """The timer the hand waits on when it waits for the run-it-twice answers or for a show or muck: its kind and
    seconds; None when it waits for a betting action (or nothing)."""
    if hand.runs_asked:
        return "runs", ANSWER_SECONDS
    if hand.showing is not None:
        return "show", int(act.state.get("turn_seconds") or controller.config(act, "turn_seconds"))
    return None


def on_timer(controller: HoldemTable, act: Action, hand: engine.Hand, kind: str) -> None:
    """The answers did not all come in time (the board is run once: the story names who did not answer, and the
    run's own line says once), or the player asked to show or muck did not choose (his hand, which cannot win, is
    mucked)."""
    if kind == "runs" and hand.runs_asked:
        silent = ", ".join(act.name(player) for player in hand.runs_asked)
        controller._commit(act, hand, hand.runs_timeout(), [act.t("holdem.runs_timed_out", players=silent)])
    elif kind == "show" and hand.showing is not None:
        player = hand.showing
        story.name_said(act.state, player, act.name(player))
        controller._commit(act, hand, hand.showdown_timeout(), [act.t("holdem.timed_out", player=act.name(player))])


def handle(controller: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/show`, `/muck`, `/run once|twice` and `/automuck [on|off]`."""
    if isinstance(command, cmd.Automuck):
        _automuck(controller, act, command)
        return
    hand = controller._hand(act)
    if hand is None:
        if isinstance(command, cmd.Show):
            _show_won(controller, act)
            return
        raise controller.no_hand(act)
    if act.user not in hand.players:
        raise controller.not_playing(act)
    try:
        if isinstance(command, cmd.Run):
            events = hand.choose_runs(act.user, command.twice)
        else:
            events = hand.show_or_muck(act.user, isinstance(command, cmd.Show))
    except RuleError as error:
        if error.code == "not_your_turn":
            raise act.refuse("not_your_turn", player=act.name(hand.showing or "")) from None
        raise act.rule_refusal(error) from None
    controller._commit(act, hand, events)


def after_the_hand(act: Action, kept: str, missing: str, ask: Callable[[engine.Hand], list[Event]]) -> list[Event]:
    """Ask something of a finished hand kept in `state[kept]` (the rabbit hunt, the uncontested winner's show):
    refused with `missing` when none is kept, or with the engine's reason; its events go into the hand's history."""
    data = act.state.get(kept)
    if not data:
        raise act.refuse(missing)
    hand = engine.Hand.from_dict(data)
    try:
        events = ask(hand)
    except RuleError as error:
        raise act.rule_refusal(error) from None
    act.record(f"h{hand.hand_number}", events)
    return events


def rabbit(controller: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/rabbit`: the board cards the last hand would have dealt (RULES.md §1a): public, like the board; nothing
    changes but a line in the hand's history."""
    if act.state.get("hand"):
        raise act.refuse("rule.rabbit_running")
    events = after_the_hand(act, "last_hand", "holdem.rabbit_no_hand", lambda hand: hand.rabbit_hunt(act.user))
    act.say_text("\n".join(act.tell_narration(render.narrate(act.voice, events))))


def _show_won(controller: HoldemTable, act: Action) -> None:
    if not act.state.get("won_uncontested"):  # (a snapshot older than the flag holds the hand here: as good as True)
        raise act.refuse("holdem.nothing_to_show")
    events = after_the_hand(act, "last_hand", "holdem.nothing_to_show", lambda hand: hand.show_won(act.user))
    act.tell_narration(render.narrate(act.voice, events))  # its notice says it to the chat
    forget_uncontested(act)
    act.show_table(controller.table_message(act))


def _automuck(controller: HoldemTable, act: Action, command: cmd.Automuck) -> None:
    off: list[str] = act.state.setdefault("automuck_off", [])
    if command.on is not None:
        if command.on and act.user in off:
            off.remove(act.user)
        elif not command.on and act.user not in off:
            off.append(act.user)
        hand = controller._hand(act)
        if hand is not None:  # the hand in play follows the new choice
            automuck = set(hand.rules.automuck) | {act.user} if command.on else set(hand.rules.automuck) - {act.user}
            hand.rules = engine.ShowdownRules(hand.rules.muck, frozenset(automuck), hand.rules.run_it_twice)
            act.state["hand"] = hand
    act.tell(act.user, "holdem.automuck_off" if act.user in off else "holdem.automuck_on")


COMMANDS = (cmd.Show, cmd.Muck, cmd.Run, cmd.Automuck)
"""The commands this module handles for the Hold'em controller."""
