"""The service's texts that spell a command as typed in a chat, as Discord shows the slash command
(`bot.discord.typed`): each catalogue message that names one, whole, in both languages; none left stale; nothing
rewritten twice."""

from __future__ import annotations

import re

import pytest
from discord.app_commands import AppCommand

from bot.discord import slash
from bot.discord.board import render
from bot.discord.markup import plain
from bot.discord.pages import CONTENT_LIMIT
from bot.discord.slash import command_mentions
from bot.discord.typed import NO_MENTIONS, SLASH, TYPED, as_slash, names_typed, with_command_mentions
from bot.i18n import catalogue, languages, text
from bot.output import TableMessage
from tests.discord.conftest import Turns
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_adapter import first_hand

REWRITTEN = [  # (language, key, its parameters, what a Discord member reads)
    ("en", "settings.tournament_sets", {"name": "buy_in"},
     "The tournament sets its own limits (its schedule) and buy-in: /set name: buy_in is for the cash table, once the "
     "tournament is over."),
    ("ru", "settings.bad_value", {"value": "x", "label": "Стрэддл", "name": "straddle", "choices": "on, off"},
     "«x» — недопустимое значение для настройки «Стрэддл» (/set название: straddle принимает on, off)."),
    ("en", "settings.list", {"values": "straddle: off"},
     "Table settings:\nstraddle: off\nOrganizers change them with /set name value."),
    ("ru", "settings.list", {"values": "straddle: off"},
     "Настройки стола:\nstraddle: off\nОрганизаторы меняют их командой /set название значение."),
    ("en", "holdem.betting_over_runs", {},
     "Betting is over: answer “run it once or twice?” with the buttons or /run times."),
    ("ru", "holdem.betting_over_runs", {},
     "Торговля окончена: ответьте, раздать борд один раз или дважды, — кнопками или командой /run раз."),
    ("en", "export.no_tournament", {},
     "This table has had no tournament; name one: /export tournament number: N."),
    ("ru", "tournament.items", {"items": "1. куртка"},
     "Ваши заложенные вещи (выкупить между раздачами: /tournament redeem вещь: номер):\n1. куртка"),
    ("en", "parse.usage", {"command": "tournament redeem", "usage": "[item number]"},
     "Usage: /tournament redeem [item: number]"),
    ("ru", "parse.usage", {"command": "pre", "usage": "checkfold|check|call [N]|callany"},
     "Как писать: /pre ход [фишки]"),
    ("en", "parse.usage", {"command": "ante", "usage": "chips [box 1-3] [bonus 10]"},
     "Usage: /ante amount [box 1-3] [bonus: 10]"),  # the table's one size, as typed
    ("ru", "parse.usage", {"command": "ante", "usage": "фишки [box 1-3] [bonus 25]"},
     "Как писать: /ante сумма [бокс 1-3] [бонус: 25]"),
    ("en", "house.betting_open", {"usage": "/ante chips [bonus 20]"}, "Bets are open: /ante amount [bonus: 20], then "
     "/deal (or wait a moment)."),
    ("en", "house.hint.bonus", {"typed": "10"}, "“bonus: 10” for the bonus bet, its only size here"),
    ("ru", "house.hint.bonus", {"typed": "25"},
     "«бонус: 25» — для бонусной ставки, другого размера за этим столом нет"),
    ("en", "holdem.back_choose", {},
     "Welcome back. Post the big blind now and play the next hand (/back choice: post the big blind now), or wait "
     "for the big blind to come to you (/back choice: wait for the big blind)."),
]


@pytest.mark.parametrize(("language", "key", "params", "read"), REWRITTEN,
                         ids=[f"{language}-{key}" for language, key, _, _ in REWRITTEN])
def test_a_message_reads_as_discord_shows_the_command(language: str, key: str, params: dict[str, object],
                                                      read: str) -> None:
    assert as_slash(text(language, key, **params), language) == read


@pytest.mark.parametrize("language", languages())
def test_every_typed_form_is_one_a_message_writes(language: str) -> None:
    """A pair whose typed form no message of its language writes any more would rewrite nothing: a text changed.
    (A usage is written after its command: `/tournament redeem` and `tournament.redeem_usage`.)"""
    messages = catalogue(language)
    written = [template for key, template in messages.items() if not key.startswith(("discord.", "usage."))]
    stale = [key for key, typed in messages.items() if key.startswith(TYPED)
             and not any(typed in template or re.sub(r"\{\w+\}", "", typed) in template for template in written)
             and typed.split(" ", 2)[-1] not in written]
    assert stale == []
    assert {key.removeprefix(TYPED) for key in messages if key.startswith(TYPED)} == {
        key.removeprefix(SLASH) for key in messages if key.startswith(SLASH)}


@pytest.mark.parametrize("language", languages())
def test_what_discord_shows_is_never_rewritten_again(language: str) -> None:
    """A text passes through the rewrite more than once (a line queued again after a lost channel comes back)."""
    for key, template in catalogue(language).items():
        if key.startswith(SLASH):
            filled = template.format(language="ru", name="straddle", typed="50")
            assert [as_slash(filled, language), as_slash(filled, None)] == [filled, filled], key


def test_without_a_language_only_the_forms_no_two_languages_share_are_rewritten() -> None:
    """A public line is rewritten without its chat's language: `/back post` reads alike in English and Russian,
    and is left as it is rather than put in the wrong language; `/ante фишки` is Russian's alone."""
    assert as_slash("/back post", None) == "/back post"
    assert as_slash("Ставьте АНТЕ командой /ante фишки.", None) == "Ставьте АНТЕ командой /ante сумма."
    assert as_slash("place your ANTE with /ante chips.", None) == "place your ANTE with /ante amount."


def test_a_command_inside_a_word_or_a_longer_one_is_left_alone() -> None:
    assert as_slash("blinds 10/20 · /backpost · /set straddle onwards", "en") == (
        "blinds 10/20 · /backpost · /set name: straddle onwards")


def test_a_text_names_a_typed_form_in_any_language() -> None:
    """What tells the adapter to wait for a private answer's language before rewriting it."""
    assert [names_typed(line) for line in ("/back post", "/ante фишки", "/ante amount", "Your cards: A♠ K♠")] == [
        True, True, False, False]


SYNCED = [AppCommand(data={"id": str(number), "application_id": "1", "name": name, "description": "…", "type": 1,
                           "options": [{"type": 1, "name": sub, "description": "…"} for sub in subcommands]},
                     state=None)  # type: ignore[arg-type]  # (parsing options reads no state)
          for number, (name, subcommands) in enumerate([("back", ()), ("lang", ()), ("fold", ()), ("set", ()),
                                                        ("tournament", ("redeem", "status"))], start=101)]
"""What a sync returns (`CommandTree.sync`): each command with the id Discord gave it."""
MENTIONED = [  # (language, key, its parameters, what a Discord member reads once the commands' ids are known)
    ("en", "holdem.back_choose", {},
     "Welcome back. Post the big blind now and play the next hand (</back:101> choice: post the big blind now), or "
     "wait for the big blind to come to you (</back:101> choice: wait for the big blind)."),
    ("ru", "holdem.back_choose", {},
     "С возвращением. Поставьте большой блайнд сразу и играйте со следующей раздачи (</back:101> выбор: поставить "
     "большой блайнд сразу) или дождитесь, когда большой блайнд дойдёт до вас (</back:101> выбор: дождаться "
     "большого блайнда)."),
    ("en", "settings.bad_value", {"value": "x", "label": "Straddle", "name": "straddle", "choices": "on, off"},
     "“x” is not a valid value for “Straddle” (</set:104> name: straddle takes on, off)."),
    ("ru", "tournament.items", {"items": "1. куртка"},
     "Ваши заложенные вещи (выкупить между раздачами: </tournament redeem:105> вещь: номер):\n1. куртка"),
]


@pytest.mark.parametrize(("language", "key", "params", "read"), MENTIONED,
                         ids=[f"{language}-{key}" for language, key, _, _ in MENTIONED])
def test_once_synced_a_text_names_each_slash_command_by_its_mention(language: str, key: str,
                                                                    params: dict[str, object], read: str) -> None:
    """A mention (`</name:id>`, a subcommand's by its group's id) is clickable; Discord shows it by the command's
    English name in every client, so the option words after it stay in the text's language."""
    shown = plain(as_slash(text(language, key, **params), language))
    assert with_command_mentions(shown, command_mentions(SYNCED)) == read


def test_before_the_sync_a_text_names_the_commands_as_written() -> None:
    shown = plain(as_slash(text("en", "holdem.back_choose"), "en"))
    assert with_command_mentions(shown, NO_MENTIONS) == (
        "Welcome back. Post the big blind now and play the next hand (/back choice: post the big blind now), or "
        "wait for the big blind to come to you (/back choice: wait for the big blind).")


def test_a_group_a_command_without_an_id_and_a_mention_stay_as_they_are() -> None:
    """A group runs only as one of its subcommands; `/select` has no slash command; a mention is not mentioned
    again (a text queued again); `10/20` and a link's path name no command."""
    mentions = command_mentions(SYNCED)
    assert mentions == {"back": "</back:101>", "lang": "</lang:102>", "fold": "</fold:103>", "set": "</set:104>",
                        "tournament redeem": "</tournament redeem:105>",
                        "tournament status": "</tournament status:105>"}
    line = "/tournament, /select 1, </fold:103>, </tournament redeem:105>, 10/20, https://x.y//fold, /fold."
    assert with_command_mentions(line, mentions) == (
        "/tournament, /select 1, </fold:103>, </tournament redeem:105>, 10/20, https://x.y//fold, </fold:103>.")


@pytest.mark.parametrize(("table", "to_act", "read"), [
    ("/fold " + "z" * 2100, None, "</fold:103> " + "z" * 1987 + "…"),
    ("/fold " + "z" * 2100, "dc:42", "</fold:103> " + "z" * 1981 + "…\n<@42>"),
    ("/fold " * 400, None, "</fold:103> " * 166 + "/fol…")])
def test_a_table_message_cut_to_discords_length_keeps_within_it_with_its_commands_mentions(
        table: str, to_act: str | None, read: str) -> None:
    """A table message is cut before its commands become mentions (no cut splits one), at the longest length that
    still fits Discord's limit once they are in (a mention is longer than the command it names), the mention of the
    player to act kept after it."""
    rendered = render(TableMessage("h1", table, to_act=to_act), "en", command_mentions(SYNCED))
    assert rendered == read and len(rendered) <= CONTENT_LIMIT


@pytest.mark.parametrize("language", languages())
def test_a_command_just_after_an_opening_quote_is_a_players_input_and_left_alone(language: str) -> None:
    """The catalogue quotes a player's input (“{value}”, «{item}»), never a command of its own: a command just
    after an opening quote is what a player typed (a season's name, a pawned item), never rewritten nor mentioned."""
    assert [key for key, template in catalogue(language).items() if "“/" in template or "«/" in template] == []
    line = "Season “/fold now” has begun (/back post), «/set straddle on»."
    assert as_slash(line, language) == line.replace("(/back post)", f"({text(language, 'discord.slash.back_post')})")
    assert with_command_mentions(line, command_mentions(SYNCED)) == (
        "Season “/fold now” has begun (</back:101> post), «/set straddle on».")


REGISTERING = ("Texas Hold'em — seats:\n{seats}\nRegistration is open: {join} to register; the organizer deals the "
               "first hand with {start}.")
"""A tournament's seats while it registers, its commands as `join` and `start` name them."""


async def test_a_table_message_posted_before_the_sync_names_its_commands_by_their_mentions_once_edited(
        fake: FakeDiscord, make_bot, turns: Turns, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table message a bot posted knowing no command's id (one from before mentions: "/fold" as typed) reads with
    the mentions once a bot that knows them edits it: the hand in play, as the start shows it again and as a press
    edits it, and the registration's seats (not shown again at the start), at the next registration."""
    naming = turns.table_message
    monkeypatch.setattr(turns, "table_message", lambda act: None if (shown := naming(act)) is None else TableMessage(
        shown.key, f"{shown.text}\nFold with /fold.", shown.buttons, shown.to_act))
    with monkeypatch.context() as before:  # a bot that knew no id
        before.setattr(slash, "command_mentions", lambda synced: {})
        bot = await make_bot()
        ann, bob, _, table = await first_hand(fake, bot)
        await fake.slash(ann, fake.channels[1], "game", game="holdem")
        await fake.slash(ann, fake.channels[1], "tournament", subcommand="create")
        await fake.slash(ann, fake.channels[1], "join")
        await bot.settled()
        [seats] = [m for m in fake.channel_messages(fake.channels[1]) if m["content"].startswith("Texas Hold'em")]
        assert fake.messages[int(table["id"])]["content"] == (
            f"Hand 1\n→ Ann\n  Bob\n  Cat\nFold with /fold.\n<@{ann.id}>")
        assert seats["content"] == REGISTERING.format(seats="  Ann — 300", join="/join", start="/tournament start")
        await bot.stop()

    await bot.start()
    await bot.settled()
    assert fake.messages[int(table["id"])]["content"] == fake.mentioned(
        f"Hand 1\n→ Ann\n  Bob\n  Cat\nFold with {{fold}}.\n<@{ann.id}>")
    pressed = await fake.press(ann, table, fake.button(table, "Check"))  # the press edits its own message
    await bot.settled()
    assert pressed.callback_type == 7 and fake.messages[int(table["id"])]["content"] == fake.mentioned(
        f"Hand 1\n  Ann\n→ Bob\n  Cat\nFold with {{fold}}.\n<@{bob.id}>")
    await fake.slash(bob, fake.channels[1], "join")
    await bot.settled()
    assert fake.messages[int(seats["id"])]["content"] == REGISTERING.format(
        seats="  Ann — 300\n  Bob — 300", join=fake.mention("join"), start=fake.mention("tournament start"))
