"""Standing up tells the truth: the table message after the last player stood up says nobody sits there any
more, and a /leave said in a hand is taken back by /join."""

from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import ledger_ok


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
    assert (await service.handle(PLACE, ANN, "/join")).error == "You are already seated."
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
