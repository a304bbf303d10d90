"""A tournament created with `pawns 0` takes no pawned item (RULES.md §1: the limit is a setting): its hands are dealt
with no pawn rules, as a cash table's, so nothing in a hand can offer or accept one; a hand dealt with them before
(by an older version) resumes as it was, and the tournament still refuses its pawns."""

import json

import pytest

from bot.store import Store
from engine.common import RuleError
from engine.holdem import Hand, Pawn
from tests.bot.conftest import ANN, CAT, PLACE
from tests.bot.helpers import ledger_ok, play, refused_without_change, restart_after_downtime, rewrite_saved_hand
from tests.bot.test_service_tournament import CAT_SHORT, cat_short_of_the_call, night_of

NO_PAWNING = {"en": "This tournament takes no pawned items: the organizer created it without pawning.",
              "ru": "В этом турнире вещи в залог не принимают: организатор создал его без залогов."}


async def test_a_tournament_without_pawning_deals_hands_that_take_no_pawn(store: Store, decks: list[str]) -> None:
    """Its hands were dealt ready to take an item worth 100 chips, which only the tournament's own check kept out:
    the hand itself now has no pawning in it, and refuses one as a cash table's does."""
    service, clock = await night_of(store, "home-night pawns 0")
    await cat_short_of_the_call(service, clock, decks)
    live = service.live_state(PLACE.table_id)
    assert live is not None
    saved = json.loads(live)[1]["hand"]
    assert saved["pawn_rules"] == {"value": 0}
    hand = Hand.from_dict(saved)
    assert hand.to_act == "cat" and hand.legal_actions().can_pawn is False  # Cat is short of Ann's all-in
    with pytest.raises(RuleError) as refused:
        hand.act("cat", Pawn("leather jacket"))
    assert refused.value.code == "pawn_disabled"


async def test_a_hand_dealt_with_pawn_rules_before_resumes_as_it_was_and_takes_no_pawn(
        store: Store, decks: list[str]) -> None:
    """A `pawns 0` tournament's hand as an older version saved it, ready to take an item for 100 chips: after a
    restart it resumes as it was saved, offers Cat no pawn, refuses his `/pawn` with the reason and plays on."""
    service, clock = await night_of(store, "home-night pawns 0")
    await cat_short_of_the_call(service, clock, decks)
    await rewrite_saved_hand(store, PLACE, clock.now(), lambda hand: hand.update(pawn_rules={"value": 100}))
    await store.close()
    reopened, restarted, _ = await restart_after_downtime(store.location, clock)
    try:
        live = restarted.live_state(PLACE.table_id)
        assert live is not None and json.loads(live)[1]["hand"]["pawn_rules"] == {"value": 100}
        drawn = await restarted.handle(PLACE, CAT, "/table")
        assert drawn.table is not None and drawn.table.text == CAT_SHORT.format(stack=280, pawned="", line="")
        for actor in (CAT, ANN):  # Cat to act and short, Ann all-in
            await refused_without_change(restarted, actor, "/pawn leather jacket", NO_PAWNING)
        await play(restarted, (CAT, "/call"))
        await ledger_ok(restarted)
    finally:
        await reopened.close()
