"""Short all-ins played through the parser and the service (RULES.md §1): a covered short big blind is dealt on without
asking anyone; in fixed limit a raise below half a bet is completed with the raise button, and an all-in of at least
half a bet reopens the betting for a player who already acted, one below half does not; in no limit a raise is at
least the last one, and a short all-in reopens nothing; every chip is kept."""

from __future__ import annotations

from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import ledger_ok, play_out, press_label

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
    assert reply.table.text.split("\n\n")[1].splitlines() == [  # nobody asked to call or fold
        "Hand #1: button Ann, blinds 250/500. Cards are dealt — press “My cards” to see yours.",
        "Ann posts the small blind 250.", "Bob posts the big blind 200.", "50 uncalled chips returned to Ann.",
        "Flop: J♥ 6♣ J♠", "Turn: 4♠ (board J♥ 6♣ J♠ 4♠)", "River: 8♣ (board J♥ 6♣ J♠ 4♠ 8♣)",
        "Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker); Ann: 7♠ 2♠ (a pair of jacks, eight kicker)",
        "Bob wins the main pot (400) with two pair, jacks and eights, six kicker.", "The hand is over."]
    assert [button.label for button in reply.table.buttons if "Fold" in button.label] == []
    assert reply.public == [  # read after the table (the deal), as a card room records it: `before_table`
        "Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker); Ann: 7♠ 2♠ (a pair of jacks, eight kicker)\n"
        "Bob wins the main pot (400) with two pair, jacks and eights, six kicker."]
    assert reply.before_table == 0
    history = await service.handle(PLACE, ANN, "/history")
    exported = "\n".join(history.private["ann"])
    assert exported.split("*** HOLE CARDS ***\n")[1].split("*** SHOW DOWN ***")[0].splitlines() == [
        "Dealt to Ann [7s 2s]", "Uncalled bet (50) returned to Ann", "*** FLOP *** [Jh 6c Js]",
        "*** TURN *** [Jh 6c Js] [4s]", "*** RIVER *** [Jh 6c Js 4s] [8c]"]
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
    assert [button.label for button in reply.table.buttons] == [
        "🂠 My cards", "Fold", "Call 120", "Raise to 320", "⏩ Check/fold", "⏩ Call 40", "⏩ Call any"]
    refused = await service.handle(PLACE, BOB, "/raise 360")
    assert refused.error == "You can't bet or raise to 360 now: the amount is 320."
    reply = await service.press(PLACE, BOB, press_label(reply, "raise"))
    assert reply.error is None and reply.table is not None and reply.table.to_act == "cat"
    await play_out(service, PLACE, PLAYERS, reply, ("call", "check"))
    history = await service.handle(PLACE, BOB, "/history")
    exported = "\n".join(history.private["bob"])
    assert exported.split("*** HOLE CARDS ***\n")[1].split("*** FLOP ***")[0].splitlines() == [
        "Dealt to Bob [4d 2s]", "Ann: raises 40 to 200 and is all-in", "Bob: raises 120 to 320", "Cat: calls 160"]
    assert await table_chips(service) == 1000
    await ledger_ok(service)


async def deal_fixed_limit(service: Service, bob_chips: int) -> None:
    """The standard fixed-limit structure at blinds 80/160: Ann (button) first to act, Bob small blind, Cat big."""
    for actor, chips in ((ANN, 1000), (BOB, bob_chips), (CAT, 1000)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure fixed-limit")).error is None
    assert (await service.handle(PLACE, ANN, "/set level 160")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    assert reply.error is None and reply.table is not None and reply.table.to_act == "ann"
    assert (await service.handle(PLACE, ANN, "/call")).error is None  # Ann has acted


async def test_a_fixed_limit_all_in_of_half_a_bet_reopens_the_betting(service: Service) -> None:
    # Bob, in the small blind with 240, goes all-in: 80 over the big blind, half a bet, counts as a full raise
    # (TDA 47-B). Cat calls; Ann, who already called 160, may raise again, a full bet over the all-in: to 400.
    await deal_fixed_limit(service, 240)
    assert (await service.handle(PLACE, BOB, "/allin")).error is None
    reply = await service.handle(PLACE, CAT, "/call")
    assert reply.table is not None and reply.table.to_act == "ann"
    assert [button.label for button in reply.table.buttons] == [
        "🂠 My cards", "Fold", "Call 80", "Raise to 400", "⏩ Check/fold", "⏩ Call any"]
    reply = await service.press(PLACE, ANN, press_label(reply, "raise"))
    assert reply.error is None and reply.table is not None and reply.table.to_act == "cat"
    await play_out(service, PLACE, PLAYERS, reply, ("call", "check"))
    history = await service.handle(PLACE, ANN, "/history")
    exported = "\n".join(history.private["ann"])
    assert exported.split("*** HOLE CARDS ***\n")[1].split("*** FLOP ***")[0].splitlines() == [
        "Dealt to Ann [8d Jh]", "Ann: calls 160", "Bob: raises 80 to 240 and is all-in", "Cat: calls 80",
        "Ann: raises 160 to 400", "Cat: calls 160"]
    assert await table_chips(service) == 2240
    await ledger_ok(service)


async def test_a_fixed_limit_all_in_below_half_a_bet_does_not_reopen_the_betting(service: Service) -> None:
    # Bob's all-in for 220 is 60 over the big blind, less than half a bet: Ann, who already acted, may only call
    # the 60 or fold, and a raise is refused.
    await deal_fixed_limit(service, 220)
    assert (await service.handle(PLACE, BOB, "/allin")).error is None
    reply = await service.handle(PLACE, CAT, "/call")
    assert reply.table is not None and reply.table.to_act == "ann"
    assert [button.label for button in reply.table.buttons] == [
        "🂠 My cards", "Fold", "Call 60", "⏩ Check/fold", "⏩ Call any"]  # no raise
    refused = await service.handle(PLACE, ANN, "/raise")
    assert refused.error == "A short all-in does not reopen the betting: call or fold."
    await play_out(service, PLACE, PLAYERS, reply, ("call", "check"))
    assert await table_chips(service) == 2220
    await ledger_ok(service)


async def test_allin_by_a_player_who_covers_every_other_all_in_is_the_call(service: Service) -> None:
    # No limit at 10/20: Ann (button, first to act) moves all-in for 400, Bob's 200 call him all-in, and Cat (the big
    # blind, 600) covers them both. Nobody could call more, so his /allin puts in what can be matched: the call. It
    # was refused ("No one left could call a raise."), and no All-in button is offered: Call is the button.
    for setting in ("structure no-limit", "run_it_twice off"):
        assert (await service.handle(PLACE, ANN, f"/set {setting}")).error is None
    for actor, chips in ((ANN, 400), (BOB, 200), (CAT, 600)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    assert reply.table is not None and reply.table.to_act == "ann"
    reply = await service.handle(PLACE, ANN, "/allin")
    reply = await service.handle(PLACE, BOB, "/allin")
    assert reply.table is not None and reply.table.to_act == "cat"
    assert [button.label for button in reply.table.buttons if "All-in" in button.label or "Call" in button.label] == [
        "Call 380"]
    reply = await service.handle(PLACE, CAT, "/allin")
    assert reply.error is None
    assert reply.table is not None and reply.table.text.split("\n\n")[1].splitlines() == [
        "Cat calls 380.", "Flop: J♠ 6♠ 4♠", "Turn: 8♣ (board J♠ 6♠ 4♠ 8♣)", "River: 9♦ (board J♠ 6♠ 4♠ 8♣ 9♦)",
        "Showdown — Bob: 4♦ 2♠ (a pair of fours, jack kicker); Cat: 7♠ 7♦ (a pair of sevens, jack kicker); Ann: 8♦ "
        "J♥ (two pair, jacks and eights, nine kicker)",
        "Ann wins the main pot (600) with two pair, jacks and eights, nine kicker.",
        "Ann wins side pot 1 (400) with two pair, jacks and eights, nine kicker.", "The hand is over."]
    assert await table_chips(service) == 1200
    await ledger_ok(service)


async def test_no_limit_raises_are_at_least_the_last_raise_and_a_short_all_in_reopens_nothing(
        service: Service) -> None:
    """RULES.md §1, no limit: a raise is at least the last bet or raise; an all-in short of a full raise does not
    reopen the betting for a player who already acted. Blinds 10/20: Ann (button) raises to 60 (by 40), so Bob may
    raise to 100 at the least, and raises to 170 (by 110); Cat's all-in to 200 is 30 over it, short of a full raise:
    Ann, facing Bob's full raise as well, may raise again (to 310 at the least), Bob, facing only Cat's short all-in,
    may call or fold."""
    for actor, chips in ((ANN, 400), (BOB, 400), (CAT, 200)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    assert (await service.handle(PLACE, ANN, "/raise 60")).error is None
    too_small = await service.handle(PLACE, BOB, "/raise 90")
    assert too_small.error == "You can't bet or raise to 90 now: choose from 100 to 400."
    assert (await service.handle(PLACE, BOB, "/raise 170")).error is None
    assert (await service.handle(PLACE, CAT, "/allin")).error is None
    assert (await service.handle(PLACE, ANN, "/raise 309")).error == (
        "You can't bet or raise to 309 now: choose from 310 to 400.")
    assert (await service.handle(PLACE, ANN, "/call")).error is None
    refused = await service.handle(PLACE, BOB, "/raise 400")
    assert refused.error == "A short all-in does not reopen the betting: call or fold."
    called = await service.handle(PLACE, BOB, "/call")
    assert called.error is None and called.table is not None
    assert called.table.text == (  # the story keeps the last lines
        "Hold'em — hand #1 · blinds 10/20 · no-limit\n"
        "Board: J♠ 6♠ 4♠ · Pot: 600\n"
        "  Ann · 200 Ⓓ\n"
        "▶ Bob · 200\n"
        "  Cat · 0 all-in\n"
        "\n"
        "Ann raises to 60.\n"
        "Bob raises to 170.\n"
        "Cat raises to 200, all-in.\n"
        "Ann calls 140.\n"
        "Bob calls 30.\n"
        "Flop: J♠ 6♠ 4♠\n"
        "▶ Bob to act (⏱ 60\xa0s).")
    assert await service.store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 600
    await ledger_ok(service)
