"""A Hold'em table's settings: their defaults, the structures each variant offers, and `/set` for them."""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.command_parser import whole_number
from bot.games import holdem_away as absence
from bot.games import holdem_showdown as showdown
from bot.games import holdem_straddle as straddling
from bot.games import holdem_timebank as timebank
from bot.games import holdem_topup as topup
from bot.games import tournament as tour
from bot.games import zones
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.render import picture_views as picture
from engine import holdem as engine
from engine.betting import is_valid_level

DEFAULTS: dict[str, Any] = {
    "structure": "home-limit",
    "level": 20,
    "buy_in": 400,
    topup.MIN_SETTING: None,
    topup.SETTING: None,
    "turn_seconds": 60,
    "next_hand_seconds": 8,
    "max_seats": 10,
    "pictures": "on",
    "time_bank": 60,
    "straddle": "off",
    "away_minutes": 30,
    "run_it_twice": "on",
}
"""A cash table's defaults: `/set name value` changes them (organizer). The minimum and maximum buy-ins have no number
of their own: unset, they are a number of levels (`topup.minimum`) and of buy-ins (`topup.maximum`)."""

VARIANT_STRUCTURES: dict[engine.Variant, tuple[str, ...]] = {
    engine.Variant.HOLDEM: ("home-limit", "fixed-limit", "no-limit"),
    engine.Variant.OMAHA: ("pot-limit",),
}
"""The betting structures a table of each variant offers (RULES.md §1 for Hold'em, §1b: Omaha is pot limit); the
first is the default."""

_WORDS: dict[str, tuple[str, ...]] = {"straddle": ("on", "off"), picture.SETTING: picture.VALUES,
                                      showdown.SETTING: showdown.VALUES}
"""The settings that take a word, and the words they take (the structure's are its variant's: `VARIANT_STRUCTURES`)."""

_CASH_SETTINGS = frozenset({"level", "buy_in", topup.MIN_SETTING, topup.SETTING})
"""Settings a tournament does not read (its schedule sets the level, its buy-in is its own): changed while one is at
the table, they would be said to apply from the next hand and not apply, so they are refused until it ends."""
_NEXT_HAND_SETTINGS = frozenset({"structure", "level", "turn_seconds", "run_it_twice"})
"""Settings a hand in play keeps as it was dealt (its structure, its level, its turns' time, whether it offers to run
it twice: its `ShowdownRules`): they apply from the next hand (the turn time is fixed when the hand is dealt)."""


def configure(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/set`: list the table's settings, or change one (organizer), saying what follows from it."""
    assert isinstance(command, cmd.Setting)
    if command.key is None:
        values = {name: ctl.config(act, name) for name in DEFAULTS} | {
            topup.MIN_SETTING: topup.minimum(ctl, act), topup.SETTING: topup.maximum(ctl, act)}
        zones.list_settings(act, values.items())
        return
    act.require_organizer()
    if command.key == zones.SETTING:
        tour.zone_set(ctl, act, zones.set_table_zone(act, command.value))
        return
    if command.key not in DEFAULTS:
        raise zones.unknown_setting(act, command.key, DEFAULTS)
    if command.key in _CASH_SETTINGS and act.state.get("tournament"):
        raise act.refuse("settings.tournament_sets", name=command.key)
    value: Any = command.value
    words = VARIANT_STRUCTURES[ctl.variant] if command.key == "structure" else _WORDS.get(command.key)
    if words is not None:
        value = zones.chosen(act, command.key, value, words)
    else:
        most = ctl.variant.max_players  # one deck deals 22 Hold'em hands, 11 Omaha hands
        # what the setting takes, said whatever was wrong with the value: a time bank of 0 is none
        choices = {"time_bank": "0, 1, 2…", "level": "2, 4, 6…", "max_seats": f"2…{most}"}.get(command.key,
                                                                                             "1, 2, 3…")
        number = whole_number(str(value))
        if (number is None or number < (0 if command.key == "time_bank" else 1)
                or (command.key == "level" and not is_valid_level(number))
                or (command.key == "max_seats" and not 2 <= number <= most)):
            raise zones.bad_value(act, command.key, value, choices)
        value = number
    buy_in = _buy_in_follows(ctl, act, command.key, value)
    if command.key == topup.SETTING:
        topup.check_maximum(ctl, act, value)
    act.config[command.key] = value
    if command.key == "away_minutes":  # whoever is away now stands up at the new time
        absence.arm_stand_up(ctl, act)
    next_hand = command.key in _NEXT_HAND_SETTINGS and bool(act.state.get("hand"))
    zones.say_set(act, command.key, value, next_hand=next_hand)
    if buy_in is not None:
        act.config["buy_in"] = buy_in
        act.say("settings.buy_in_follows" if command.key == "level" else "settings.buy_in_follows_minimum",
                buy_in=buy_in)
    topup.maximum_follows(ctl, act)
    if command.key == "level":
        straddling.straddle_after_level(ctl, act)
    if command.key == "time_bank" and value == 0 and timebank.bank_turned_off(ctl, act):
        ctl._time_out(act)


def _buy_in_follows(ctl: HoldemTable, act: Action, key: str, value: Any) -> int | None:
    """Keep the table's buy-in at least its minimum buy-in (`topup.minimum`), so that a plain `/join` (and a
    practice player's seat) is never refused: a `/set buy_in` below it is refused, a `/set level` or
    `/set min_buy_in` that puts the minimum above it raises the buy-in with it (the new buy-in, which the caller
    announces; None when it stays)."""
    if key == topup.MIN_SETTING:
        return topup.check_minimum(ctl, act, value)
    if key not in ("level", "buy_in"):
        return None
    minimum = topup.minimum(ctl, act, value if key == "level" else None)
    if key == "buy_in" and value < minimum:
        raise act.refuse("holdem.buy_in_too_small", chips=value, minimum=minimum)
    if key == "level" and int(ctl.config(act, "buy_in")) < minimum:
        return minimum
    return None
