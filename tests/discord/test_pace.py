"""Discord at its real pace: the fake applies the per-channel buckets, members press as fast as they can, a channel
is rate-limited or may not attach files, and the bot still answers at once, keeps the table message current, and
never lets one channel hold up another."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.i18n import text
from tests.bot.helpers import ledger_ok
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, Interaction, until
from tests.discord.test_games import action, cards_in, current_table, to_act

MY_CARDS = text("en", "button.my_cards")


async def instant_presses(fake: FakeDiscord, channel: int, *preferred: str) -> list[Interaction]:
    """Whoever must act presses at once, reading the table from the pressed message as his press left it (no
    waiting for the bot to settle; a press that has a line for the channel, the hand's end, is acknowledged first
    and shows the table right after its line); returns the presses."""
    presses: list[Interaction] = []
    table = current_table(fake, channel)
    while re.search(r"<@\d+>", table["content"]) and any(":a:" in str(b.get("custom_id")) for b in fake.buttons(table)):
        shown = table["content"]
        pressed = await fake.press(to_act(fake, table), table, action(fake, table, *preferred))
        presses.append(pressed)
        table = fake.messages[int(table["id"])]
        if pressed.callback_type == 6:
            await until(lambda message=table, before=shown: message["content"] != before,
                        f"the table after {pressed.user.name}'s press")
        assert len(presses) < 60
    return presses


def announced(pressed: Interaction) -> str:
    """The line a press gave the channel: acknowledged at once, its public follow-up, then its message updated."""
    assert pressed.callback_type == 6, pressed.callbacks
    [line] = pressed.texts(ephemeral=False)
    return line


def story(content: str) -> list[str]:
    """The story lines of a table message: under the seats after a blank line, without whose turn it is (nor the
    mention of him)."""
    lines = content.split("\n\n", 1)[1].splitlines() if "\n\n" in content else []
    return [line for line in lines if not line.startswith(("▶", "<@")) and line != "The hand is over."]


def new_lines(before: str, after: str) -> list[str]:
    """The story lines `after` adds to `before` (the story keeps its latest lines: older ones scroll away)."""
    old, new = story(before), story(after)
    for start in range(len(old) + 1):
        kept = old[start:]
        if new[:len(kept)] == kept:
            return new[len(kept):]
    return new


def before_anything_else(fake: FakeDiscord, pressed: Interaction, kind: int = 7) -> None:
    """The press's callback is the first request the bot made after the press, and it updated the message (or, of
    `kind` 6, acknowledged it: its line and its update follow)."""
    after = [(method, path) for at, method, path, _ in fake.timeline if at >= pressed.sent_at]
    assert after[0] == ("POST", f"/interactions/{pressed.id}/{pressed.token}/callback"), after[:3]
    assert pressed.callback_type == kind


@pytest.mark.parametrize(("game", "preferred"), [
    ("holdem", ("check", "call")),
    ("three-card", ("play", "fold")),
])
async def test_instant_presses_are_answered_at_once_and_each_reaches_the_table(
        fake: FakeDiscord, make_bot, game: str, preferred: tuple[str, ...]) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")]
    if game != "holdem":
        await fake.slash(members[0], channel, "game", game=game)
    for member in members:
        await fake.slash(member, channel, "join", chips=200) if game == "holdem" else \
            await fake.slash(member, channel, "ante", amount=10)
    await fake.slash(members[0], channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    secret: set[str] = set()
    for member in members:
        mine = await fake.press(member, table, fake.button(table, MY_CARDS))
        secret |= cards_in(mine.ephemeral_text())
    await bot.settled()
    versions_before = fake.edits_of(int(table["id"]))
    dealt = table["content"]

    presses = await instant_presses(fake, channel, *preferred)
    await bot.settled()

    assert len(presses) >= len(members)
    assert fake.limited == []  # the bot paced itself: no 429 at all
    *playing, last = presses
    for pressed in playing:  # each press answered at once, before anything else, with the table as it left it
        before_anything_else(fake, pressed)
        assert pressed.callbacks[0]["data"]["content"]
    before_anything_else(fake, last, kind=6)
    assert re.match("Showdown|.*Round over", announced(last), re.DOTALL)  # then the table
    contents = [pressed.callbacks[0]["data"]["content"] for pressed in playing]
    contents.append(fake.messages[int(table["id"])]["content"])
    assert len(set(contents)) == len(contents)  # every action changed what the table message shows
    for pressed, before, after in zip(presses, [dealt, *contents], contents, strict=False):
        told = new_lines(before, after)  # the table tells each action: "Bob calls 20.", "Bob, box 1: plays (20)."
        assert told and re.match(rf"{pressed.user.name}(,| )", told[0]), (pressed.user.name, told)
    later = [m["content"] for m in fake.channel_messages(channel) if int(m["id"]) > int(table["id"]) and m["content"]]
    assert len(later) == 1 and re.match("Showdown|.*Round over", later[0], re.DOTALL), later  # no narration
    assert fake.edits_of(int(table["id"])) >= versions_before + len(presses)
    assert fake.messages[int(table["id"])]["content"] == contents[-1]  # and it still shows the last state
    public = fake.public_versions()
    over = next(i for i, version in enumerate(public) if re.search("Showdown|Round over", version))
    assert not any(cards_in(version) & secret for version in public[:over])  # no hole card before the end
    await ledger_ok(bot.service)


async def test_a_press_updates_its_message_before_anything_else_is_sent(fake: FakeDiscord, turns, make_bot) -> None:
    bot = await make_bot()
    ann, bob, cat = (fake.add_member(name) for name in ("Ann", "Bob", "Cat"))
    for member in (ann, bob, cat):
        await fake.slash(member, fake.channels[0], "join")
    await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    table = current_table(fake, fake.channels[0])
    first = await fake.press(ann, table, fake.button(table, "Check"))
    before_anything_else(fake, first)
    assert first.callbacks[0]["data"]["content"] == f"Hand 1\n  Ann\n→ Bob\n  Cat\n<@{bob.id}>"
    await fake.press(bob, table, fake.button(table, "Check"))
    last = await fake.press(cat, table, fake.button(table, "Check"))  # ends the hand: a public text too
    await bot.settled()
    before_anything_else(fake, last, kind=6)  # acknowledged; its line, read before the table shows the hand over
    assert announced(last) == "Hand 1 is over: Ann 6d, Bob Js, Cat 9s."
    told = [m for m in fake.channel_messages(fake.channels[0]) if m["content"].startswith("Hand 1 is over")]
    assert told == last.messages
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
    channel_requests = [(method, path) for at, method, path, _ in fake.timeline
                        if at >= first.sent_at and path.startswith("/channels/")]
    assert channel_requests == []  # all through the interactions: nothing of the channel's buckets


async def test_a_rate_limited_channel_does_not_delay_another_channels_timer(fake: FakeDiscord, turns,
                                                                            make_bot) -> None:
    bot = await make_bot()
    busy, calm = fake.channels
    for channel in (busy, calm):
        members = [fake.add_member(f"{name}{channel % 10}") for name in ("Ann", "Bob")]
        for member in members:
            await fake.slash(member, channel, "join")
        await fake.slash(members[0], channel, "deal")
    await bot.settled()
    fake.limit_channel(busy, 3.0)  # Discord makes the first channel wait three seconds

    def said(channel: int) -> str:
        return str(fake.channel_messages(channel)[-1]["content"])

    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 2  # both clocks fire, and the scheduler does not wait:
    assert not said(busy).startswith("Clock:")  # it is back while the first channel's announcement waits
    await until(lambda: said(calm).startswith("Clock: level 2"), "the calm channel's announcement")
    assert not said(busy).startswith("Clock:")  # the other channel's came meanwhile, and this one still waits
    await bot.settled()
    assert said(calm) == said(busy) == "Clock: level 2 begins (hand 1)."  # and then it came
    assert [hit[1] for hit in fake.limited] and all(str(busy) in hit[1] for hit in fake.limited)


@pytest.mark.parametrize("told_by_discord", [True, False], ids=["permissions-known", "upload-refused"])
async def test_attach_files_denied_still_updates_the_table_and_names_it_once(
        fake: FakeDiscord, make_bot, told_by_discord: bool) -> None:
    """Without Attach Files, the pictures the bot posts as its own messages are left out and the permission named
    once; the showdown's, attached to the follow-up of the press that ended the hand, is shown (an interaction may
    attach files without the permission)."""
    channel = fake.channels[0]
    fake.denied_uploads.add(channel)
    fake.hide_denial = not told_by_discord  # else the interactions' app_permissions already say it
    bot = await make_bot(default_game="holdem")
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "set", name="pictures", value="streets")  # a picture at every street
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    await instant_presses(fake, channel, "check", "call")
    await bot.settled()
    messages = fake.channel_messages(channel)
    with_pictures = [m for m in messages if m["attachments"]]  # the streets' (messages of their own) left out
    assert [a["description"] for m in with_pictures for a in m["attachments"]] == ["Hand #1 · showdown"]
    assert with_pictures[0]["content"].startswith("Showdown — ")  # under the line of the press that ended it
    notice = text("en", "discord.need_attach_files")
    assert [m["content"] for m in messages].count(notice) == 1  # named once, not on every street
    shown = [v["content"] for v in fake.versions if int(v["id"]) == int(table["id"])]
    assert any("\nFlop: " in content for content in shown)  # the flop told in the table message
    assert any("Board: —" not in content and "Board:" in content for content in shown)  # the flop reached it
    assert fake.messages[int(table["id"])]["content"] == shown[-1]


async def test_a_long_history_arrives_whole_in_several_ephemerals(fake: FakeDiscord, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    for hand in range(4):  # four hands: beaten hands are mucked in a line, so three may fit in 3,000 characters
        await fake.slash(members[hand], channel, "deal")
        await bot.settled()
        await instant_presses(fake, channel, "check", "call")
        await bot.settled()
    shown = await fake.slash(members[1], channel, "history", which="4")
    await bot.settled()
    texts = shown.texts(ephemeral=True)
    assert shown.texts(ephemeral=False) == [] and len(texts) >= 2
    assert sum(len(part) for part in texts) > 3000 and all(len(part) <= 2000 for part in texts)
    assert [part.count("PokerStars Hand #") for part in texts] and "\n".join(texts).count("PokerStars Hand #") == 4
    assert not any(part.endswith("…") for part in texts)


async def test_a_long_private_answer_is_split_at_line_ends_or_sent_as_a_file(fake: FakeDiscord, turns,
                                                                            make_bot) -> None:
    bot = await make_bot()
    ann = fake.add_member("Ann")
    turns.note = "\n".join(f"line {n:04d} " + "x" * 60 for n in range(50))  # 3,500 characters, one message
    shown = await fake.slash(ann, fake.channels[0], "table")
    await bot.settled()
    texts = shown.texts(ephemeral=True)
    assert len(texts) == 2 and all(len(part) <= 2000 for part in texts)
    assert "\n".join(texts) == turns.note  # whole, cut between lines

    turns.note = "\n".join(f"line {n:04d} " + "x" * 60 for n in range(200))  # 14,000 characters: a file
    filed = await fake.slash(ann, fake.channels[0], "table")
    await bot.settled()
    assert filed.texts(ephemeral=True)[0] == text("en", "discord.long_answer")
    ((_, _, content, ephemeral),) = [item for item in fake.files if item[1] == "table.txt"]
    assert ephemeral and content.decode() == turns.note


async def test_slash_commands_are_synced_with_russian_names_and_descriptions(fake: FakeDiscord, turns,
                                                                            make_bot) -> None:
    await make_bot()
    _, commands = fake.synced[-1]
    by_name: dict[str, dict[str, Any]] = {command["name"]: command for command in commands}
    join = by_name["join"]
    assert join["name_localizations"]["ru"] == text("ru", "discord.name.join") == "сесть"
    assert join["description_localizations"]["ru"] == text("ru", "about.join")
    chips = join["options"][0]
    assert chips["description_localizations"]["ru"] == text("ru", "discord.option.join.chips")
    create = next(o for o in by_name["tournament"]["options"] if o["name"] == "create")
    assert create["name_localizations"]["ru"] == "создать"
    assert create["description_localizations"]["ru"] == text("ru", "discord.about.tournament.create")
    game = by_name["game"]["options"][0]
    assert {c["value"]: c["name_localizations"]["ru"] for c in game["choices"]}["holdem"] == text("ru", "game.holdem")
    assert all("ru" in command["name_localizations"] and "ru" in command["description_localizations"]
               for command in commands)  # every command, and the fake refused none of them


async def test_stats_about_a_member_who_left_the_server(fake: FakeDiscord, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    await instant_presses(fake, channel, "check", "call")
    await bot.settled()
    bob.left = True
    stats = await fake.slash(ann, channel, "stats", player=bob)
    await bot.settled()
    assert stats.texts() == ["Bob: 1 hand played, 0 won · cash games: net −20, biggest pot 0\n"
                             "VPIP 0% · PFR 0% · aggression factor — · went to showdown 100% · won at showdown 0%"]


async def test_a_channel_the_bot_can_no_longer_reach_is_noted_once(fake: FakeDiscord, turns, make_bot,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    lost, other = fake.channels
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, lost, "join")
    await fake.slash(ann, lost, "deal")
    await fake.slash(ann, other, "balance")
    await bot.settled()
    caplog.set_level(logging.WARNING, logger="bot.discord")
    fake.lost.add(lost)  # the bot lost View Channel there: Discord answers 403 Missing Access
    bot.clock.advance(61)
    await bot.service.scheduler.fire_due()
    await bot.settled()

    def noted() -> list[str]:
        return [r.getMessage() for r in caplog.records if "can no longer reach" in r.getMessage()]

    assert noted() == [f"table dc:{lost}: the bot can no longer reach its channel; the table is paused"]
    await fake.dispatch("CHANNEL_DELETE", fake._channel(lost))  # then the channel is deleted: noted already
    await fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})  # and the bot removed from the guild

    await until(lambda: len(noted()) >= 2, "both channels noted")
    await bot.settled()
    assert noted() == [f"table dc:{lost}: the bot can no longer reach its channel; the table is paused",
                       f"table dc:{other}: the bot can no longer reach its channel; the table is paused"]


async def test_a_lost_channel_pauses_its_table_until_an_interaction_comes_from_it(fake: FakeDiscord, make_bot) -> None:
    """Issue 15: a channel the bot cannot reach pauses its table (its timers wait, stored), and the first interaction
    from the channel again lets the table play on with its timers armed."""
    bot = await make_bot()
    lost, _ = fake.channels
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, lost, "join")
    await fake.slash(ann, lost, "deal")  # arms the table's clock announcement, due in 60 s
    await bot.settled()
    table, key = f"dc:{lost}", f"clock:dc:{lost}"
    dealt_at = bot.clock.now()
    assert bot.service.scheduler.due_at(key) == dealt_at + 60
    await fake.dispatch("CHANNEL_DELETE", fake._channel(lost))  # the bot can no longer see the channel

    await until(lambda: bot.service.is_paused(table), "the table paused")
    assert bot.service.scheduler.due_at(key) is None, "a paused table's timers wait"
    bot.clock.advance(181)
    await bot.service.scheduler.fire_due()
    await bot.settled()
    stored = await bot.service.store.read(lambda tx: [timer[0] for timer in tx.timers()])
    assert key in stored, "the announcement did not fire: it is kept for when the bot is back"
    await fake.slash(bob, lost, "balance")  # an interaction from the channel: the bot is back
    await bot.settled()
    assert not bot.service.is_paused(table)
    # paused with its 60 s all left (the clock did not move before the channel was lost), it has them again on return
    assert bot.service.scheduler.due_at(key) == dealt_at + 181 + 60
    assert await bot.service.store.read(lambda tx: tx.check_ledger()) == []
