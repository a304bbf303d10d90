"""A house round's buttons: what each acts on (the open bets, or one box's decision), and their labels and commands."""

from __future__ import annotations

from bot.command_parser import button_payload
from bot.games.context import Action
from bot.i18n import format_number
from bot.output import Button
from engine.house.common import HouseRound, Phase

_ACTION_COMMAND = {
    "fold": "fold",
    "play": "play",
    "bet": "play",
    "buy": "buy",
    "dealer_game": "dealergame",
    "decline": "decline",
}
"""The command a decision's button sends (an exchange's names its cards: built in `buttons`)."""


def decision_tag(round_: HouseRound, step: int) -> str:
    """What a house-game button acts on: the open bets (`bets`, for Deal), else the box to act at the round's step
    (`b2s7`), so a second press of Fold cannot fold the next box."""
    if round_.phase is Phase.BETTING:
        return "bets"
    box = round_.to_act[1] if round_.to_act else 0
    return f"b{box}s{step}"


def buttons(act: Action, round_: HouseRound, key: str, step: int, selected: tuple[int, ...]) -> list[Button]:
    """The round's buttons at `step`: "My cards", then Deal while bets are open, else one per option of the box to act
    (an exchange's as a toggle per card, `selected` the positions marked, and the exchange of those)."""
    drawn = [Button(act.t("button.my_cards"), button_payload(key, "cards"), private=True)]
    decision = decision_tag(round_, step)
    if round_.phase is Phase.BETTING:
        return [Button(act.t("button.deal"), button_payload(key, "deal", decision)), *drawn]
    legal = round_.legal_actions()
    box = round_.current_box()
    for option in legal.options:
        if option.max_cards:
            if box is None:
                continue
            picked = [position for position in selected if 1 <= position <= len(box.cards)]
            for position in range(1, len(box.cards) + 1):
                mark = "☑" if position in picked else "☐"
                toggled = sorted(set(picked) ^ {position})
                # The first toggle says what they choose; the cards themselves stay off these public buttons.
                label = (act.t("house.toggle_exchange", mark=mark, position=position) if position == 1
                         else f"{mark} {position}")
                drawn.append(Button(label, button_payload(key, _select_text(toggled), decision)))
            if option.min_cards <= len(picked) <= option.max_cards:
                label = (act.t(f"house.action.{option.name}") + f" {' '.join(map(str, picked))} "
                         f"({_chips(act, option.cost_for(len(picked)))})")
                command = "exchange " + " ".join(map(str, picked))
                drawn.append(Button(label, button_payload(key, command, decision)))
            continue
        label = act.t(f"house.action.{option.name}") + (f" ({_chips(act, option.cost)})" if option.cost else "")
        drawn.append(Button(label, button_payload(key, _ACTION_COMMAND[option.name], decision)))
    return drawn


def _chips(act: Action, chips: int) -> str:
    """A button's chips as the table's language writes numbers ("Play (2,000)", «Играть (2 000)»), as its lines do."""
    return format_number(act.voice.language, chips)


def _select_text(positions: list[int]) -> str:
    return "select " + " ".join(map(str, positions)) if positions else "select"
