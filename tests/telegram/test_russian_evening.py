"""A Russian-speaking Telegram group's evening, read as its friends read it after `/lang ru`."""

from __future__ import annotations

import pytest

from tests.bot.helpers import at
from tests.telegram.conftest import WHOLE_HANDS
from tests.telegram.russian_night import IVAN, OLGA, PETROV


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_tournament_player_stepping_away_is_told_of_without_a_gender(make_bot, api) -> None:
    """olga's /away in a tournament told the group "его блайнды … в его ход": "his" of a name whose gender nobody
    knows. It reads with no pronoun now, as the table's other lines about a player do."""
    bot = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    await bot.command(IVAN, "/tournament create home-night")
    for user in (IVAN, OLGA, PETROV):
        await bot.command(user, "/join")
    await bot.command(IVAN, "/tournament start")
    await bot.command(OLGA, "/away")
    assert bot.group()[-1].text == ("olga отойдёт со следующей раздачи: блайнды будут ставиться сами, а карты — "
                                    "сбрасываться, когда дойдёт ход; /back, чтобы вернуться.")
