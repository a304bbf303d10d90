"""Going heads-up: when a table of three goes to two, nobody posts the big blind twice in a row (RULES.md §1: the
button posts the small blind heads-up; TDA 34: the button is placed so the big blind is not taken twice), in every
betting structure alike; and heads-up the fixed-limit cap (one bet and three raises a round) still holds."""


import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store
from engine.cards import Deck
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import at, ledger_ok, started_service

STRUCTURES = ("home-limit", "fixed-limit", "no-limit")


async def night(store: Store, structure: str, *settings: str) -> tuple[Service, FakeClock]:
    """Ann's home-night tournament for Ann, Bob and Cat (level 10/20: blinds 5 and 10) in `structure`, with the
    organizer's `settings`, started: button Ann, small blind Bob, big blind Cat."""
    clock = FakeClock(at(18, 0))
    service = await started_service(store, clock, seed=5)
    for actor, line in ((ANN, "/tournament create home-night"), (ANN, "/join"), (BOB, "/join"), (CAT, "/join"),
                        (ANN, f"/set structure {structure}"), *((ANN, line) for line in settings),
                        (ANN, "/tournament start")):
        reply = await service.handle(PLACE, actor, line)
        assert reply.error is None, (line, reply.error)
    return service, clock


async def stacks(service: Service) -> dict[str, int]:
    """Each seated player's chips in front of him (a blind posted is already out of it)."""
    prefix = f"stack:{PLACE.table_id}:"
    balances = await service.store.read(lambda tx: tx.balances(prefix))
    return {account.removeprefix(prefix): chips for account, chips in balances.items() if chips}


async def next_hand(service: Service, clock: FakeClock) -> str | None:
    """Let the pause between hands pass (the next hand deals itself); the player to act."""
    clock.advance(10)
    await service.scheduler.fire_due()
    table = (await service.handle(PLACE, ANN, "/table")).table
    assert table is not None
    return table.to_act


@pytest.mark.parametrize("structure", STRUCTURES)
async def test_the_big_blind_is_not_posted_twice_when_the_button_leaves_three_to_two(
        store: Store, structure: str) -> None:
    """Cat posted the big blind, then Ann (the button) cashed out. The button moved on to Bob, the seat after Ann's,
    and Cat, heads-up the seat after the button, posted the big blind again (305 → 295) while Bob, who had posted the
    small blind, posted it again. Now Cat takes the button and the small blind and Bob the big blind; then they
    alternate."""
    service, clock = await night(store, structure)
    for actor in (ANN, BOB):  # Cat's big blind takes the blinds: Ann 300, Bob 295, Cat 305
        assert (await service.handle(PLACE, actor, "/fold")).error is None
    assert (await service.handle(PLACE, ANN, "/cashout")).error is None
    assert await next_hand(service, clock) == "cat", "heads-up the button acts first preflop"
    assert await stacks(service) == {"bob": 285, "cat": 300}, "Cat posts the small blind (5), Bob the big (10)"
    assert (await service.handle(PLACE, CAT, "/fold")).error is None  # Bob 300, Cat 300
    assert await next_hand(service, clock) == "bob", "the button moves on to Bob"
    assert await stacks(service) == {"bob": 295, "cat": 290}, "Bob the small blind, Cat the big"
    await ledger_ok(service)


async def test_the_big_blind_is_not_posted_twice_when_the_button_busts(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same when the button busts: Ann (the button) moves all in, Bob (small blind) calls with aces and Cat
    folds his big blind (Ann 0, Bob 610, Cat 290). Heads-up, Cat now posts the small blind and Bob the big."""
    monkeypatch.setattr("bot.games.holdem.new_deck", lambda rng: Deck.stacked(
        "Ah 2c 7d Ad 3d 8c 4s Kh Ks 9h 2s Jc 5d Qc", rng))  # Bob, Cat, Ann, twice: Bob's aces beat Ann's 7-8
    service, clock = await night(store, "no-limit", "/set run_it_twice off")
    for actor, line in ((ANN, "/allin"), (BOB, "/allin"), (CAT, "/fold")):
        assert (await service.handle(PLACE, actor, line)).error is None, line
    assert await stacks(service) == {"bob": 610, "cat": 290}, "Ann busted"
    assert await next_hand(service, clock) == "cat"
    assert await stacks(service) == {"bob": 600, "cat": 285}
    await ledger_ok(service)


async def test_heads_up_the_fixed_limit_cap_still_holds(store: Store) -> None:
    """RULES.md §1: the standard fixed-limit preset caps each round at one bet and three raises, and preflop the big
    blind is that bet; it named no exception, yet heads-up the raising went on without end. Heads-up after Ann cashes
    out, Cat (the button) raises to 20, Bob to 30, Cat to 40: Bob may only call or fold."""
    service, clock = await night(store, "fixed-limit")
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/fold")).error is None
    assert (await service.handle(PLACE, ANN, "/cashout")).error is None
    assert await next_hand(service, clock) == "cat"
    for actor in (CAT, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/raise")).error is None
    refused = await service.handle(PLACE, BOB, "/raise")
    assert refused.error == "The betting is capped for this round (4 bets)."
    table = (await service.handle(PLACE, BOB, "/table")).table
    assert table is not None and table.to_act == "bob"
    assert [button.label for button in table.buttons if not button.label.startswith("⏩")] == [
        "🂠 My cards", "Fold", "Call 10"]
    assert await stacks(service) == {"bob": 265, "cat": 265}
    await ledger_ok(service)
