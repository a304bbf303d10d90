"""Table options on Discord (RULES.md §1a): pre-action buttons answered ephemerally and nothing else sent, a member
away and back, keeping his seat (the choices of `/back` named as Discord shows them), the straddle, and the time
bank."""

from __future__ import annotations

import pytest

from tests.bot.helpers import ledger_ok
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord
from tests.discord.test_games import action, current_table, to_act


def channel_sends(fake: FakeDiscord) -> int:
    """Messages posted or edited through the channel's routes (the bucket a pre-action must not spend)."""
    return sum(1 for method, path in fake.requests if "/channels/" in path and method in ("POST", "PATCH"))


async def seat(fake: FakeDiscord, channel: int, names: tuple[str, ...], *settings: tuple[str, str]) -> list:
    """Members of these names; the first sets each of `settings` (name, value); then all join with 200 chips."""
    members = [fake.add_member(name) for name in names]
    for name, value in settings:
        await fake.slash(members[0], channel, "set", name=name, value=value)
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    return members


async def fold_to_the_end(fake: FakeDiscord, bot, channel: int) -> None:
    """Whoever the table message names folds, until the hand is over."""
    for _ in range(5):
        table = current_table(fake, channel)
        if "<@" not in table["content"]:
            return
        await fake.press(to_act(fake, table), table, action(fake, table, "fold", "check"))
        await bot.settled()
    raise AssertionError("the hand did not end")


async def test_a_pre_action_is_answered_ephemerally_and_played_on_his_turn(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = await seat(fake, channel, ("Ann", "Bob", "Cat"))
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    assert to_act(fake, table) is ann
    before = channel_sends(fake)
    chosen = await fake.press(cat, table, fake.button(table, "⏩ Check/fold"))
    await bot.settled()
    assert chosen.callbacks[0]["type"] == 4 and chosen.callbacks[0]["data"]["flags"] & EPHEMERAL
    assert chosen.ephemeral_text() == "You will check or fold." and chosen.texts(ephemeral=False) == []
    assert channel_sends(fake) == before, "a pre-action posted or edited a channel message"
    for member in (ann, bob):
        table = current_table(fake, channel)
        await fake.press(member, table, action(fake, table, "call"))
        await bot.settled()
    table = current_table(fake, channel)
    assert "Cat checks." in table["content"] and "Flop: " in table["content"]
    await ledger_ok(bot.service)


async def test_call_n_by_button_and_slash_command_plays_while_the_bet_stands(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = await seat(fake, channel, ("Ann", "Bob", "Cat"))
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    await fake.press(ann, current_table(fake, channel), action(fake, current_table(fake, channel), "raise"))
    await bot.settled()
    table = current_table(fake, channel)  # Ann raised to 40: Bob (to act) and Cat face it
    before = channel_sends(fake)
    chosen = await fake.press(cat, table, fake.button(table, "⏩ Call 20"))  # the bet of 40: Cat has 20 in
    await bot.settled()
    assert chosen.ephemeral_text() == "You will call 20 (cancelled if someone raises)."
    stale = await fake.slash(ann, channel, "pre", choice="call", chips=20)
    await bot.settled()
    assert stale.ephemeral_text() == "The bet is now 40, not 20: choose again."
    assert channel_sends(fake) == before, "a pre-action posted or edited a channel message"
    await fake.press(bob, table, action(fake, table, "call"))
    await bot.settled()
    table = current_table(fake, channel)
    assert "Cat calls 20." in table["content"] and "Flop: " in table["content"]
    await ledger_ok(bot.service)


async def test_away_keeps_the_seat_and_back_waits_for_the_big_blind(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, _, _, dan = await seat(fake, channel, ("Ann", "Bob", "Cat", "Dan"))
    await fake.slash(ann, channel, "deal")
    away = await fake.slash(dan, channel, "away")
    await bot.settled()
    assert any("is away and sits out from the next hand" in text for text in away.texts() + fake.public_versions())
    await fold_to_the_end(fake, bot, channel)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    assert "Dan" not in current_table(fake, channel)["content"]  # dealt out, his seat kept
    back = await fake.slash(dan, channel, "back")
    await bot.settled()
    assert back.ephemeral_text() == fake.mentioned(  # on Discord `/back post` is the slash command's choice
        "Welcome back. Post the big blind now and play the next hand ({back} choice: post the big blind now), or wait "
        "for the big blind to come to you ({back} choice: wait for the big blind).")
    table = current_table(fake, channel)
    waited = await fake.press(dan, table, fake.button(table, "Wait for the big blind"))
    await bot.settled()
    assert waited.texts(ephemeral=True) == []
    assert any("Dan is back and waits for the big blind." in text for text in fake.public_versions())
    for _ in range(4):
        await fold_to_the_end(fake, bot, channel)
        await fake.slash(ann, channel, "deal")
        await bot.settled()
        content = current_table(fake, channel)["content"]
        if "Dan" in content:
            assert "Dan posts the big blind 20." in content
            break
    else:
        raise AssertionError("Dan was never dealt in")
    await ledger_ok(bot.service)


@pytest.mark.parametrize(("locale", "refusal"), [  # (the member's client, what he reads)
    ("en-US", "Straddles are off at this table ({set} name: straddle value: on)."),
    ("ru", "Стрэддлы за этим столом выключены ({set} название: straddle значение: on)."),
], ids=["en", "ru"])
async def test_a_straddle_refused_names_the_set_commands_options(fake, make_bot, locale: str, refusal: str) -> None:
    """The refusal named `/set straddle on` as typed in a chat: on Discord `/set`'s options, in the member's
    language."""
    await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, _ = await seat(fake, channel, ("Ann", "Bob"), ("structure", "no-limit"))
    ann.locale = locale
    assert (await fake.slash(ann, channel, "straddle")).ephemeral_text() == fake.mentioned(refusal)


async def test_the_member_left_of_the_big_blind_straddles_by_the_button_and_acts_last(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = await seat(fake, channel, ("Ann", "Bob", "Cat"), ("structure", "no-limit"), ("straddle", "on"))
    await bot.settled()
    idle = [m for m in fake.channel_messages(channel) if "Straddle 40 (Ann)" in
            [b.get("label") for b in fake.buttons(m)]][-1]  # Ann deals first: Bob small blind, Cat big, Ann left of it
    await fake.press(ann, idle, fake.button(idle, "Straddle 40 (Ann)"))
    await bot.settled()
    assert any("Ann will straddle 40 in the next hand." in text for text in fake.public_versions())
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    assert "Ann straddles 40." in table["content"]
    assert to_act(fake, table) is bob  # Ann, first to act without a straddle, is passed over
    for member in (bob, cat):
        await fake.press(member, table, action(fake, table, "call"))
        await bot.settled()
        table = current_table(fake, channel)
    assert to_act(fake, table) is ann and "Flop: " not in table["content"]  # the straddler acts last: her option
    await fake.press(ann, table, action(fake, table, "check"))
    await bot.settled()
    assert "Flop: " in current_table(fake, channel)["content"]
    await ledger_ok(bot.service)


async def test_a_turn_run_out_draws_on_the_time_bank_then_times_out(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, _ = await seat(fake, channel, ("Ann", "Bob", "Cat"), ("time_bank", "1500"))
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    assert to_act(fake, table) is ann and "⏳" not in table["content"]
    bot.clock.advance(61)  # her turn's 60 s run out: her bank runs, and the table says so
    assert await bot.service.scheduler.fire_due() == 1
    await bot.settled()
    table = current_table(fake, channel)
    assert "⏳ Ann is using the time bank: 1,500\xa0s." in table["content"]  # grouped as English writes it
    assert to_act(fake, table) is ann
    bot.clock.advance(1499)
    assert await bot.service.scheduler.fire_due() == 0  # the bank still runs
    bot.clock.advance(2)  # the bank runs out too: the time-out folds her, facing the big blind, as before
    assert await bot.service.scheduler.fire_due() == 1
    await bot.settled()
    table = current_table(fake, channel)
    assert "Ann ran out of time." in table["content"] and "Ann folds." in table["content"]
    assert "⏳" not in table["content"] and to_act(fake, table) is bob
    await ledger_ok(bot.service)
