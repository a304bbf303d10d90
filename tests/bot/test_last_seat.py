"""The table message after the last player stood up tells the truth: nobody sits there any more."""

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
