"""`/game`: the game a table already plays, named again, is answered so and keeps the table's settings; another game
starts the table afresh in it, every setting at that game's defaults, as it always did."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE, dump
from tests.bot.helpers import resumed_table
from tests.bot.test_service_games import listed_settings

CHANGED: dict[str, dict[str, tuple[str, str]]] = {
    "holdem": {"structure": ("no-limit", "no-limit"), "straddle": ("on", "on"), "level": ("50", "50")},
    "omaha": {"max_seats": ("9", "9"), "run_it_twice": ("off", "off")},
    "texas": {"max_ante": ("50", "50"), "bet_seconds": ("20", "20")},
    "russian": {"max_payout": ("5000", "5,000")},
    "caribbean": {"re_exchange": ("on", "on"), "bonus": ("20", "20")},
    "three-card": {"tier": ("vip", "VIP (vip)"), "ante_bonus": ("always", "always")},
}
"""Each game's options an organizer changes (`/set name typed`), and how `/set` then lists them; every table's time
zone and pictures too (`ZONE_AND_PICTURES`)."""

ZONE_AND_PICTURES = {"timezone": ("Europe/Moscow", "Europe/Moscow"), "pictures": ("off", "off")}

CARIBBEAN_DEFAULTS = {
    "min_ante": "1", "max_ante": "100", "max_payout": "10,000", "bet_seconds": "30", "turn_seconds": "60",
    "pictures": "on", "bonus": "10", "re_exchange": "off", "timezone": "UTC"}
THREE_CARD_DEFAULTS = {
    "min_ante": "1", "max_ante": "50", "max_payout": "no cap (off)", "bet_seconds": "30", "turn_seconds": "60",
    "pictures": "on", "tier": "LITE (lite)", "ante_bonus": "when the player wins or ties (win)", "timezone": "UTC"}
HOLDEM_DEFAULTS = {
    "structure": "home-limit", "level": "20", "buy_in": "400", "min_buy_in": "200", "max_buy_in": "2,000",
    "turn_seconds": "60", "next_hand_seconds": "8", "max_seats": "10", "pictures": "on", "time_bank": "60",
    "straddle": "off", "away_minutes": "30", "run_it_twice": "on", "timezone": "UTC"}


async def configured(service: Service, game: str) -> dict[str, str]:
    """The table made to play `game` (a new table plays Hold'em already) with its options and time zone changed
    (`CHANGED`) by Ann, its organizer; the settings as `/set` then lists them."""
    await service.handle(PLACE, ANN, f"/game {game}")
    changes = {**CHANGED[game], **ZONE_AND_PICTURES}
    for name, (typed, _) in changes.items():
        reply = await service.handle(PLACE, ANN, f"/set {name} {typed}")
        assert reply.error is None, reply.error
    listed = await listed_settings(service)
    assert {name: listed[name] for name in changes} == {name: shown for name, (_, shown) in changes.items()}
    return listed


async def stored_config(service: Service) -> dict[str, Any]:
    """The table's settings (`config`) as a restart reads them from the store."""
    resumed = await service.store.read(lambda tx: resumed_table(service.store, tx, PLACE.table_id))
    assert resumed is not None
    return resumed[0]


@pytest.mark.parametrize(("game", "language", "answer"), [
    ("holdem", "en", "This table already plays Texas Hold'em."),
    ("omaha", "en", "This table already plays Pot-Limit Omaha."),
    ("texas", "en", "This table already plays Texas Poker."),
    ("russian", "en", "This table already plays Russian Poker."),
    ("caribbean", "en", "This table already plays Caribbean Poker."),
    ("three-card", "en", "This table already plays Three Card Poker."),
    ("caribbean", "ru", "За этим столом уже идёт эта игра: Карибский покер."),
    ("omaha", "ru", "За этим столом уже идёт эта игра: Омаха пот-лимит."),
])
async def test_the_game_the_table_plays_named_again_keeps_its_settings(service: Service, game: str, language: str,
                                                                       answer: str) -> None:
    """`/game caribbean` at a Caribbean table set back every option (`re_exchange` off again): a card room does not
    wipe a table's settings because someone names the game it already plays."""
    await configured(service, game)
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    listed = await listed_settings(service)
    config = await stored_config(service)
    before = dump(service.store.location)
    for actor in (ANN, BOB):  # the organizer, and a player who could not change the game
        reply = await service.handle(PLACE, actor, f"/game {game.upper()}")
        assert (reply.error, reply.public, reply.private, reply.table) == (answer, [], {}, None)
    assert dump(service.store.location) == before
    assert await stored_config(service) == config
    assert await listed_settings(service) == listed


async def test_the_game_named_again_during_a_round_is_answered_so_and_another_waits_for_the_round(
        service: Service) -> None:
    await configured(service, "caribbean")
    for line in ("/ante 10", "/deal"):
        assert (await service.handle(PLACE, ANN, line)).error is None
    before = dump(service.store.location)
    for line, refusal in (("/game caribbean", "This table already plays Caribbean Poker."),
                          ("/game russian", "Finish the round in progress first.")):
        reply = await service.handle(PLACE, ANN, line)
        assert (reply.error, reply.public) == (refusal, [])
    assert dump(service.store.location) == before


async def test_another_game_starts_the_table_afresh_at_its_defaults(service: Service) -> None:
    """What `/game` always did for another game: the table's settings go, its new game's defaults apply (the time
    zone too), and naming the first game again gives that game's defaults, not the options it had."""
    await configured(service, "caribbean")
    refused = await service.handle(PLACE, BOB, "/game three-card")
    assert refused.error == "Only the organizer — Ann — can do that."
    switched = await service.handle(PLACE, ANN, "/game three-card")
    assert (switched.error, switched.public) == (
        None, ["This table now plays Three Card Poker: place your ANTE with /ante chips."])
    assert await stored_config(service) == {"game": "three-card"}
    assert await listed_settings(service) == THREE_CARD_DEFAULTS
    back = await service.handle(PLACE, ANN, "/game caribbean")
    assert back.public == ["This table now plays Caribbean Poker: place your ANTE with /ante chips."]
    assert await listed_settings(service) == CARIBBEAN_DEFAULTS


async def test_a_holdem_tables_settings_go_with_a_change_of_game_and_not_without(service: Service) -> None:
    listed = await configured(service, "holdem")
    assert (await service.handle(PLACE, ANN, "/game holdem")).error == "This table already plays Texas Hold'em."
    assert await listed_settings(service) == listed
    assert (await service.handle(PLACE, ANN, "/game omaha")).error is None
    back = await service.handle(PLACE, ANN, "/game holdem")
    assert back.public == ["This table now plays Texas Hold'em. /join to sit down."]
    assert await stored_config(service) == {"game": "holdem"}
    assert await listed_settings(service) == HOLDEM_DEFAULTS
