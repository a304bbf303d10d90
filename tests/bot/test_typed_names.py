"""A command that names a player takes his whole name, spaces and all (`/grant Ann Lee 50`, `/stats Ann Lee 30d`), in
quotes too; a mention still names him, and a name nobody has is answered in the speaker's language, changing nothing."""

from __future__ import annotations

import pytest

from bot.output import Actor
from bot.service import Service
from tests.bot.conftest import ANN, PLACE
from tests.bot.helpers import ledger_ok, refused_without_change

ANN_LEE = Actor("tg:7", "Ann Lee")  # a Telegram user without a username: his full name is his display name
ALICE = Actor("tg:8", "alice")  # one with a username, which the chat mentions him by: @alice
LEE_ANN = Actor("dc:42", "Lee Ann")  # a Discord member: the slash command /grant names him by his id


async def wallets(service: Service) -> dict[str, int]:
    """The chat's wallets by player id."""
    prefix = f"wallet:{PLACE.chat_id}:"
    rows = await service.store.read(lambda tx: tx.balances(prefix))
    return {name.removeprefix(prefix): chips for name, chips in rows.items()}


async def arrive(service: Service) -> None:
    """Ann (the chat's first player, so its organizer), then Ann Lee, alice and Lee Ann, each with his 1,000 chips."""
    for actor in (ANN, ANN_LEE, ALICE, LEE_ANN):
        assert (await service.handle(PLACE, actor, "/balance")).error is None


@pytest.mark.parametrize(("typed", "said"), [
    ("/grant Ann Lee 50", "Ann Lee receives 50 chips."),
    ('/grant "Ann Lee" 50', "Ann Lee receives 50 chips."),
    ("/grant «ann lee» 50", "Ann Lee receives 50 chips."),
    ("/grant @alice 50", "alice receives 50 chips."),  # a Telegram mention
    ("/grant dc:42 50", "Lee Ann receives 50 chips."),  # what Discord's /grant sends for the member chosen
])
async def test_a_grant_reaches_the_player_named_spaces_and_all(service: Service, typed: str, said: str) -> None:
    await arrive(service)
    reply = await service.handle(PLACE, ANN, typed)
    assert reply.error is None and reply.public == [said]
    receiver = {"Ann Lee": "tg:7", "alice": "tg:8", "Lee Ann": "dc:42"}[said.removesuffix(" receives 50 chips.")]
    expected = {"ann": 1000, "tg:7": 1000, "tg:8": 1000, "dc:42": 1000, receiver: 1050}
    assert await wallets(service) == expected, "Ann, whose name begins Ann Lee's, got nothing"
    await ledger_ok(service)


@pytest.mark.parametrize(("typed", "first_line"), [
    ("/stats Ann Lee", "Ann Lee: no hands played, no tournaments."),
    ("/stats Ann Lee 30d", "Ann Lee over the last 30 days: no hands played, no tournaments."),
    ('/stats 7d "ann lee"', "Ann Lee over the last 7 days: no hands played, no tournaments."),
    ("/stats @alice all", "alice: no hands played, no tournaments."),
    ("/stats dc:42", "Lee Ann: no hands played, no tournaments."),
    ("/stats", "Ann: no hands played, no tournaments."),  # the speaker's own
])
async def test_stats_reach_the_player_named_spaces_and_all(service: Service, typed: str, first_line: str) -> None:
    await arrive(service)
    reply = await service.handle(PLACE, ANN, typed)
    assert reply.error is None and len(reply.public) == 1
    assert reply.public[0].splitlines()[0] == first_line


@pytest.mark.parametrize(("language", "typed", "refusal"), [
    ("en", "/grant Ann Leigh 50", "I don't know a player called “Ann Leigh” here."),
    ("ru", "/grant Ann Leigh 50", "Игрока «Ann Leigh» здесь нет."),
    ("en", "/grant Ann Lee", "The amount must be a whole number of chips above zero, not “Lee”."),
    ("en", '/grant "" 50', "Usage: /grant player chips"),
    ("ru", '/grant "" 50', "Как писать: /grant игрок фишки"),
    ("en", "/stats Ann Leigh 30d", "I don't know a player called “Ann Leigh” here."),
    ("ru", "/stats «Анна Ли»", "Игрока «Анна Ли» здесь нет."),
    ("en", "/stats 30d Ann Lee all", "Usage: /stats [player] [30d|all]"),
    ("ru", "/stats 30d Ann Lee all", "Как писать: /stats [игрок] [30d|all]"),
])
async def test_a_name_nobody_has_is_refused_in_the_speakers_language(service: Service, language: str, typed: str,
                                                                     refusal: str) -> None:
    await arrive(service)
    await refused_without_change(service, ANN, typed, {language: refusal})
    assert await wallets(service) == {"ann": 1000, "tg:7": 1000, "tg:8": 1000, "dc:42": 1000}
