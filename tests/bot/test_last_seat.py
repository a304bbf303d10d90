"""Standing up tells the truth: the table message after the last player stood up says nobody sits there any
more, and a /leave said in a hand is taken back by /join."""

import pytest

from bot.clock import FakeClock
from bot.games import holdem as holdem_game
from bot.service import Service
from engine.cards import Deck, parse_cards
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import everything_said, ledger_ok, listen


async def test_the_last_player_leaving_empties_the_table_message(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    assert (await service.handle(PLACE, BOB, "/leave")).error is None
    left = await service.handle(PLACE, ANN, "/leave")
    assert left.public == ["Ann leaves the table with 200 chips."]
    assert left.table is not None, "the message still showed Ann seated with 200 chips"
    assert "Ann" not in left.table.text and "Nobody sits at this table yet: /join to sit down." in left.table.text
    assert left.table.buttons == () and left.table.to_act is None
    await service.handle(PLACE, ANN, "/lang ru")
    assert (await service.handle(PLACE, BOB, "/table")).private == {
        "bob": ["За этим столом пока никто не сидит: /join, чтобы сесть."]}  # asked for, it is told as before
    await ledger_ok(service)


async def test_the_last_registered_player_unregistering_empties_the_table_message(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    assert (await service.handle(PLACE, ANN, "/join")).error is None
    left = await service.handle(PLACE, ANN, "/leave")
    assert left.error is None, left.error
    assert left.table is not None and "Ann" not in left.table.text
    await ledger_ok(service)


async def test_a_leave_said_in_a_hand_is_taken_back_by_join(service: Service) -> None:
    """A /leave that came just after the deal waits for the hand's end; the player's /join then keeps him seated
    (it answered "You are already seated" and stood him up after the hand all the same)."""
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None
    leaving = await service.handle(PLACE, ANN, "/leave")
    assert leaving.private == {"ann": ["You will leave the table when this hand ends (/join to stay)."]}
    staying = await service.handle(PLACE, ANN, "/join")
    assert staying.error is None and staying.private == {"ann": ["You stay at the table after this hand."]}
    topping_up = await service.handle(PLACE, ANN, "/join")  # seated, and staying: a top-up, for the next hand
    assert topping_up.error is None and topping_up.private == {
        "ann": ["Your stack is topped up to the table's buy-in (400) when this hand ends, before the next deal."]}
    reply = dealt
    while reply.table is not None and reply.table.to_act is not None:
        reply = await service.handle(PLACE, ANN if reply.table.to_act == ANN.user_id else BOB, "/fold")
    assert not any("leaves the table" in line for line in reply.public)
    assert reply.table is not None and "Ann" in reply.table.text
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/leave")).private == {
        "ann": ["Вы встанете из-за стола, когда закончится эта раздача (/join — остаться)."]}
    assert (await service.handle(PLACE, ANN, "/join")).private == {
        "ann": ["Вы остаётесь за столом и после этой раздачи."]}
    await ledger_ok(service)


def deal_aces_against_kings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next hand, heads-up: the button (the first seated, small blind) gets A♥ A♦, the big blind K♣ K♦ (dealt
    one at a time from the button's left: the big blind first), and the board 2♣ 7♠ 9♥ J♠ 3♠ (a burn before each
    street) helps neither: the aces win."""
    cards = "Kc Ah Kd Ad 4d 2c 7s 9h 5d Js 6d 3s"
    monkeypatch.setattr(holdem_game, "new_deck", lambda rng: Deck.stacked(parse_cards(cards)))


@pytest.mark.parametrize(("language", "busted"), [
    ("en", "Bob is out of chips and stands up."),
    ("ru", "Bob встаёт из-за стола: фишек не осталось."),
])
async def test_a_player_who_busts_at_a_cash_table_is_said_to_be_out_of_chips(
        service: Service, monkeypatch: pytest.MonkeyPatch, language: str, busted: str) -> None:
    """Bob's kings call Ann's all-in with aces for all his 200 chips: he stands up, said as out of chips (it read
    "Bob leaves the table with 0 chips."), his wallet as it was after his buy-in (1,000 − 200), Ann's stack 400."""
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    assert (await service.handle(PLACE, ANN, "/set run_it_twice off")).error is None  # the board runs out at once
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    deal_aces_against_kings(monkeypatch)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    assert (await service.handle(PLACE, ANN, "/allin")).error is None
    called = await service.handle(PLACE, BOB, "/call")
    assert called.error is None
    assert busted in called.public
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert {name: chips for name, chips in stacks.items() if chips} == {f"stack:{PLACE.table_id}:ann": 400}
    assert await service.store.read(lambda tx: tx.balance(f"wallet:{PLACE.chat_id}:bob")) == 800
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "busted"), [
    ("en", "🤖 Deuce is out of chips and stands up."),
    ("ru", "🤖 Deuce встаёт из-за стола: фишек не осталось."),
])
async def test_a_computer_player_who_busts_is_said_to_be_out_of_chips(
        service: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, language: str, busted: str) -> None:
    """Ann (500 chips, the button) holds aces and moves all-in; the computer player Deuce (400 chips from the
    house) calls with his kings, loses them all and stands up, said as out of chips: nothing goes back to the
    house, which paid his 400."""
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    assert (await service.handle(PLACE, ANN, "/set run_it_twice off")).error is None  # the board runs out at once
    assert (await service.handle(PLACE, ANN, "/join 500")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Deuce")).error is None
    deal_aces_against_kings(monkeypatch)
    heard = listen(service)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    assert (await service.handle(PLACE, ANN, "/allin")).error is None
    clock.advance(1.6)
    assert await service.scheduler.fire_due() == 1  # Deuce's turn: he calls
    assert busted in everything_said(heard).splitlines()
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert {name: chips for name, chips in stacks.items() if chips} == {f"stack:{PLACE.table_id}:ann": 900}
    assert await service.store.read(lambda tx: tx.balance(f"house:{PLACE.chat_id}")) == -400
    await ledger_ok(service)
