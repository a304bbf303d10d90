"""Show or muck and run it twice on Discord: the buttons, and no mucked card in any public message."""

from __future__ import annotations

import pytest

from bot.games import holdem as holdem_game
from engine.cards import Deck, parse_cards
from tests.bot.helpers import ledger_ok
from tests.discord.test_games import current_table

MUCKED = ("4♥", "5♥", "Q♥", "Q♦")


def stack_deck(monkeypatch: pytest.MonkeyPatch, cards: str) -> None:
    """The next hands are dealt from this deck (hole cards from the button's left, burns included)."""
    monkeypatch.setattr(holdem_game, "new_deck", lambda rng: Deck.stacked(parse_cards(cards)))


async def test_a_beaten_hand_mucked_with_the_button_is_never_shown(fake, make_bot, monkeypatch) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = (fake.add_member(name) for name in ("Ann", "Bob", "Cat"))
    await fake.slash(ann, channel, "set", name="structure", value="no-limit")
    await fake.slash(bob, channel, "automuck", switch="off")
    for member in (ann, bob, cat):
        await fake.slash(member, channel, "join", chips=500)
    stack_deck(monkeypatch, "4h Ac Qh 5h Ad Qd 2d 2c 7s 9h 3d Js 6d 3s")
    await fake.slash(ann, channel, "deal")
    script = [(ann, "call"), (bob, "call"), (cat, "check"), *[(m, "check") for m in (bob, cat, ann)] * 2,
              (bob, "check")]
    for member, name in script:
        await fake.slash(member, channel, name)
    await fake.slash(cat, channel, "bet", amount=20)
    for member in (ann, bob):
        await fake.slash(member, channel, "call")
    await bot.settled()
    table = current_table(fake, channel)
    assert "Bob: show or muck?" in table["content"]
    await fake.press(bob, table, fake.button(table, "Muck"))
    await bot.settled()
    public = "\n".join(fake.public_versions())
    assert "Cat: A♣ A♦" in public and "Ann mucks." in public and "Bob mucks." in public
    assert not [card for card in MUCKED if card in public]
    await ledger_ok(bot.service)


async def test_a_hand_run_twice_when_both_press_twice(fake, make_bot, monkeypatch) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = (fake.add_member(name) for name in ("Ann", "Bob"))
    await fake.slash(ann, channel, "set", name="structure", value="no-limit")
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=300)
    stack_deck(monkeypatch, "Kc Ah Kd As 2c 7d 9h Jc 3c 8s 5c 4d 6c Ks Th 2h 2d Qh 3d 2s")
    await fake.slash(ann, channel, "deal")
    await fake.slash(ann, channel, "allin")
    await fake.slash(bob, channel, "call")
    await bot.settled()
    table = current_table(fake, channel)
    assert "Run it once or twice?" in table["content"]
    await fake.press(ann, table, fake.button(table, "Run it twice"))
    await bot.settled()
    await fake.slash(bob, channel, "run", times="twice")
    await bot.settled()
    public = "\n".join(fake.public_versions())
    assert "Second board — Flop: K♠ T♥ 2♥" in public
    assert "First board — Ann wins the main pot (300)" in public
    assert "Second board — Bob wins the main pot (300)" in public
    await ledger_ok(bot.service)


async def test_a_hand_dealt_all_in_by_a_command_shows_its_table_before_its_result(fake, make_bot,
                                                                                  monkeypatch) -> None:
    """Heads-up at blinds 250/500, Bob's big blind is all-in for 200 and Ann's small blind covers it: the hand Ann
    deals with /deal is over at once. The channel reads its table (the deal), then the showdown, as the hand
    happened; Ann reads her cards alone."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = (fake.add_member(name) for name in ("Ann", "Bob"))
    await fake.slash(ann, channel, "join", chips=400)
    await fake.slash(bob, channel, "join", chips=200)
    await fake.slash(ann, channel, "set", name="level", value="500")
    await bot.settled()
    said = len(fake.channel_messages(channel))
    stack_deck(monkeypatch, "4d 7s 8d 2s 3c Jh 6c Js 5c 4s 9c 8c")
    dealt = await fake.slash(ann, channel, "deal")
    await bot.settled()
    assert dealt.ephemeral_text() == "Your cards: 7♠ 2♠"
    posted = [(message["content"], [attached["description"] for attached in message["attachments"]])
              for message in fake.channel_messages(channel)[said:]]
    showdown = ("Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker); Ann: 7♠ 2♠ (a pair of jacks, eight "
                "kicker)\nBob wins the main pot (400) with two pair, jacks and eights, six kicker.")
    assert posted == [
        ("Hold'em — hand #1 · blinds 250/500 · home-limit\nBoard: J♥ 6♣ J♠ 4♠ 8♣ · Pot: 0\n"
         "  Ann · 200 Ⓓ\n  Bob · 400\n\n"
         "Hand #1: button Ann, blinds 250/500. Cards are dealt — press “My cards” to see yours.\n"
         "Ann posts the small blind 250.\nBob posts the big blind 200.\n50 uncalled chips returned to Ann.\n"
         "Flop: J♥ 6♣ J♠\nTurn: 4♠ (board J♥ 6♣ J♠ 4♠)\nRiver: 8♣ (board J♥ 6♣ J♠ 4♠ 8♣)\n"
         f"{showdown}\nThe hand is over.", []),
        (showdown, ["Hand #1 · showdown"]),  # the table's picture with the lines it shows
    ]
    assert fake.limited == []
    await ledger_ok(bot.service)
