"""The service's own commands: wallets, grants, languages, help, refusals that change nothing."""

import random
from typing import Any

import pytest

from bot.commands import Command
from bot.games.context import Action
from bot.games.tournament import _SUBCOMMANDS as SUBCOMMANDS
from bot.output import Actor, Place, TableMessage
from bot.service import Service, ServiceSettings
from tests.bot.conftest import ANN, BOB, PLACE, dump
from tests.bot.helpers import ledger_ok


class Idle:
    """A controller with no game in progress, so only the service's own commands do anything."""

    side_bet: str | None = None

    def uses(self, command: type[Command]) -> bool:
        return False

    def usage(self, command: type[Command], config: dict[str, Any], language: str) -> str | None:
        return None

    def handle(self, act: Action, command: Command) -> None:
        raise act.refuse("parse.unknown_command", command=command.name)

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> None: ...

    def resume(self, act: Action) -> None: ...

    def revive(self, state: dict[str, Any]) -> bool:
        return True

    def current_key(self, act: Action) -> str | None:
        return "k1"

    def is_busy(self, act: Action) -> bool:
        return False

    def table_message(self, act: Action) -> TableMessage | None:
        return None

    def private_view(self, act: Action, user_id: str) -> str | None:
        return None


@pytest.fixture
async def service(store, clock):
    svc = Service(store, clock, rng=random.Random(1), settings=ServiceSettings(default_game="idle"),
                  controllers={"idle": Idle()})
    await svc.start()
    return svc


async def test_first_command_opens_a_wallet_with_the_grant(service) -> None:
    reply = await service.handle(PLACE, ANN, "/balance")
    assert reply.private == {"ann": ["Your wallet: 1,000 chips."]}
    assert reply.public == []
    assert await service.store.read(lambda tx: tx.check_ledger()) == []


async def test_grant_is_for_the_organizer_only(service) -> None:
    await service.handle(PLACE, ANN, "/balance")  # ann is the chat's first player: its organizer
    await service.handle(PLACE, BOB, "/balance")
    refused = await service.handle(PLACE, BOB, "/grant ann 100")
    assert refused.error == "Only the organizer — Ann — can do that."
    granted = await service.handle(PLACE, ANN, "/grant @Bob 250")
    assert granted.public == ["Bob receives 250 chips."]
    assert (await service.handle(PLACE, BOB, "/balance")).private["bob"] == ["Your wallet: 1,250 chips."]
    admin = Actor("dan", "Dan", is_admin=True)
    assert (await service.handle(PLACE, admin, "/grant ann 1")).error is None


async def test_a_name_in_any_alphabet_is_found_whatever_its_case(service) -> None:
    """A Russian group types names as they come: "@Боря", "боря", "БОРЯ" all mean Боря. SQLite's lower() folds only
    ASCII letters, so a name with a capital Cyrillic letter was "not here" to /grant and /stats."""
    borya = Actor("tg:7", "Боря")
    await service.handle(PLACE, ANN, "/balance")  # the chat's organizer
    await service.handle(PLACE, borya, "/balance")
    for typed in ("@Боря", "боря", "БОРЯ"):
        assert (await service.handle(PLACE, ANN, f"/grant {typed} 10")).public == ["Боря receives 10 chips."]
        stats = await service.handle(PLACE, ANN, f"/stats {typed}")
        assert stats.public == ["Боря: no hands played, no tournaments."]
    assert (await service.handle(PLACE, borya, "/balance")).private["tg:7"] == ["Your wallet: 1,030 chips."]
    await ledger_ok(service)


async def test_a_name_players_share_is_refused_naming_them_as_the_chat_shows_them(service) -> None:
    """Two Telegram users without a username may both be "Alex": the later one is shown as "Alex (2)", and "Alex"
    means the one shown so. Once that one renamed himself, "Alex" names the three still called so (shown "Alex (2)",
    "Alex (3)" and "Alex (4)"), and a grant to it would credit whichever row came first: it is refused, naming them as
    the chat shows them, which is what a player types to pick one (it named their ids, "tg:2, tg:3", which he
    cannot know), and moves nothing; the name shown then reaches the one meant (so does /stats)."""
    alexes = [Actor(f"tg:{number}", "Alex") for number in (1, 2, 3, 4)]
    await service.handle(PLACE, ANN, "/balance")
    for alex in alexes:
        await service.handle(PLACE, alex, "/balance")
    assert (await service.handle(PLACE, ANN, "/grant alex 5")).public == ["Alex receives 5 chips."]
    await service.handle(PLACE, Actor("tg:1", "Sasha"), "/balance")
    before = dump(service.store.location)
    for line, quoted in (("/grant Alex 100", "Alex"), ("/grant @alex 100", "@\u2060alex"), ("/stats Alex", "Alex")):
        refused = await service.handle(PLACE, ANN, line)
        assert (refused.error, refused.public) == (
            f"More than one player here is called “{quoted}”: write which one you mean, Alex (2), Alex (3), "
            "or Alex (4).", [])
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/lang ru me")).error is None  # Ann's own language
    assert (await service.handle(PLACE, ANN, "/grant Alex 100")).error == (
        "Здесь несколько игроков с именем «Alex» — напишите, кого из них вы имеете в виду: Alex (2), Alex (3) или "
        "Alex (4).")
    assert (await service.handle(PLACE, ANN, "/lang en me")).error is None
    assert (await service.handle(PLACE, ANN, "/grant Alex (2) 100")).public == ["Alex (2) receives 100 chips."]
    stats = (await service.handle(PLACE, ANN, "/stats alex (3)")).public
    assert stats == ["Alex (3): no hands played, no tournaments."]
    assert [(await service.handle(PLACE, alex, "/balance")).private[alex.user_id] for alex in alexes] == [
        ["Your wallet: 1,005 chips."], ["Your wallet: 1,100 chips."], ["Your wallet: 1,000 chips."],
        ["Your wallet: 1,000 chips."]]


@pytest.mark.parametrize(("text", "reason"), [
    ("/frobnicate", "I don't know the command “/\u2060frobnicate”. Type /help for the list."),
    ("/grant ann -5", "The amount must be a whole number of chips above zero, not “-5”."),
    ("/grant nobody 5", "I don't know a player called “nobody” here."),
    ("/raise 10 20", "Usage: /raise [to-chips]"),
    ("/lang xx", "No language “xx”; choose from English (en), русский (ru)."),
    ("/game poker", "No game “poker”; choose from idle."),  # the only game this service has (`Idle`)
    ("", "Type a command, like /help."),
    ("/help nope", "I don't know the command “nope”. Type /help for the list."),
    ("/history ²", "Usage: /history [number of hands | tournament [number]]"),
    ("/history 99999999999", "Usage: /history [number of hands | tournament [number]]"),
])
async def test_bad_input_gets_a_reason_and_changes_nothing(service, store, tmp_path, text, reason) -> None:
    await service.handle(PLACE, ANN, "/balance")
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, text)
    assert reply.error == reason
    assert reply.public == [] and reply.private == {}
    assert dump(service.store.location) == before


async def test_stale_button_is_answered_and_changes_nothing(service, tmp_path) -> None:
    await service.handle(PLACE, ANN, "/balance")
    before = dump(service.store.location)
    reply = await service.press(PLACE, ANN, "k0|fold")
    assert reply.error == "This hand is over."
    assert dump(service.store.location) == before


async def test_language_is_per_chat(service) -> None:
    other = Place("other", "other/table")
    await service.handle(PLACE, ANN, "/lang en")
    english = ["The chat's language: English (en); choose from English (en), русский (ru). /lang ru me chooses yours "
               "for what only you read."]
    assert (await service.handle(PLACE, ANN, "/lang")).private == {"ann": english}
    assert (await service.handle(other, ANN, "/lang")).private == {"ann": english}
    await service.handle(PLACE, ANN, "/lang ru")  # a choice made in one chat stays there
    assert (await service.handle(PLACE, ANN, "/lang")).private == {"ann": [
        "Язык чата: русский (ru); можно выбрать: English (en), русский (ru). /lang ru я выбирает язык только для "
        "ваших личных сообщений."]}
    assert (await service.handle(other, ANN, "/lang")).private == {"ann": english}


async def test_a_grant_is_no_result_on_the_leaderboard(service) -> None:
    await service.handle(PLACE, ANN, "/balance")
    await service.handle(PLACE, BOB, "/balance")
    await service.handle(PLACE, ANN, "/grant bob 5")
    reply = await service.handle(PLACE, ANN, "/top")  # nobody played a cash game: a grant puts nobody on it
    assert reply.public == ["Leaderboard, cash tables (chips won or lost, grants not counted):\n—"]


async def test_help_lists_every_command(service) -> None:
    reply = await service.handle(PLACE, ANN, "/help")
    listing = reply.private["ann"][0]
    assert "/raise [to-chips] — raise to a total" in listing.splitlines()
    assert (await service.handle(PLACE, ANN, "/help ante")).private["ann"] == [
        "/ante chips [box 1-3] [pp|bonus chips]\nplace ANTE on a box (and PAIRPLUS or bonus)"]


async def test_help_shows_a_seasons_name_as_optional(service) -> None:
    """`/help season` showed "start name", as if the name were needed: a season without one is "Season N"."""
    assert (await service.handle(PLACE, ANN, "/help season")).private["ann"] == [
        "/season [start [name] | end]\nthe chat's season: standings, or start and end it (organizer)"]
    assert (await service.handle(PLACE, ANN, "/season start")).error is None
    assert (await service.handle(PLACE, ANN, "/help jion")).error == (
        "I don't know the command “jion”. Did you mean /join? Type /help for the list.")  # as `/jion` itself is


@pytest.mark.parametrize(("language", "item"), [("en", "item number"), ("ru", "номер вещи")])
async def test_help_gives_each_tournament_subcommand_one_name(service, language: str, item: str) -> None:
    # Ending a tournament is `close` (`settle` and `end` are still understood, unlisted); `redeem` takes the number
    # `/tournament redeem` lists the pawned items by.
    await service.handle(PLACE, ANN, f"/lang {language}")
    listing = (await service.handle(PLACE, ANN, "/help")).private["ann"][0]
    line = next(line for line in listing.splitlines() if line.startswith("/tournament "))
    usage = (await service.handle(PLACE, ANN, "/help tournament")).private["ann"][0].splitlines()[0]
    assert line.startswith(usage + " — ")
    subcommands = [part.strip() for part in usage.removeprefix("/tournament ").split("|")]
    assert f"redeem [{item}]" in subcommands and "close" in subcommands
    assert not {"settle", "end"} & {part.split()[0] for part in subcommands}
    # every subcommand the tournament answers is listed (`status` and `clock` were not), its aliases apart
    aliases = {"join": "register", "end": "close", "settle": "close"}
    assert all(SUBCOMMANDS[alias] is SUBCOMMANDS[name] for alias, name in aliases.items())
    listed = {part.split()[0] for part in subcommands if not part.startswith("-")}  # "minutes +N|-N" split at "|"
    assert listed == set(SUBCOMMANDS) - set(aliases)
    assert "settle" not in listing


@pytest.mark.parametrize(("language", "word"), [("en", "me"), ("ru", "я")])
async def test_help_for_lang_names_the_word_its_usage_shows(service, language: str, word: str) -> None:
    """`/lang ru me` and `/lang ru я` both choose one's own language; the Russian help showed `[я]` in the usage and
    then explained it as «me»: the explanation names the word the usage shows."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    usage, about = (await service.handle(PLACE, ANN, "/help lang")).private["ann"][0].splitlines()
    assert usage == f"/lang [en|ru [{word}]]"  # the language was shown as required, but `/lang` alone tells it
    assert (await service.handle(PLACE, ANN, "/lang")).error is None
    assert f"“{word}”" in about or f"«{word}»" in about


async def test_a_renamed_player_is_known_by_his_new_name(service) -> None:
    await service.handle(PLACE, ANN, "/balance")
    await service.handle(PLACE, BOB, "/balance")
    annie = Actor("ann", "Annie")
    assert (await service.handle(PLACE, annie, "/balance")).private["ann"] == ["Your wallet: 1,000 chips."], \
        "a new name is not a new player: no second welcome grant"
    granted = await service.handle(PLACE, annie, "/grant @Annie 5")
    assert granted.public == ["Annie receives 5 chips."]

