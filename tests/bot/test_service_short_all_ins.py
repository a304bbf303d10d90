"""Short all-ins played through the parser and the service (RULES.md §1): a covered short big blind is dealt on without
asking anyone, and in fixed limit a raise below half a bet is completed with the raise button; every chip is kept."""

from __future__ import annotations

from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import everything_public, ledger_ok, play_out, press_label

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


async def table_chips(service: Service) -> int:
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert await service.store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 0
    return sum(stacks.values())


async def test_a_covered_short_big_blind_is_dealt_on_without_asking(service: Service) -> None:
    # Heads-up at blinds 250/500: Ann (button) posts 250, Bob's big blind is all-in for 200. Nobody can act against
    # it, so nobody is asked to call or fold: 50 come back to Ann and the board is dealt to the showdown.
    assert (await service.handle(PLACE, ANN, "/join 400")).error is None
    assert (await service.handle(PLACE, BOB, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/set level 500")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    assert reply.error is None and reply.table is not None and reply.table.to_act is None
    text = everything_public(reply)
    assert "Ann posts the small blind 250." in text and "50 uncalled chips returned to Ann." in text
    assert "Showdown" in text and "fold" not in text.lower()
    history = await service.handle(PLACE, ANN, "/history")
    exported = "\n".join(history.private["ann"])
    assert "Uncalled bet (50) returned to Ann" in exported and "*** RIVER ***" in exported
    assert "folds" not in exported
    assert await table_chips(service) == 600
    await ledger_ok(service)


async def test_a_short_all_in_raise_is_completed_with_the_raise_button(service: Service) -> None:
    # Home-limit at blinds 80/160: Ann (button, first to act) goes all-in for 200, 40 over the big blind, less than
    # half a bet. Bob may call 120 more or complete the raise to 320 (a full raise over the big blind), not 360.
    for actor, chips in ((ANN, 200), (BOB, 400), (CAT, 400)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    assert (await service.handle(PLACE, ANN, "/set level 160")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    assert reply.error is None and reply.table is not None and reply.table.to_act == "ann"
    reply = await service.handle(PLACE, ANN, "/allin")
    assert reply.table is not None and reply.table.to_act == "bob"
    labels = [button.label for button in reply.table.buttons]
    assert "Call 120" in labels and "Raise to 320" in labels
    refused = await service.handle(PLACE, BOB, "/raise 360")
    assert refused.error is not None and "320" in refused.error
    reply = await service.press(PLACE, BOB, press_label(reply, "raise"))
    assert reply.error is None and reply.table is not None and reply.table.to_act == "cat"
    await play_out(service, PLACE, PLAYERS, reply, ("call", "check"))
    history = await service.handle(PLACE, BOB, "/history")
    exported = "\n".join(history.private["bob"])
    assert "Ann: raises 40 to 200 and is all-in" in exported and "Bob: raises 120 to 320" in exported
    assert await table_chips(service) == 1000
    await ledger_ok(service)
