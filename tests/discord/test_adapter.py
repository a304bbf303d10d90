"""The Discord adapter end to end: the real discord.py client against the fake Discord, with a scripted game."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import AsyncIterator

import discord
import pytest

from bot.discord import intents
from bot.discord.slash import exchange_suggestions
from bot.games.context import Action
from engine.clock import MAX_ADJUST_MINUTES
from tests.discord.fake_discord import (
    ACK_SECONDS,
    EPHEMERAL,
    GUILD_ID,
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    FakeDiscord,
    shown,
)
from tests.discord.test_games import start_tournament

MY_CARDS = "🂠 My cards"


async def seat_three(fake: FakeDiscord, bot) -> tuple:
    ann, bob, cat = fake.add_member("Ann"), fake.add_member("Bob"), fake.add_member("Cat")
    for member in (ann, bob, cat):
        await fake.slash(member, fake.channels[0], "join")
    await bot.settled()
    return ann, bob, cat


async def first_hand(fake: FakeDiscord, bot) -> tuple:
    """Three members seated and hand 1 dealt: the members, and the hand's table message."""
    ann, bob, cat = await seat_three(fake, bot)
    await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    [table] = table_messages(fake, fake.channels[0])
    return ann, bob, cat, table


def table_messages(fake: FakeDiscord, channel: int) -> list[dict]:
    return [m for m in fake.channel_messages(channel) if re.match(r"Hand \d+(\n|: over)", m["content"])]


async def test_commands_are_synced_with_their_options_and_only_the_guilds_intent(fake, turns, make_bot) -> None:
    await make_bot()
    guild, commands = fake.synced[-1]
    assert guild == GUILD_ID
    by_name = {command["name"]: command for command in commands}
    assert {"join", "deal", "raise", "ante", "exchange", "tournament", "grant", "cards"} <= set(by_name)
    ante = {option["name"]: option for option in by_name["ante"]["options"]}
    assert [choice["value"] for choice in ante["box"]["choices"]] == [1, 2, 3]
    assert {"amount", "pairplus", "bonus"} <= set(ante)
    assert ante["amount"]["required"] and not ante["box"].get("required", False)
    assert by_name["exchange"]["options"][0]["autocomplete"] is True
    subcommands = {option["name"] for option in by_name["tournament"]["options"]}
    assert {"create", "register", "status", "start", "pause", "minutes", "close", "redeem"} <= subcommands
    assert "settle" not in subcommands, "one name for closing the tournament: close"
    assert all(command["description"] for command in commands)
    assert fake.identified[-1]["intents"] == intents().value == discord.Intents(guilds=True).value


async def test_a_hand_through_slash_commands_and_buttons(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, cat = await seat_three(fake, bot)
    assert [m["content"] for m in fake.channel_messages(fake.channels[0])] == [
        "Ann sits down.", "Bob sits down.", "Cat sits down."]

    deal = await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    cards = {}
    assert deal.texts(ephemeral=False) == []
    cards["Ann"] = deal.ephemeral_text()
    [table] = table_messages(fake, fake.channels[0])
    assert table["content"] == f"Hand 1\n→ Ann\n  Bob\n  Cat\n<@{ann.id}>"
    assert [b["label"] for b in fake.buttons(table)] == ["Check", MY_CARDS]

    for member in (bob, cat):  # the others read their cards with the button, privately
        mine = await fake.press(member, table, fake.button(table, MY_CARDS))
        await bot.settled()
        assert mine.texts(ephemeral=False) == [] and mine.callback_type == 4
        cards[member.name] = mine.ephemeral_text()
    assert cards == {"Ann": "Your card: 6d", "Bob": "Your card: Js", "Cat": "Your card: 9s"}

    refused = await fake.press(bob, table, fake.button(table, "Check"))  # Ann must act first
    await bot.settled()
    assert refused.ephemeral_text() == "It is not your turn."
    assert fake.edits_of(int(table["id"])) == 0

    for member in (ann, bob):
        await fake.press(member, table, fake.button(table, "Check"))
        await bot.settled()
    table = fake.messages[int(table["id"])]
    assert table["content"] == f"Hand 1\n  Ann\n  Bob\n→ Cat\n<@{cat.id}>"
    secret = [text.removeprefix("Your card: ") for text in cards.values()]
    assert not any(card in text for text in fake.public_versions() for card in secret)

    await fake.slash(cat, fake.channels[0], "check")  # the slash command does what the button does
    await bot.settled()
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
    assert fake.buttons(fake.messages[int(table["id"])]) == []  # a finished hand has no buttons
    last = fake.channel_messages(fake.channels[0])[-1]["content"]
    assert last.startswith("Hand 1 is over:") and all(card in last for card in secret)
    assert all(ix.acked_after is not None and ix.acked_after <= ACK_SECONDS for ix in fake.interactions.values())


async def test_a_press_on_an_old_hand_is_answered_this_hand_is_over(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, _cat, first = await first_hand(fake, bot)
    old = dict(first)  # as Ann's client still shows it
    for member in fake.members.values():
        await fake.slash(member, fake.channels[0], "check")
    await fake.slash(bob, fake.channels[0], "deal")
    await bot.settled()
    assert len(table_messages(fake, fake.channels[0])) == 2  # hand 2 has a new message
    stale = await fake.press(ann, old, fake.button(old, "Check"))
    await bot.settled()
    assert stale.ephemeral_text() == "This hand is over."
    assert stale.callbacks[0]["data"]["flags"] & EPHEMERAL


async def test_a_press_reaches_the_service_once_whether_its_message_still_carries_its_button_or_not(
        fake, turns, make_bot, monkeypatch) -> None:
    """A press discord.py hands to the button on its message is not also taken for one it dropped (a button the bot
    has since taken off the message), and one it dropped is handled too: each reaches the service exactly once."""
    bot = await make_bot()
    ann, bob, cat, table = await first_hand(fake, bot)
    old = dict(table)  # as Ann's client still shows it
    handed: list[tuple[str, str]] = []
    press, view = bot.service.press, bot.service.view
    monkeypatch.setattr(bot.service, "press", lambda place, actor, payload: (
        handed.append((actor.name, payload)), press(place, actor, payload))[1])
    monkeypatch.setattr(bot.service, "view", lambda place, actor: (
        handed.append((actor.name, "view")), view(place, actor))[1])

    for member, label in ((ann, "Check"), (bob, MY_CARDS), (bob, "Check"), (cat, "Check")):  # buttons it carries
        pressed = await fake.press(member, table, fake.button(table, label))
        await bot.settled()
        assert len(pressed.callbacks) == 1
    assert handed == [("Ann", "h1|check"), ("Bob", "view"), ("Bob", "h1|check"), ("Cat", "h1|check")]
    assert fake.buttons(fake.messages[int(table["id"])]) == []  # hand 1 is over: its message lost its buttons

    for label in ("Check", MY_CARDS):
        stale = await fake.press(ann, old, fake.button(old, label))
        await bot.settled()
        assert len(stale.callbacks) == 1
    assert handed[4:] == [("Ann", "h1|check"), ("Ann", "view")]
    assert stale.ephemeral_text() == "You have no cards in play."
    assert fake.failed == []


async def test_restart_mid_hand_keeps_the_old_message_buttons_working(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, cat, table = await first_hand(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    before = fake.requests.count(("POST", f"/channels/{fake.channels[0]}/messages"))

    await bot.stop()
    await bot.start()
    assert len(fake.identified) == 2

    checked = await fake.slash(bob, fake.channels[0], "check")  # no button involved: the stored id is used
    await bot.settled()
    assert checked.ephemeral_text() == (
        f"The table: https://discord.com/channels/{GUILD_ID}/{fake.channels[0]}/{table['id']}")
    assert fake.messages[int(table["id"])]["content"] == f"Hand 1\n  Ann\n  Bob\n→ Cat\n<@{cat.id}>"
    mine = await fake.press(cat, table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert mine.ephemeral_text() == "Your card: 9s"
    pressed = await fake.press(cat, table, fake.button(table, "Check"))
    await bot.settled()
    assert pressed.callback_type == 6 and pressed.texts() == [pressed.texts(ephemeral=False)[0]]
    assert pressed.texts() == ["Hand 1 is over: Ann 6d, Bob Js, Cat 9s."]  # its follow-up, then its own message
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
    posts = fake.requests.count(("POST", f"/channels/{fake.channels[0]}/messages"))
    assert posts == before  # "Hand 1 is over" was the press's answer: the table message was edited, not posted again


async def test_the_commands_mentions_come_from_the_sync_and_outlive_a_restart(fake, turns, make_bot) -> None:
    """Each start syncs the commands and keeps the ids the sync returns; Discord keeps a command's id when it is
    registered again, so what a text names after a restart is the same clickable command."""
    bot = await make_bot()
    mentions = dict(bot.adapter.command_mentions)
    assert [mentions["fold"], mentions["tournament redeem"]] == [fake.mention("fold"),
                                                                 fake.mention("tournament redeem")]
    assert "tournament" not in mentions and "select" not in mentions  # a group alone, a command Discord lacks
    await bot.stop()
    await bot.start()
    assert bot.adapter.command_mentions == mentions
    refused = await fake.slash(fake.add_member("Ann"), fake.channels[0], "fold")
    await bot.settled()
    assert refused.ephemeral_text() == f"{mentions['fold']} is not part of this game."


async def test_a_restart_shows_a_table_in_play_again_when_its_queued_edit_was_lost(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, _ = await seat_three(fake, bot)
    channel = fake.channels[0]
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    [table] = table_messages(fake, channel)
    fake.limit_channel(channel, 1.0)  # Discord makes the channel wait: the table's edit waits its turn
    await fake.slash(ann, channel, "check")
    while not fake.limited:
        await asyncio.sleep(0.01)
    await bot.adapter.delivery.close()  # the process dies (power cut, OOM kill): what was queued is lost
    await bot.stop()
    assert fake.messages[int(table["id"])]["content"] == f"Hand 1\n→ Ann\n  Bob\n  Cat\n<@{ann.id}>"

    await bot.start()
    await bot.settled()
    assert fake.messages[int(table["id"])]["content"] == f"Hand 1\n  Ann\n→ Bob\n  Cat\n<@{bob.id}>", (
        "an older turn stays shown")
    assert table_messages(fake, channel) == [fake.messages[int(table["id"])]]  # edited, not posted again
    await bot.stop()
    await bot.start()
    await asyncio.wait_for(bot.stop(), 5)  # at once, while the tables in play are being looked at: it stops as well


async def test_each_channel_is_its_own_table_and_the_guild_its_wallet(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, _ = await seat_three(fake, bot)
    refused = await fake.slash(ann, fake.channels[1], "deal")  # nobody sits at the second channel's table
    await bot.settled()
    assert refused.ephemeral_text() == "Two players are needed."
    await fake.slash(ann, fake.channels[1], "grant", player=bob, chips=5)
    await bot.settled()
    balance = await fake.slash(bob, fake.channels[0], "balance")
    await bot.settled()
    assert balance.ephemeral_text() == "Your wallet: 1,005 chips."


@contextlib.asynccontextmanager
async def database_thread_busy(bot) -> AsyncIterator[None]:
    """Keep the store's database thread busy (as a long VACUUM would) until the block ends, so that the batches
    meanwhile wait for it and run there rather than in the event loop's thread: a slow store, which the event loop
    does not wait for. An interaction made in the block is acknowledged (it waits for that) before the store can
    answer it, however loaded the machine: no race between the store's pace and `defer_after`."""
    free = threading.Event()
    busy = asyncio.ensure_future(bot.store.outside_transaction(lambda connection: free.wait(ACK_SECONDS * 10)))
    await asyncio.sleep(0)  # queued in the thread
    try:
        yield
    finally:
        free.set()
        await busy


async def test_a_slow_service_is_deferred_then_answered(fake, turns, make_bot) -> None:
    bot = await make_bot(defer_after=0.05)
    ann, bob, _ = await seat_three(fake, bot)
    turns.delay = 0.3
    async with database_thread_busy(bot):
        slash = await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    assert slash.callback_type == 5 and slash.callbacks[0]["data"]["flags"] & EPHEMERAL
    assert slash.ephemeral_text() == "Your card: 6d"
    [table] = table_messages(fake, fake.channels[0])
    async with database_thread_busy(bot):
        press = await fake.press(bob, table, fake.button(table, "Check"))
    await bot.settled()
    assert press.callback_type == 6
    assert press.ephemeral_text() == "It is not your turn."
    assert all(ix.acked_after <= ACK_SECONDS for ix in fake.interactions.values())


async def test_a_refusal_waiting_on_a_slow_store_is_deferred_then_given(fake, turns, make_bot) -> None:
    """A malformed command is refused in the member's language, read from the store first: when the store is slow,
    the command is acknowledged (deferred) once `defer_after` has passed, as a slow service's answer is, so that the
    read never holds the acknowledgement past Discord's three seconds. It was answered only once the read was done."""
    bot = await make_bot(defer_after=0.01)
    ann = fake.add_member("Ann")
    async with database_thread_busy(bot):
        refused = await fake.slash(ann, fake.channels[0], "set", name="small_blind")
    await bot.settled()
    assert refused.callback_type == 5 and refused.callbacks[0]["data"]["flags"] & EPHEMERAL
    assert refused.ephemeral_text() == "Give both the setting's name and its value, or neither to list the settings."


async def test_a_public_answer_waiting_on_the_chats_language_is_deferred_publicly(fake, turns, make_bot,
                                                                                monkeypatch) -> None:
    """After the service's work, the chat's language is read before the answer is given: when that read is slow,
    the command is acknowledged once `defer_after` has passed (it waited for the read, however long). Its answer
    meant for the channel ("Ann sits down.") is deferred as the channel's "thinking" message, then becomes it."""
    bot = await make_bot(defer_after=0.05)
    language = bot.service.language

    async def slow_language(place, actor) -> str:
        for interaction in list(fake.interactions.values()):  # as slow as it takes: done only once acknowledged
            await interaction.acked.wait()
        return await language(place, actor)

    monkeypatch.setattr(bot.service, "language", slow_language)
    ann = fake.add_member("Ann")
    joined = await fake.slash(ann, fake.channels[0], "join")
    await bot.settled()
    assert joined.callback_type == 5 and not joined.callbacks[0].get("data", {}).get("flags", 0) & EPHEMERAL
    assert joined.texts(ephemeral=False) == ["Ann sits down."] and joined.ephemeral_text() == ""


async def test_edits_are_coalesced_to_the_newest_state(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, cat = await seat_three(fake, bot)
    await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    [table] = table_messages(fake, fake.channels[0])
    fake.limit_channel(fake.channels[0], 1.0)  # the channel is busy: the clock's announcement waits 1 s
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    for member in (ann, bob):  # two slash commands (which cannot update a message themselves) meanwhile
        await fake.slash(member, fake.channels[0], "check")
    await bot.settled()
    assert fake.edits_of(int(table["id"])) == 1
    assert fake.messages[int(table["id"])]["content"] == f"Hand 1\n  Ann\n  Bob\n→ Cat\n<@{cat.id}>"


async def test_clock_announcements_are_posted_by_the_scheduler(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann, _, _ = await seat_three(fake, bot)
    await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await bot.settled()
    assert fake.channel_messages(fake.channels[0])[-1]["content"] == "Clock: level 2 begins (hand 1)."


async def test_what_resuming_a_table_says_at_start_up_is_posted_once_connected(fake, turns, make_bot,
                                                                             monkeypatch) -> None:
    """A hand voided at start-up is announced: the service keeps the reply until the adapter has connected."""
    bot = await make_bot()
    await seat_three(fake, bot)
    await bot.stop()
    monkeypatch.setattr(turns, "revive", lambda state: False)  # start-up resumes only such tables

    def voided(act: Action) -> bool:
        act.reply.public.append("Hand 1 could not be resumed.")
        return True

    monkeypatch.setattr(turns, "resume", voided)
    await bot.start()
    for _ in range(100):
        if fake.channel_messages(fake.channels[0])[-1]["content"] == "Hand 1 could not be resumed.":
            break
        await asyncio.sleep(0.01)
    await bot.settled()
    assert fake.channel_messages(fake.channels[0])[-1]["content"] == "Hand 1 could not be resumed."


async def test_organizer_commands_check_the_members_rights(fake, turns, make_bot) -> None:
    role = fake.add_role("Croupier")
    bot = await make_bot(organizer_role="Croupier")
    first, bob = fake.add_member("First"), fake.add_member("Bob")
    boss = fake.add_member("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
    croupier = fake.add_member("Croupier", roles=[role])
    for member in (first, bob):  # the chat's first player organizes it
        await fake.slash(member, fake.channels[0], "balance")
    refused = await fake.slash(bob, fake.channels[0], "grant", player=first, chips=10)
    await bot.settled()
    assert refused.ephemeral_text() == "Only the organizer — First — can do that."
    for member in (boss, croupier):
        granted = await fake.slash(member, fake.channels[0], "grant", player=bob, chips=10)
        await bot.settled()
        assert granted.texts(ephemeral=False) == ["Bob receives 10 chips."]


UNKNOWN_STRANGER = {"en": "I don't know a player called “Stranger Danger” here.",
                    "ru": "Игрока «Stranger Danger» здесь нет."}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_member_who_never_played_is_quoted_by_his_name(fake, make_bot, language: str) -> None:
    """/grant and /stats name a member by a mention, which the bot reads as his id: for a member who never played
    here the refusal quotes him as Discord shows him (it quoted his id, “dc:<id>”), and nothing is posted."""
    bot = await make_bot()
    ann, stranger = fake.add_member("Ann"), fake.add_member("Stranger Danger")
    ann.locale = language
    await fake.slash(ann, fake.channels[0], "balance")  # the chat's first player organizes it
    await bot.settled()
    shown = fake.channel_messages(fake.channels[0])
    granted = await fake.slash(ann, fake.channels[0], "grant", player=stranger, chips=50)
    stats = await fake.slash(ann, fake.channels[0], "stats", player=stranger)
    await bot.settled()
    assert (granted.ephemeral_text(), stats.ephemeral_text()) == (UNKNOWN_STRANGER[language],) * 2
    assert fake.channel_messages(fake.channels[0]) == shown


async def test_bad_options_are_refused_privately_at_the_edge(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann = fake.add_member("Ann")
    both = await fake.slash(ann, fake.channels[0], "ante", amount=10, pairplus=5, bonus=5)
    await bot.settled()
    assert both.callback_type == 4 and both.ephemeral_text() == "Choose one side bet: PAIRPLUS or bonus."


HELP_ON_DISCORD = {
    "en": ["{back} [choice] — come back after {away} (cash table: post the big blind now, or wait for it)",
           "{straddle} [off] — straddle the next hand (twice the big blind, left of the big blind); the off option "
           "takes it back",
           "{pre} choice [chips] — choose your move before your turn: check/fold, check, call N or call any (again to "
           "cancel)",
           "{run} times — run the board once or twice when everyone is all-in",
           "{ante} amount [box 1-3] [pairplus | bonus] — place ANTE on a box (and PAIRPLUS or bonus)",
           "{tournament create} [schedule] | register | status | start | pause | resume | skip | minutes ±N | cashout "
           "| redeem [item] | close — tournament commands (the organizer's: create, start, pause, resume, skip, "
           "minutes, close)",
           "{lang} [en|ru] [me] — choose the chat's language (organizer), or with the “me” option your own",
           "{history} [which: number of hands | tournament [number]] — the last hands in PokerStars format",
           "{stats} [player] [period: 30d|all] — a player's statistics (all time, or the last days: 30d)",
           "{season standings} | start [name] | end — the chat's season: standings, or start and end it (organizer)",
           "{export ledger} | tournament [number] — the ledger or a tournament as CSV files, privately (organizer)"],
    "ru": ["{back} [выбор] — вернуться после {away} (за кэш-столом: поставить большой блайнд сразу или дождаться его)",
           "{straddle} [отказаться] — стрэддл в следующей раздаче (два больших блайнда, слева от большого); "
           "«отказаться» снимает его",
           "{pre} ход [фишки] — выбрать ход заранее: чек/пас, чек, колл N или колл любой (повторно — отменить)",
           "{run} раз — раздать борд один или два раза, когда все в олл-ине",
           "{ante} сумма [бокс 1-3] [пара_плюс | бонус] — поставить АНТЕ на бокс (и ставку «Пара плюс» или бонус)",
           "{tournament create} [расписание] | записаться | статус | начать | пауза | продолжить | "
           "следующий-уровень | минуты ±N | обналичить | выкупить [вещь] | закрыть — турнир (только организатор: "
           "создать, начать, пауза, продолжить, следующий-уровень, минуты, закрыть)",
           "{lang} [en|ru] [лично] — выбрать язык чата (организатор) или, с параметром «лично», свой",
           "{history} [что: число раздач | tournament [номер]] — последние раздачи в формате PokerStars",
           "{stats} [игрок] [период: 30d|all] — статистика игрока (за всё время или за последние дни: 30d)",
           "{season standings} | начать [название] | завершить — сезон чата: таблица, начать или завершить его "
           "(организатор)",
           "{export ledger} | турнир [номер] — журнал фишек или турнир в файлах CSV, лично вам (организатор)"],
}
"""`/help`'s lines whose commands Discord shows with options or subcommands named otherwise than a Telegram chat types
them (a Russian client shows `/tournament start` as `/турнир начать`), each `{name}` the mention of the command it names
(`FakeDiscord.mentioned`): Discord shows a mention by its English name in every client, so the subcommand a mention
holds stays English, and the others are named as the member's client names them."""


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_help_names_the_slash_commands_and_their_options_as_discord_shows_them(fake, turns, make_bot,
                                                                                      language: str) -> None:
    """/help wrote the chat's typed forms: `/select` (no slash command: the card buttons mark the cards), `pp`
    for the PAIRPLUS option, `/tournament … clock | rebuy | addon` (slash commands of their own), `/lang ru me`,
    `/pre checkfold|check|call [N]|callany` for its choice and chips, `/history … tournament [number]` for its
    `which`; and in Russian `/tournament`'s, `/season`'s and `/export`'s subcommands by their English words (`start`,
    `end`, `tournament`), which a Russian client names `начать`, `завершить`, `турнир`."""
    bot = await make_bot()
    ann = fake.add_member("Ann")
    ann.locale = language
    helped = await fake.slash(ann, fake.channels[0], "help")
    one = {command: await fake.slash(ann, fake.channels[0], "help", command=command)
           for command in ("ante", "tournament", "season", "export")}
    await bot.settled()
    lines = shown(helped.ephemeral_text()).split("\n")
    named = (*(fake.mention(name) for name in ("back", "straddle", "pre", "run", "ante", "tournament create", "lang",
                                               "history", "stats", "season standings", "export ledger")),
             "/back", "/tournament", "/season", "/export", "/select")  # (those last as they would read unmentioned)
    expected = [fake.mentioned(line) for line in HELP_ON_DISCORD[language]]
    assert [line for line in lines if line.startswith(named)] == expected
    assert {command: shown(answer.ephemeral_text()) for command, answer in one.items()} == {
        command: expected[index].replace(" — ", "\n")
        for command, index in (("ante", 4), ("tournament", 5), ("season", 9), ("export", 10))}
    offered = await fake.autocomplete(ann, fake.channels[0], "help", "command", "se")
    assert [choice["value"] for choice in offered] == ["set", "raise", "season"]  # no "select"


def test_exchange_suggestions_clean_what_was_typed() -> None:
    assert exchange_suggestions("", (1, 2, 3, 4, 5)) == ["1", "2", "3", "4", "5"]
    assert exchange_suggestions("5 5 x 9 1", (1, 2, 3, 4, 5)) == ["5 1", "5 1 2", "5 1 3", "5 1 4"]
    assert exchange_suggestions("2,5", (1, 2, 3, 4, 5)) == ["2 5", "2 5 1", "2 5 3", "2 5 4"]
    assert exchange_suggestions("3 2", (1, 2)) == ["2", "2 1"]  # a third card is no card of a Texas Poker box
    assert exchange_suggestions("1", ()) == []


EXCHANGE_SUGGESTIONS = {
    "texas": (["1", "2"], ["2", "2 1"]),  # a box holds two cards (RULES.md §2), exchanging one or both
    "russian": (["1", "2", "3", "4", "5"], ["2", "2 1", "2 3", "2 4", "2 5"]),  # 1–5 of five (§3)
    "caribbean": (["1", "2", "3", "4", "5"], ["2", "2 1", "2 3", "2 4", "2 5"]),  # any of five, a fee each (§4)
    "three-card": ([], []),  # no exchange (§5): /exchange is refused there
    "holdem": ([], []),
}
"""What `/exchange` suggests at a table of each game, typed nothing and typed "2"."""


@pytest.mark.parametrize("game", sorted(EXCHANGE_SUGGESTIONS))
async def test_exchange_suggests_the_cards_a_box_of_the_tables_game_may_exchange(fake, turns, make_bot,
                                                                                   game: str) -> None:
    """/exchange's completions offered cards 1–5 at every table, though a Texas Poker box holds two cards and Three
    Card Poker has no exchange; a table not in memory (never played here) is offered what any game may take."""
    await make_bot()
    ann = fake.add_member("Ann")
    fresh = await fake.autocomplete(ann, fake.channels[1], "exchange", "cards", "")
    await fake.slash(ann, fake.channels[0], "game", game=game)
    offered = [[choice["value"] for choice in await fake.autocomplete(ann, fake.channels[0], "exchange", "cards",
                                                                        typed)] for typed in ("", "2")]
    assert ([choice["value"] for choice in fresh], offered) == (["1", "2", "3", "4", "5"],
                                                               list(EXCHANGE_SUGGESTIONS[game]))


async def test_run_discord_runs_from_the_settings_until_cancelled(fake, controllers, tmp_path) -> None:
    from types import SimpleNamespace

    from bot.clock import FakeClock
    from bot.discord import run_discord
    from bot.service import Service, ServiceSettings
    from bot.store import Store

    store = await Store.open(tmp_path / "run.db")
    service = Service(store, FakeClock(), settings=ServiceSettings(default_game="turns"), controllers=controllers)
    await service.start()
    settings = SimpleNamespace(discord_token="fake-token", discord_guild=None, discord_organizer_role=None,
                               discord_shard_count=1, discord_shard_ids=None)
    running = asyncio.create_task(run_discord(service, settings))
    await fake.wait_connected()
    assert fake.synced[-1][0] is None  # no guild configured: synced globally
    answer = await fake.slash(fake.add_member("Ann"), fake.channels[0], "balance")
    assert answer.ephemeral_text() == "Your wallet: 1,000 chips."
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    await store.close()


async def test_clock_with_the_tv_option_is_clock_tv(fake, turns, make_bot) -> None:
    bot = await make_bot()
    ann = fake.add_member("Ann")
    clock = {option["name"]: option for option in
             {command["name"]: command for command in fake.synced[-1][1]}["clock"]["options"]}
    assert clock["tv"]["type"] == 5 and not clock["tv"].get("required", False)
    asked = await fake.slash(ann, fake.channels[0], "clock", tv=True)
    await bot.settled()
    assert asked.ephemeral_text() == (  # Discord's markdown would read the names' underscores as italics
        "The clock page is off. To serve it, set POKERBOT\\_WEB\\_PORT (a port) and POKERBOT\\_WEB\\_URL (the "
        "address your TV's browser reaches, like http://192.168.1.20:8080) in the bot's .env file, then restart the "
        "bot.")
    assert asked.texts(ephemeral=False) == []


async def test_a_process_opens_only_the_shards_it_is_given(monkeypatch) -> None:
    """`DISCORD_SHARD_COUNT=4` and `DISCORD_SHARD_IDS=1,3` reach discord.py's sharded client, which launches the
    shards `shard_ids` names out of `shard_count` (`AutoShardedClient.launch_shards`): this process opens shards 1
    and 3 of 4 (the other processes of the bot open 0 and 2); without the settings, the plain client is the whole
    bot."""
    from types import SimpleNamespace

    import discord

    from bot.config import load_settings
    from bot.discord import DiscordOptions
    from bot.discord.adapter import make_client

    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "1,3")
    settings = load_settings(None)
    options = DiscordOptions(shard_count=settings.discord_shard_count, shard_ids=settings.discord_shard_ids)
    client = make_client(SimpleNamespace(options=options, on_command_error=None))  # type: ignore[arg-type]
    assert isinstance(client, discord.AutoShardedClient)
    assert (client.shard_count, client.shard_ids) == (4, [1, 3])
    whole = make_client(SimpleNamespace(options=DiscordOptions(), on_command_error=None))  # type: ignore[arg-type]
    assert not isinstance(whole, discord.AutoShardedClient)


async def test_tournament_minutes_moves_the_levels_end_either_way(fake, make_bot) -> None:
    """`/tournament minutes` sends `/tournament minutes N`, which moves the current level's end: it takes a negative
    number to shorten the level, as far as the clock allows, and says so."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    tournament = {command["name"]: command for command in fake.synced[-1][1]}["tournament"]
    (minutes,) = next(option for option in tournament["options"] if option["name"] == "minutes")["options"]
    assert (minutes["min_value"], minutes["max_value"]) == (-MAX_ADJUST_MINUTES, MAX_ADJUST_MINUTES)
    assert minutes["description"] == "minutes to move this level's end by; negative shortens it"
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    await start_tournament(fake, bot, channel, ann, bob)
    assert "⏱ Level 1: limits 10/20 (blinds 5/10), 11h00m left; next: break." in fake.public_versions()
    shorter = await fake.slash(ann, channel, "tournament", subcommand="minutes", minutes=-5)
    await bot.settled()
    assert shorter.texts(ephemeral=False) == ["⏱ Level 1: limits 10/20 (blinds 5/10), 10h55m left; next: break."]
    zero = await fake.slash(ann, channel, "tournament", subcommand="minutes", minutes=0)
    await bot.settled()
    assert zero.ephemeral_text() == "Add or remove at least one minute."


async def test_tournament_status_answers_the_member_alone(fake, make_bot) -> None:
    """`/tournament status` (the chat's `/tournament status`) is a subcommand on Discord too, answered to the member
    alone: the clock's level and time left."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    await start_tournament(fake, bot, channel, ann, bob)
    status = await fake.slash(bob, channel, "tournament", subcommand="status")
    await bot.settled()
    assert status.texts(ephemeral=False) == []
    assert status.ephemeral_text() == "⏱ Level 1: limits 10/20 (blinds 5/10), 11h00m left; next: break."


async def test_settled_on_postgresql_waits_for_the_starts_first_look_only(fake, turns, make_bot, postgres_url) -> None:
    """On PostgreSQL the task a start leaves renews the claims on old table messages forever
    (`bot.retiring.queue_kept`): `settled` waits for its first look, then for what interactions queued (it waited
    for that task's end: forever)."""
    bot = await make_bot(database=postgres_url)
    async with asyncio.timeout(10):
        await seat_three(fake, bot)
    assert [m["content"] for m in fake.channel_messages(fake.channels[0])] == [
        "Ann sits down.", "Bob sits down.", "Cat sits down."]
