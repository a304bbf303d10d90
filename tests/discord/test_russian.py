"""Discord in Russian: a member's interaction locale picks Russian when the channel chose no language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bot.discord.translator import DESCRIPTION_LIMIT
from bot.i18n import DEFAULT_LANGUAGE, catalogue, languages
from tests.discord.fake_discord import EPHEMERAL, is_name


async def test_a_russian_client_is_answered_in_russian(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ivan, olga = fake.add_member("Ivan"), fake.add_member("Olga")
    ivan.locale = olga.locale = "ru"
    for member in (ivan, olga):
        await fake.slash(member, fake.channels[0], "join")
    await bot.settled()
    contents = [message["content"] for message in fake.channel_messages(fake.channels[0])]
    assert any("садится за стол" in content for content in contents), contents
    balance = await fake.slash(ivan, fake.channels[0], "balance")
    await bot.settled()
    answer = balance.callbacks[0]["data"]
    assert answer["flags"] & EPHEMERAL and "В кошельке" in answer["content"]


async def test_an_english_client_in_a_russian_channel_reads_russian(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ann = fake.add_member("Ann")
    await fake.slash(ann, fake.channels[0], "lang", language="ru")
    await fake.slash(ann, fake.channels[0], "join")
    await bot.settled()
    contents = [message["content"] for message in fake.channel_messages(fake.channels[0])]
    assert any("садится за стол" in content for content in contents), contents


async def test_organizers_and_a_members_own_language(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    await fake.slash(ann, fake.channels[0], "balance")  # the chat's first player organizes it
    named = await fake.slash(bob, fake.channels[0], "organizers")
    await bot.settled()
    assert named.ephemeral_text() == "Organizers: Ann. The chat's admins can do what organizers do."
    refused = await fake.slash(bob, fake.channels[0], "lang", language="ru")
    await bot.settled()
    assert refused.ephemeral_text() == fake.mentioned("Only the organizer — Ann — chooses the chat's language; {lang} "
                                                     "ru with the "
                                        "“me” option chooses yours for what only you read.")
    chosen = await fake.slash(bob, fake.channels[0], "lang", language="ru", me=True)
    await bot.settled()
    assert chosen.ephemeral_text() == "Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."
    balance = await fake.slash(bob, fake.channels[0], "balance")
    await bot.settled()
    assert balance.ephemeral_text() == "В кошельке 1\u00a0000 фишек."  # the welcome grant
    assert (await fake.slash(ann, fake.channels[0], "balance")).ephemeral_text() == "Your wallet: 1,000 chips."


def described(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every command, subcommand and option of a synced command list."""
    for item in items:
        yield item
        yield from described(item.get("options", []))


async def test_every_description_discord_shows_is_a_whole_text_within_discords_limit(fake, turns, make_bot) -> None:
    """Discord refuses a description over 100 characters, so the bot cuts one that is longer: a Russian client
    read /straddle's cut mid-word. Every description synced, in every language, is a whole catalogue text."""
    await make_bot()
    _, commands = fake.synced[-1]
    whole = {language: set(catalogue(language).values()) for language in languages()}
    for item in described(commands):
        for locale, description in {DEFAULT_LANGUAGE: item["description"],
                                    **item.get("description_localizations", {})}.items():
            assert len(description) <= DESCRIPTION_LIMIT, (item["name"], locale, description)
            assert description in whole[locale.split("-")[0]], f"/{item['name']} is cut in {locale}: {description}"
    lang = next(command for command in commands if command["name"] == "lang")
    assert [option["name"] for option in lang["options"]] == ["language", "me"]
    me = lang["options"][1]["name_localizations"]["ru"]
    assert f"«{me}»" in lang["description_localizations"]["ru"]  # the option it names, as a Russian client sees it
    assert f"«{me}»" in lang["options"][0]["description_localizations"]["ru"]


def options(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every option of a synced command list, subcommands and groups left out (`type` 1 and 2)."""
    for item in described(items):
        if item.get("type") not in (1, 2):
            yield item


async def test_a_russian_client_sees_every_option_and_choice_named_in_russian(fake, make_bot) -> None:
    """Option and choice names were English for everyone: Discord shows a client the `name_localizations` of its
    language, and the sync carried them for the commands alone. Every option now has a Russian name within Discord's
    rule (the side bet's too: «пара_плюс», no longer "pairplus"), and every choice one (but the numbers and language
    codes, typed as they are)."""
    await make_bot()
    _, commands = fake.synced[-1]
    every = list(options(commands))
    assert len(every) > 30  # the walk saw the commands' options
    for option in every:
        russian = option.get("name_localizations", {}).get("ru")
        assert russian is not None and is_name(russian), (option["name"], russian)
        assert russian != option["name"], f"{option['name']} is not translated"
        for choice in option.get("choices", []):
            if str(choice["value"]).isdigit() or choice["value"] in languages():
                assert choice["name"] == str(choice["value"]) and "name_localizations" not in choice
                continue
            russian = choice.get("name_localizations", {}).get("ru")
            assert russian is not None and 1 <= len(russian) <= 100, (option["name"], choice)
            assert re.search("[а-яё]", russian, re.IGNORECASE), (option["name"], russian)
    pre = next(command for command in commands if command["name"] == "pre")
    assert [(option["name_localizations"]["ru"], [choice["name_localizations"]["ru"] for choice in
                                                  option.get("choices", [])]) for option in pre["options"]] == [
        ("ход", ["чек или пас", "чек", "колл", "колл любой ставки"]), ("фишки", [])]


async def test_a_russian_clients_options_reach_the_command_by_their_english_names(fake, make_bot) -> None:
    """Discord sends a command's options by their own (English) names whatever the client's language, and the
    handlers read them so: a Russian client's `/язык язык:ru лично:True` is `/lang ru me`."""
    bot = await make_bot("holdem")
    ivan = fake.add_member("Ivan")
    ivan.locale = "ru"
    chosen = await fake.slash(ivan, fake.channels[0], "lang", language="ru", me=True)
    await bot.settled()
    assert chosen.ephemeral_text() == "Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."
    joined = await fake.slash(ivan, fake.channels[0], "join", chips=300)
    await bot.settled()
    assert not joined.ephemeral_text(), joined.ephemeral_text()
    assert any("Ivan" in content and "300" in content
               for content in fake.public_versions()), fake.public_versions()


async def test_a_mixed_channel_keeps_its_first_players_language(fake, make_bot) -> None:
    """A channel with no /lang speaks its first player's language to everyone; a Russian client still reads what
    only he reads (his wallet, a refusal at the edge) in Russian."""
    bot = await make_bot("holdem")
    ann, ivan = fake.add_member("Ann"), fake.add_member("Ivan")
    ivan.locale = "ru"
    for member in (ann, ivan):
        await fake.slash(member, fake.channels[0], "join")
    await bot.settled()
    contents = "\n".join(message["content"] for message in fake.channel_messages(fake.channels[0]))
    assert "Ivan sits down" in contents and "садится" not in contents, contents
    balance = await fake.slash(ivan, fake.channels[0], "balance")
    refused = await fake.slash(ivan, fake.channels[0], "set", name="turn_seconds")
    await bot.settled()
    assert balance.ephemeral_text() == "В кошельке 600 фишек."  # the welcome grant's 1,000 less a buy-in of 400
    assert refused.ephemeral_text() == (
        "Укажите и название настройки, и значение — или ничего, чтобы увидеть список настроек.")
