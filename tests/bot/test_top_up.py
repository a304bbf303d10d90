"""Topping up at a cash table: `/join [chips]` from a seated player adds chips from his wallet to his stack, up to
the table's maximum buy-in (a plain `/join`: up to its buy-in); asked for during a hand he is dealt in, they are added
when it ends, before the next deal.

Every player's wallet starts with the welcome grant of 1,000; the default buy-in (what a plain `/join` brings a stack
to) is 400, and the tests that reach the most a top-up brings set the maximum buy-in to it (`capped`); home-limit's
level 20 has blinds 10/20. Heads-up, the first seated has the button and the small
blind, and acts first before the flop."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import ledger_ok, refused_without_change, started_service
from tests.bot.test_last_seat import deal_aces_against_kings
from tests.bot.test_odds_practice import restarted_with_the_hand_voided

ANN_WALLET = f"wallet:{PLACE.chat_id}:ann"
ANN_STACK = f"stack:{PLACE.table_id}:ann"


async def balances(service: Service, *accounts: str) -> list[int]:
    return [await service.store.read(lambda tx, account=account: tx.balance(account)) for account in accounts]


async def top_ups(service: Service) -> list[tuple[str, str, int]]:
    """The ledger's top-up moves: from, to, chips."""
    moves = await service.store.read(lambda tx: tx.every_move())
    return [(move.source, move.target, move.amount) for _, _, move in moves if move.reason == "top-up"]


async def sit(service: Service, *seats: tuple[Actor, int]) -> None:
    for actor, chips in seats:
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None


async def capped(service: Service, chips: int = 400) -> None:
    """The table's maximum buy-in set to `chips` (by Ann, the chat's organizer)."""
    assert (await service.handle(PLACE, ANN, f"/set max_buy_in {chips}")).error is None


async def test_a_seated_player_tops_up_between_hands_up_to_the_buy_in_and_no_further(service: Service) -> None:
    await capped(service)
    await sit(service, (ANN, 200), (BOB, 200))  # Ann's wallet: 800
    topped = await service.handle(PLACE, ANN, "/join 150")
    assert topped.error is None
    assert topped.public == ["Ann tops up 150 chips: stack 350."]
    assert topped.private == {"ann": ["Your wallet: 650 chips."]}
    assert topped.table is not None and "Ann" in topped.table.text
    to_the_buy_in = await service.handle(PLACE, ANN, "/sit")  # no amount: up to the buy-in, 400 - 350
    assert to_the_buy_in.public == ["Ann tops up 50 chips: stack 400."]
    assert to_the_buy_in.private == {"ann": ["Your wallet: 600 chips."]}
    before = dump(service.store.location)
    for line in ("/join", "/join 1"):
        refused = await service.handle(PLACE, ANN, line)
        assert refused.error == "Your stack (400) has reached the table's maximum buy-in (400): a top-up only " \
                                "brings a stack up to it."
        assert refused.public == [] and refused.private == {} and refused.table is None
    assert dump(service.store.location) == before
    assert await balances(service, ANN_WALLET, ANN_STACK) == [600, 400]
    assert await top_ups(service) == [(ANN_WALLET, ANN_STACK, 150), (ANN_WALLET, ANN_STACK, 50)]
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "line", "reason"), [
    ("en", "/join 700", "A top-up of 700 would take your stack (900) over the table's maximum buy-in (1,500): at "
                       "most 600."),
    ("en", "/join 200", "A top-up of 200 is more than your wallet (100)."),
    ("en", "/join", "A top-up of 600 is more than your wallet (100)."),  # up to the buy-in: 1,500 - 900
    ("en", "/join -5", "The amount must be a whole number of chips above zero, not “-5”."),
    ("en", "/sit 0", "The amount must be a whole number of chips above zero, not “0”."),
    ("en", "/join abc", "The amount must be a whole number of chips above zero, not “abc”."),
    ("ru", "/join 700", "Докупка 700 подняла бы ваш стек (900) выше максимального бай-ина стола (1\xa0500): не больше "
                       "600."),
    ("ru", "/sit 200", "Докупка 200 больше, чем у вас в кошельке (100)."),
    ("ru", "/join", "Докупка 600 больше, чем у вас в кошельке (100)."),
    ("ru", "/join -5", "Сумма: нужно целое число фишек больше нуля, а не «-5»."),
    ("ru", "/join 1.5", "Сумма: нужно целое число фишек больше нуля, а не «1.5»."),
])
async def test_a_bad_top_up_is_refused_with_the_reason_and_changes_nothing(service: Service, language: str, line: str,
                                                                           reason: str) -> None:
    assert (await service.handle(PLACE, ANN, "/set buy_in 1500")).error is None
    await capped(service, 1500)
    await sit(service, (ANN, 900), (BOB, 200))  # Ann's wallet: 100
    await refused_without_change(service, ANN, line, {language: reason})


@pytest.mark.parametrize(("line", "told", "added", "stack", "wallet"), [
    ("/join 100", "100 chips go onto your stack when this hand ends, before the next deal.", 100, 310, 700),
    # asked for 200 on the 200 she was dealt; she won 10, so only 190 fit under the maximum buy-in
    ("/join 200", "200 chips go onto your stack when this hand ends, before the next deal.", 190, 400, 610),
    ("/join", "Your stack is topped up to the table's buy-in (400) when this hand ends, before the next deal.", 190,
     400, 610),
])
async def test_a_top_up_asked_for_in_a_hand_is_added_when_it_ends(service: Service, line: str, told: str, added: int,
                                                                  stack: int, wallet: int) -> None:
    await capped(service)
    await sit(service, (BOB, 200), (ANN, 200))  # Bob: the button and the small blind (10); Ann the big blind (20)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "bob"
    asked = await service.handle(PLACE, ANN, line)
    assert asked.error is None
    assert asked.private == {"ann": [told]} and asked.public == [] and asked.table is None
    assert await balances(service, ANN_WALLET) == [800]  # nothing moves during the hand
    ended = await service.handle(PLACE, BOB, "/fold")  # Ann wins Bob's small blind: 210
    assert ended.public == [f"Ann tops up {added} chips: stack {stack}."]
    assert ended.private["ann"] == [f"Your wallet: {wallet} chips."]
    assert await balances(service, ANN_WALLET, ANN_STACK) == [wallet, stack]
    assert await top_ups(service) == [(ANN_WALLET, ANN_STACK, added)]
    await ledger_ok(service)


async def test_a_top_up_asked_for_in_a_hand_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=3)
    await service.handle(PLACE, ANN, "/lang ru")
    await sit(service, (BOB, 200), (ANN, 200))
    await service.handle(PLACE, ANN, "/deal")
    asked = await service.handle(PLACE, ANN, "/join")
    assert asked.private == {"ann": ["Ваш стек будет докуплен до бай-ина стола (400) после этой раздачи, перед "
                                     "следующей."]}
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=4)
    ended = await restarted.handle(PLACE, BOB, "/fold")  # Ann: 210, and 190 up to the buy-in
    assert ended.public == ["Ann докупает 190 фишек: стек 400."]
    assert ended.private["ann"] == ["В кошельке 610 фишек."]
    assert await balances(restarted, ANN_WALLET, ANN_STACK) == [610, 400]
    await ledger_ok(restarted)
    await store.close()


async def test_a_top_up_asked_for_in_a_hand_voided_at_a_restart_is_added(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=3)
    await sit(service, (BOB, 200), (ANN, 200))
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/join 100")).error is None
    async with restarted_with_the_hand_voided(store, clock) as (restarted, said):
        assert said == ("Hand #1 could not be resumed after a restart: it is void and every chip went back to whoever "
                        "put it in.\nAnn tops up 100 chips: stack 300.")
        assert await balances(restarted, ANN_WALLET, ANN_STACK) == [700, 300]
        await ledger_ok(restarted)


async def test_a_top_up_with_no_room_left_when_the_hand_ends_is_not_added(service: Service) -> None:
    await sit(service, (BOB, 200), (ANN, 390))
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/join")).error is None  # 10 up to the buy-in, as she was dealt
    ended = await service.handle(PLACE, BOB, "/fold")  # she wins 10: 400
    assert ended.public == []
    assert ended.private == {"ann": ["Your top-up is not added. Your stack (400) has already reached the table's "
                                     "buy-in (400), so /join alone adds nothing. To add more, type /join and the "
                                     "number of chips, at most 1,600 (the table's maximum buy-in is 2,000)."]}
    assert await balances(service, ANN_WALLET, ANN_STACK) == [610, 400]
    assert await top_ups(service) == []
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "Your stack (400) has already reached the table's buy-in (400), so /join alone adds nothing. To add more, "
           "type /join and the number of chips, at most 1,600 (the table's maximum buy-in is 2,000)."),
    ("ru", "Ваш стек (400) уже дошёл до бай-ина стола (400), поэтому /join без суммы ничего не добавляет. Чтобы "
           "докупить ещё, введите /join и число фишек — не больше 1\xa0600 (максимальный бай-ин стола — 2\xa0000)."),
])
async def test_a_plain_join_at_the_buy_in_says_to_name_the_chips(service: Service, language: str,
                                                                  reason: str) -> None:
    """A plain `/join` from a player whose stack has the buy-in was told "…all a /join with no amount tops it up to:
    name the chips…": it now says what happened (nothing is added) and what to type."""
    await sit(service, (ANN, 400), (BOB, 400))
    await refused_without_change(service, ANN, "/join", {language: reason})


async def test_a_player_busted_in_the_hand_he_topped_up_in_keeps_his_seat(service: Service,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    deal_aces_against_kings(monkeypatch)  # Bob, on the button, has the aces; Ann the kings
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set run_it_twice off")
    await sit(service, (BOB, 200), (ANN, 200))
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    await service.handle(PLACE, BOB, "/allin")
    ended = await service.handle(PLACE, ANN, "/call")  # the aces win all of Ann's 200
    assert ended.public == [
        "Showdown — Ann: K♣ K♦ (a pair of kings, jack kicker); Bob: A♥ A♦ (a pair of aces, jack kicker)\nBob wins the "
        "main pot (400) with a pair of aces, jack kicker; the pair decides: Bob's aces beat Ann's kings.",
        "Ann tops up 200 chips: stack 200."], "she was stood up as out of chips"
    assert await balances(service, ANN_WALLET, ANN_STACK) == [600, 200]
    assert (await service.handle(PLACE, ANN, "/deal")).error is None, "she was not seated to play the next hand"
    await ledger_ok(service)


async def test_a_top_up_asked_for_before_leaving_in_the_hand_is_dropped(service: Service) -> None:
    await sit(service, (BOB, 200), (ANN, 200))
    await service.handle(PLACE, ANN, "/deal")
    asked = await service.handle(PLACE, ANN, "/join 100")
    assert asked.private == {"ann": ["100 chips go onto your stack when this hand ends, before the next deal."]}
    await service.handle(PLACE, ANN, "/leave")  # nothing was taken for the top-up: nothing comes back
    ended = await service.handle(PLACE, BOB, "/fold")
    assert ended.public == ["Ann leaves the table with 210 chips."]
    assert await balances(service, ANN_WALLET, ANN_STACK) == [1010, 0]
    assert await top_ups(service) == []
    await ledger_ok(service)


async def test_a_player_not_dealt_in_tops_up_at_once_during_a_hand(service: Service) -> None:
    await sit(service, (BOB, 200), (ANN, 200))
    await service.handle(PLACE, ANN, "/deal")
    await sit(service, (CAT, 200))  # sits down after the deal: not in this hand
    topped = await service.handle(PLACE, CAT, "/join 100")
    assert topped.public == ["Cat tops up 100 chips: stack 300."]
    assert topped.private == {"cat": ["Your wallet: 700 chips."]}
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "You are already seated: in a tournament, more chips come only from its /rebuy and /addon, when it offers "
           "them."),
    ("ru", "Вы уже сидите за столом: в турнире фишки можно докупить только командами /rebuy и /addon, если турнир их "
           "предлагает."),
])
async def test_a_seated_tournament_player_is_pointed_to_the_rebuys_and_add_ons(service: Service, language: str,
                                                                              refusal: str) -> None:
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    before = dump(service.store.location)
    for line in ("/join", "/join 200", "/sit 100"):
        refused = await service.handle(PLACE, ANN, line)
        assert refused.error == refusal, line
        assert refused.public == [] and refused.private == {} and refused.table is None
    assert dump(service.store.location) == before


@pytest.mark.parametrize(("language", "line", "help_text"), [
    ("en", "/help join", "/join [chips]\nsit down at the table; seated at a cash table, top up your stack (up to the "
                         "table's buy-in)"),
    ("ru", "/help sit", "/join [фишки]\nсесть за стол; за кэш-столом — докупить фишки в стек (до бай-ина стола)"),
])
async def test_the_help_of_join_says_it_tops_up_a_seated_player(service: Service, language: str, line: str,
                                                                 help_text: str) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, line)).private == {"ann": [help_text]}
