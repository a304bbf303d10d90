"""Texts read in a whole evening (a tournament night on Telegram, a cash evening on Discord) played in English and
in Russian, each asserted exactly as the player reads it."""

from __future__ import annotations

from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE


async def test_a_russian_player_out_of_turn_reads_whose_turn_it_is_without_a_declined_name(service: Service) -> None:
    """«Сейчас не ваш ход: ждём Даня» put the name after «ждём», which needs it declined («ждём Даню»), and a name
    is never declined: the refusal now says who is acting, with the name in the nominative («ходит Даня»)."""
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    assert (await service.handle(PLACE, BOB, "/check")).error == "Сейчас не ваш ход: ходит Ann."
    assert (await service.handle(PLACE, CAT, "/fold")).error == "Сейчас не ваш ход: ходит Ann."
