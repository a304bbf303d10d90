"""Redeeming a pawned item with the last chips (RULES.md §1: between hands he may redeem it early by paying 100 chips
back; the rules are silent on a stack of 100 or fewer). A card room sells nothing that would bust a player between
hands: the redemption is refused, with his stack and the way the item comes back (a cash-out, or the end, buys it
back at the rate), and nothing changes; a cash-out with exactly the item's chips then pays for it.

A home-night tournament of Ann, Bob and Cat, no-limit; Cat pawns his jacket in the second hand and is left with 95
chips, then 100 after posting and winning the blinds."""


from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store
from engine.tournament import Tournament
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import at, deal_next, ledger_ok, night_registered, play, refused_without_change, started_service
from tests.bot.test_pawns_off import NO_PAWNING
from tests.bot.test_service_tournament import night_of

SHORT = {
    "en": "Redeeming it costs 100 chips and you have 95: it stays in pawn and is bought back at the rate when you cash "
          "out (/tournament cashout) or at the end.",
    "ru": "Выкуп стоит 100 фишек, а у вас 95: вещь остаётся в залоге и выкупается по курсу, когда вы выходите с "
          "фишками (/tournament cashout) или в конце турнира.",
}
LAST_CHIPS = {
    "en": "Redeeming it would take all your chips (100), and a player without chips is out: it stays in pawn and is "
          "bought back at the rate when you cash out (/tournament cashout) or at the end.",
    "ru": "Выкуп забрал бы все ваши фишки (100), а игрок без фишек выбывает: вещь остаётся в залоге и выкупается по "
          "курсу, когда вы выходите с фишками (/tournament cashout) или в конце турнира.",
}
STACKS = f"stack:{PLACE.table_id}:"


async def bob_shoves_at_cat(store: Store, decks: list[str]) -> tuple[Service, FakeClock]:
    """The night up to Cat's pawn: Ann, Bob and Cat start (button Ann, blinds Bob and Cat); Bob shoves with aces in
    the second hand, and Cat, to act, is short of the call."""
    clock = FakeClock(at(18, 0))
    service = await started_service(store, clock, seed=5)
    await night_registered(service, (ANN, BOB, CAT))
    await play(service, (ANN, "/set run_it_twice off"), (ANN, "/tournament start"))  # button Ann, blinds Bob and Cat
    await play(service, (ANN, "/raise 40"), (BOB, "/fold"), (CAT, "/fold"))  # Ann 315, Bob 295, Cat 290
    decks.append("2c 3d Ah 7c 8d Ad 4s Kh Ks 9h 2s Jc 5d Qc")  # Cat, Ann, Bob twice: Bob's aces win
    assert (await deal_next(service, clock)).table.to_act == "bob"  # button Bob, blinds Cat and Ann
    await play(service, (BOB, "/allin"))
    return service, clock


async def cat_calls_and_loses(service: Service) -> None:
    """After his pawn (item 1), Cat calls Bob's shove and loses, left with 95 chips."""
    await play(service, (CAT, "/call"), (ANN, "/fold"))
    assert (await service.store.read(lambda tx: tx.balances(STACKS)))[f"{STACKS}cat"] == 95


async def cat_pawns_his_jacket(store: Store, decks: list[str]) -> tuple[Service, FakeClock]:
    """The night up to Cat's pawn (`bob_shoves_at_cat`): Cat pawns his leather jacket (item 1) to call and loses,
    left with 95 chips."""
    service, clock = await bob_shoves_at_cat(store, decks)
    await play(service, (CAT, "/pawn leather jacket"))
    await cat_calls_and_loses(service)
    return service, clock


async def cat_back_to_100(service: Service, clock: FakeClock) -> None:
    """Two hands folded round: Cat wins the blinds and has exactly the item's 100 chips."""
    await deal_next(service, clock)  # button Cat: Cat and Ann fold
    await play(service, (CAT, "/fold"), (ANN, "/fold"))
    await deal_next(service, clock)  # button Ann: Ann and Bob fold to Cat's big blind
    await play(service, (ANN, "/fold"), (BOB, "/fold"))
    assert (await service.store.read(lambda tx: tx.balances(STACKS)))[f"{STACKS}cat"] == 100


async def test_a_redemption_with_too_few_or_the_last_chips_is_refused_and_play_goes_on(
        store: Store, decks: list[str]) -> None:
    """With 100 chips the redemption left Cat seated at 0, and heads-up the tournament never ended: his item stays
    in pawn, bought back at the rate at the end, and he plays on with his chips."""
    service, clock = await cat_pawns_his_jacket(store, decks)
    await refused_without_change(service, CAT, "/tournament redeem 1", SHORT)
    await cat_back_to_100(service, clock)
    await refused_without_change(service, CAT, "/tournament redeem 1", LAST_CHIPS)
    assert (await service.handle(PLACE, CAT, "/tournament redeem")).private["cat"], "the item is still in pawn"
    dealt = await deal_next(service, clock)
    assert dealt.table is not None and dealt.table.to_act, "play goes on, Cat with his 100 chips"
    await ledger_ok(service)


async def test_a_cash_out_with_exactly_the_item_s_chips_buys_it_back(store: Store, decks: list[str]) -> None:
    service, clock = await cat_pawns_his_jacket(store, decks)
    await cat_back_to_100(service, clock)
    cashed = await service.handle(PLACE, CAT, "/tournament cashout")  # the same value as the redemption
    assert cashed.error is None, cashed.error
    assert cashed.public == ["Cat buys back “leather jacket” for 16.67.", "Cat cashes out 100 chips for 16.67."]
    assert (await service.store.read(lambda tx: tx.balances(STACKS))).get(f"{STACKS}cat", 0) == 0
    await ledger_ok(service)


async def test_an_item_described_with_a_command_or_a_mention_is_quoted_inert(store: Store, decks: list[str]) -> None:
    """What Cat typed to describe his item is his words: every line that quotes it (the hand's story, the record,
    his list of items, the buy-back) has a word joiner after its `/` and `@`, so that no chat client makes a
    command of "/fold" or a mention of "@bob" in it; the description is kept as he typed it."""
    service, clock = await bob_shoves_at_cat(store, decks)
    shown = "leather jacket /\u2060fold @\u2060bob"
    pawned = await service.handle(PLACE, CAT, "/pawn leather jacket /fold @bob")
    assert pawned.public == [f"Item recorded: Cat pawned “{shown}” for 100 chips (buy-back price 16.67)."]
    assert pawned.table is not None and pawned.table.text.splitlines()[-2:] == [
        f"Cat pawns “{shown}” for 100 chips.", "▶ Cat to act: 290 to call (⏱ 60\xa0s)."]
    await cat_calls_and_loses(service)
    _, state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    items = Tournament.from_dict(state["tournament"]["engine"]).items
    assert [item.description for item in items] == ["leather jacket /fold @bob"]  # kept as typed
    held = await service.handle(PLACE, CAT, "/tournament redeem")
    assert held.private == {"cat": [
        f"Your pawned items (redeem one between hands with /tournament redeem number):\n1. “{shown}” — 100 chips to "
        "redeem"]}
    await cat_back_to_100(service, clock)
    cashed = await service.handle(PLACE, CAT, "/tournament cashout")
    assert cashed.public == [f"Cat buys back “{shown}” for 16.67.", "Cat cashes out 100 chips for 16.67."]


async def test_redeeming_in_a_tournament_without_pawning_says_it_takes_no_pawned_items(store: Store) -> None:
    """`/tournament redeem` in a `pawns 0` tournament answered "You have no pawned items to redeem.", as if an item
    could have been pawned: it gives the reason `/pawn` gives there, whoever asks and whenever, with a number or
    without."""
    service, _ = await night_of(store, "home-night pawns 0")
    await refused_without_change(service, BOB, "/tournament redeem", NO_PAWNING)  # registered, not yet started
    await play(service, (ANN, "/tournament start"))
    for line in ("/tournament redeem", "/tournament redeem 1"):
        await refused_without_change(service, CAT, line, NO_PAWNING)


async def test_a_refused_item_is_quoted_inert(store: Store, decks: list[str]) -> None:
    """The refusal of an item quotes its description as typed, inert, and at most 40 characters of it."""
    service, _ = await bob_shoves_at_cat(store, decks)
    await refused_without_change(service, CAT, "/pawn my watch /fold @bob", {
        "en": "“my watch /\u2060fold @\u2060bob” cannot be pawned (no socks, belts, jewellery, accessories or "
              "watches).",
        "ru": "«my watch /\u2060fold @\u2060bob»: такое в залог не принимают (никаких носков, ремней, украшений, "
              "аксессуаров и часов)."})
