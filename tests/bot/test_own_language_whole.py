"""A private answer is in its reader's language throughout: a player who chose his own (`/lang ru me`) in an English
chat read Russian sentences with English inside them (a command's usage, a tournament option's problem, how to bet at
a house table, the decisions a box may take)."""

from __future__ import annotations

import pytest

from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE


@pytest.mark.parametrize(("line", "refusal"), [
    ("/history xyz", "Как писать: /history [число раздач | tournament [номер]]"),
    ("/export xyz", "Как писать: /export ledger | tournament [номер]"),
    ("/season xyz", "Как писать: /season [start [название] | end]"),
    ("/tournament xyz", "Как писать: /tournament create [пресет или расписание] [rebuys N] [addon [N]] [reentry] "
                        "[bounty сумма] [pawns N] | register | start | pause | resume | skip | minutes +N|-N | "
                        "status | clock | cashout | redeem [номер вещи] | rebuy | addon | close"),
    ("/tournament create rebuys x", "Не могу разобрать опцию: после «rebuys» нужно число на игрока, например "
                                    "«rebuys 2»."),
    ("/tournament create 10min", "Не могу разобрать расписание: уровень 1 «10min»: нужны лимиты вроде 10/20 или "
                                 "слово «перерыв», а не «10min»."),
])
async def test_a_refusal_is_in_the_organizers_own_language_words_inside_it_too(service: Service, line: str,
                                                                              refusal: str) -> None:
    await service.handle(PLACE, ANN, "/balance")  # the chat's organizer
    assert (await service.handle(PLACE, ANN, "/lang ru me")).error is None
    reply = await service.handle(PLACE, ANN, line)
    assert (reply.error, reply.public) == (refusal, [])
    assert (await service.handle(PLACE, BOB, "/history xyz")).error == (
        "Usage: /history [number of hands | tournament [number]]"), "the others' stay in the chat's language"


async def test_a_house_players_answers_are_in_his_own_language_words_inside_them_too(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/game texas")).error is None
    assert (await service.handle(PLACE, BOB, "/lang ru me")).error is None
    joined = await service.handle(PLACE, BOB, "/join")
    assert joined.private == {"bob": ["Покер «Техас»: ставьте АНТЕ командой /ante фишки. Карты приходят лично вам: "
                                      "нажмите «Мои карты», чтобы их увидеть."]}
    assert (await service.handle(PLACE, BOB, "/ante 10")).error is None
    assert (await service.handle(PLACE, BOB, "/deal")).error is None
    assert (await service.handle(PLACE, BOB, "/exchange 1")).error == (
        "Сейчас так нельзя. Можно: БЕТ, Пас, Прикуп.")
    ann = await service.handle(PLACE, ANN, "/join")
    assert ann.private == {"ann": ["Texas Poker: place your ANTE with /ante chips. Your cards come privately: press "
                                   "“My cards” to see them."]}
