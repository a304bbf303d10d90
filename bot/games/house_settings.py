"""A house table's settings: the rules it plays by, its timers, and `/set` for them (RULES.md's limits and options)."""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.command_parser import whole_number
from bot.games import zones
from bot.games.context import Action
from bot.render import picture_views as picture
from engine.common import RuleError
from engine.house.boxes import Limits
from engine.house.common import HouseRound
from engine.house.three_card import TIERS_LIMITS, tier_of, with_tier

BET_SECONDS = 30
"""After the first ANTE of a round, bets close and the cards are dealt this many seconds later (or on /deal)."""
TURN_SECONDS = 60
"""A box that does not decide in time folds (or declines the dealer game)."""
NO_CAP = "off"
"""`max_payout`'s value where a table caps no payment (as `/set` lists it and takes it)."""

_RULE_CHOICES: dict[str, tuple[str, dict[str, Any]]] = {
    "ante_bonus": ("ante_bonus_always", {"win": False, "always": True}),
    "re_exchange": ("re_exchange_limit", {"off": 0, "on": 1}),
}
"""Table options (RULES.md) that `/set name word` chooses, at the games whose rules have the field: the field and what
each word sets it to. Three Card Poker's ante bonus pays when the player wins or ties, or whenever he plays; Caribbean
Poker's re-exchange swaps a single card again (for 2×ANTE)."""

_LIMIT_FIELDS: dict[str, tuple[str, ...]] = {"bonus": ("min_side", "max_side")}
"""Settings that set table limits of another name (else the limit of the setting's name): Caribbean Poker's bonus bet
has one fixed size (RULES.md §4)."""

NO_TIER = "—"
"""What `/set` lists as Three Card Poker's tier when the table's ranges are no tier's (an organizer changed one)."""


def table_rules(round_type: type[HouseRound], config: dict[str, Any]) -> Any:
    """The rules a table of this game plays by: the game's defaults with the table's `/set` changes."""
    rules_type = round_type.rules_type
    return rules_type.from_dict({**rules_type().to_dict(), **config.get("rules", {})})


def bet_seconds(config: dict[str, Any]) -> int:
    """How long bets stay open after a round's first ANTE."""
    return int(config.get("bet_seconds", BET_SECONDS))


def turn_seconds(config: dict[str, Any]) -> int:
    """How long a box's turn lasts: its timer's seconds, which the table message shows."""
    return int(config.get("turn_seconds", TURN_SECONDS))


def configure(act: Action, game: str, rules: Any, command: cmd.Setting) -> None:
    """`/set` for house tables: ANTE limits, maximum payout, the timers, pictures, and the game's own options
    (RULES.md): Three Card Poker's tier and when its ante bonus pays, Caribbean Poker's bonus bet size and its
    re-exchange. Without a name, the table's settings listed to the actor."""
    current = _current(act, game, rules)
    if command.key is None:
        zones.list_settings(act, ((name, NO_CAP if value is None else value) for name, value in current.items()))
        return
    act.require_organizer()
    if command.key == zones.SETTING:  # the times of its `/export ledger`; a round in play does not read it
        zones.set_table_zone(act, command.value)
        return
    if command.key not in current:
        raise zones.unknown_setting(act, command.key, current)
    if act.state.get("round"):
        raise act.refuse("game.busy_round")
    value = str(command.value)
    number: int | None = None  # a number is said as the chat's language writes chips: 5,000 / 5 000
    limits: Limits = rules.limits
    if command.key == picture.SETTING:
        value = zones.chosen(act, command.key, value, picture.VALUES)
        act.config[picture.SETTING] = value
    elif command.key == "tier":
        value = zones.chosen(act, command.key, value, TIERS_LIMITS)
        _set_rules(act, limits=with_tier(limits, value).to_dict())  # its ranges (RULES.md §5); the cap stays
    elif command.key in _RULE_CHOICES:
        field, choices = _RULE_CHOICES[command.key]
        value = zones.chosen(act, command.key, value, choices)
        _set_rules(act, **{field: choices[value]})
    elif command.key == "max_payout" and value.lower() == NO_CAP:
        value = NO_CAP  # said as its label, whatever its case
        _set_rules(act, limits={**limits.to_dict(), "max_payout": None})
    else:
        number = whole_number(value)
        if number is None or number <= 0:
            raise zones.bad_value(act, command.key, value,
                                  "1, 2, 3…" + (f", {NO_CAP}" if command.key == "max_payout" else ""))
        if command.key in ("bet_seconds", "turn_seconds"):
            act.config[command.key] = number
        else:
            fields = _LIMIT_FIELDS.get(command.key, (command.key,))
            try:
                changed = Limits.from_dict({**limits.to_dict(), **dict.fromkeys(fields, number)})
            except RuleError as error:
                raise act.rule_refusal(error) from None
            _set_rules(act, limits=changed.to_dict())
    zones.say_set(act, command.key, value if number is None else number)


def _current(act: Action, game: str, rules: Any) -> dict[str, object]:
    """The table's settings by the names `/set` takes, as it lists them."""
    limits: Limits = rules.limits
    current: dict[str, object] = {
        "min_ante": limits.min_ante, "max_ante": limits.max_ante, "max_payout": limits.max_payout,
        "bet_seconds": act.config.get("bet_seconds", BET_SECONDS),
        "turn_seconds": act.config.get("turn_seconds", TURN_SECONDS),
        picture.SETTING: act.config.get(picture.SETTING, "on")}
    if game == "three-card":
        current["tier"] = tier_of(limits) or NO_TIER  # a tier is its ranges: a changed min_ante leaves it
    if game == "caribbean":
        current["bonus"] = limits.max_side
    for name, (field, choices) in _RULE_CHOICES.items():
        if hasattr(rules, field):
            chosen = getattr(rules, field)
            current[name] = next((word for word, value in choices.items() if value == chosen), chosen)
    return current


def _set_rules(act: Action, **changes: Any) -> None:
    """Keep rule fields (`limits` as its dict) among the table's changes to its game's default rules."""
    act.config["rules"] = {**act.config.get("rules", {}), **changes}
