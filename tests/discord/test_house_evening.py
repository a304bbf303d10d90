"""An evening of the four house games on Discord, one channel each, three players, checked by hand.

Each round is dealt from a stacked deck, so every payout below is worked out from RULES.md in a comment, and the test
asserts the exact texts the players read and their wallets (each starts with the 1,000-chip welcome grant). Bad input
along the way: a decision pressed twice, a button of an earlier round, a press by someone with no box, an ANTE over
the table's limit or the wallet.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterable
from typing import Any

import discord
import pytest

from engine.cards import Deck
from tests.bot.helpers import ledger_ok
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, Member

TEXAS, RUSSIAN, CARIBBEAN, THREE_CARD = CHANNELS = (
    920_000_000_000_000_001, 920_000_000_000_000_002, 920_000_000_000_000_003, 920_000_000_000_000_004)
TEXAS_DECKS = ("As Ks Qh Qd 7c 2d 9s 9h Qs Js Ts 3c 4d", "9h Th As 2h 5d 6d 2c 7d Jh Qh Kh 3s 8c Ac")
"""The Texas Poker rounds' stacked decks, worked out below (`test_texas_poker_two_rounds`), in either language."""


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The fake Discord with a channel per house game."""
    server = FakeDiscord(CHANNELS)
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", server.gateway_url)
    yield server
    await server.close()
    assert server.limited == []  # the bot kept inside Discord's rate limits all evening


class Dealer:
    """Stacks the deck of the next deal: `Deck(rng)` in the house controller deals `order` first. (A table read back
    from its log deals its round again: the same order gives it the same cards.)"""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.order = ""
        monkeypatch.setattr("bot.games.house.new_deck", lambda rng: Deck.stacked(self.order))


@pytest.fixture
def dealer(monkeypatch: pytest.MonkeyPatch) -> Dealer:
    return Dealer(monkeypatch)


class Evening:
    """Three members (and Dan, who bets nowhere unless told) at a bot, with the presses and commands of a player."""

    def __init__(self, fake: FakeDiscord, bot: Any) -> None:
        self.fake, self.bot = fake, bot
        self.ann, self.bob, self.cat, self.dan = (fake.add_member(name) for name in ("Ann", "Bob", "Cat", "Dan"))

    async def slash(self, member: Member, channel: int, name: str, **options: Any) -> str:
        """A slash command; what its member alone read."""
        done = await self.fake.slash(member, channel, name, **options)
        await self.bot.settled()
        return done.ephemeral_text()

    async def press(self, member: Member, channel: int, label: str, message: dict[str, Any] | None = None) -> str:
        """Press the button whose label starts with `label` on the table message (or an older copy of one); what
        the member alone read."""
        message = message or self.table(channel)
        found = [str(b["custom_id"]) for b in self.fake.buttons(message) if str(b.get("label", "")).startswith(label)]
        assert found, (label, [b.get("label") for b in self.fake.buttons(message)])
        pressed = await self.fake.press(member, message, found[0])
        await self.bot.settled()
        # a press answers its member alone, redraws the table, or says the channel's line (the round's end) first
        assert pressed.texts(ephemeral=False) in ([], self.notices(channel)[-1:])
        return pressed.ephemeral_text()

    def table(self, channel: int) -> dict[str, Any]:
        """The channel's newest message with buttons, as a copy (what a member's client still shows later)."""
        return copy.deepcopy([m for m in self.fake.channel_messages(channel) if m["components"]][-1])

    def labels(self, channel: int) -> list[str]:
        return [str(b.get("label")) for b in self.fake.buttons(self.table(channel))]

    def notices(self, channel: int) -> list[str]:
        """The channel's texts other than the table messages (the dealer's reveal and the results; a picture of the
        table comes without text)."""
        contents = [message["content"] for message in self.fake.channel_messages(channel)]
        return [content for content in contents if content and " — round " not in content.split("\n")[0]]

    async def wallets(self, channel: int) -> dict[str, str]:
        return {member.name: await self.slash(member, channel, "balance") for member in (self.ann, self.bob, self.cat)}

    async def antes(self, channel: int, bets: Iterable[tuple[Member, int, int | None]], side: str = "box") -> None:
        """Each member's /ante at the channel's table, with his `side` option (a box, a BONUS or a PAIRPLUS bet) where
        it is not None."""
        for member, ante, extra in bets:
            await self.slash(member, channel, "ante", amount=ante, **{side: extra})

    async def texas_antes(self, channel: int, dealer: Dealer, number: int) -> None:
        """Texas Poker's round `number` (1 or 2): its deck stacked (`TEXAS_DECKS`), then the ANTEs of Ann (10), Bob
        (20) and Cat (5)."""
        dealer.order = TEXAS_DECKS[number - 1]
        await self.antes(channel, ((self.ann, 10, None), (self.bob, 20, None), (self.cat, 5, None)))

    async def closed(self, channel: int, wallets: dict[str, str]) -> None:
        """The channel's evening over: each member's /balance answer is in `wallets`, and the ledger balances."""
        assert await self.wallets(channel) == wallets
        await ledger_ok(self.bot.service)

    async def open(self, channel: int, game: str) -> None:
        chosen = await self.fake.slash(self.ann, channel, "game", game=game)  # Ann, the chat's first, organizes
        await self.bot.settled()
        assert chosen.texts(ephemeral=False)[0].startswith("This table now plays")


@pytest.fixture
async def evening(fake: FakeDiscord, make_bot: Any) -> Evening:
    return Evening(fake, await make_bot(default_game="holdem"))


async def test_texas_poker_two_rounds(evening: Evening, dealer: Dealer) -> None:
    ev, ch = evening, TEXAS
    await ev.open(ch, "texas")
    assert await ev.slash(ev.dan, ch, "ante", amount=101) == "ANTE must be 1 to 100 at this table, not 101."
    assert await ev.slash(ev.dan, ch, "ante", amount=10, box=2) == "There is no box 2 at this table."

    # Round 1. Ann A♠ K♠, Bob Q♥ Q♦, Cat 7♣ 2♦; dealer 9♠ 9♥; board Q♠ J♠ T♠, then 3♣, then 4♦.
    # Ann bets at once (2×10): A♠ K♠ + Q♠ J♠ T♠ is a royal flush; the dealer's pair of nines qualifies and is lower:
    #   ANTE +10, BET 20×100 = +2,000 (under the 10,000 cap) → +2,010.
    # Bob buys the fourth card (20), then bets 40: Q♥ Q♦ Q♠ J♠ T♠ three queens beat the nines: ANTE +20, BET 40×2
    #   = +80, card fee −20 → +80.
    # Cat buys (5), then folds: ANTE −5, fee −5 → −10.
    await ev.texas_antes(ch, dealer, 1)
    assert await ev.slash(ev.dan, ch, "deal") == "Only a player with a bet on the table can close the bets."
    assert await ev.slash(ev.ann, ch, "deal") == "Box 1: A♠ K♠"
    assert ev.labels(ch) == ["🂠 My cards", "Bet (20)", "Fold", "Buy card (10)"]
    assert await ev.press(ev.bob, ch, "Bet") == "It's not your turn: waiting for Ann."
    assert await ev.press(ev.dan, ch, "Fold") == ev.fake.mentioned(
        "You have no box in this round: place an ANTE ({ante} amount) before the next one is dealt.")
    first = ev.table(ch)
    assert await ev.press(ev.ann, ch, "Bet") == ""
    assert await ev.press(ev.ann, ch, "Bet", first) == "Already done."  # twice: Bob's box is untouched
    assert await ev.slash(ev.bob, ch, "bet", amount=30) == ev.fake.mentioned(
        "The bet on this box is 40, not 30: write just {bet} (or {play}).")
    await ev.press(ev.bob, ch, "Buy card (20)")
    await ev.press(ev.cat, ch, "Buy card (5)")
    assert "Board: Q♠ J♠ T♠ 3♣" in ev.table(ch)["content"]
    await ev.press(ev.bob, ch, "Bet (40)")
    await ev.press(ev.cat, ch, "Fold")
    assert ev.notices(ch)[-1] == "\n".join([
        "Dealer reveals 9♠ 9♥: a pair of nines, queen kicker — qualifies.",
        "Ann, box 1: wins (+2,010) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE +10 · BET +2,000 (royal flush, ×100).",
        "Bob, box 1: wins (+80) — three of a kind, queens, jack kicker: Q♠ Q♥ Q♦ J♠ T♠; ANTE +20 · BET +80 (three of "
        "a kind, queens, jack kicker, ×2) · card fee −20.",
        "Cat, box 1: folded (−10); ANTE −5 · card fee −5.",
        "Round over: Ann +2,010, Bob +80, Cat −10."])

    # Round 2. Ann 9♥ T♥, Bob A♠ 2♥, Cat 5♦ 6♦; dealer 2♣ 7♦; board J♥ Q♥ K♥, then 3♠, then 8♣; Bob's exchange
    # draws A♣. The dealer's best five of seven, K Q J 8 7, holds no pair: he does not qualify.
    # Ann bets at once: 9♥ T♥ J♥ Q♥ K♥ is a straight flush, and the dealer does not qualify: half of what the box
    #   would have won, 10 + 20×50 = 1,010, so +505, ANTE and BET returned.
    # Bob buys (20), exchanges 2♥ (20) for A♣, bets 40: the dealer does not qualify: ANTE +20, BET back; fees −40
    #   → −20.
    # Cat folds at once: −5.
    await ev.texas_antes(ch, dealer, 2)
    await ev.slash(ev.cat, ch, "deal")
    assert await ev.press(ev.ann, ch, "Bet", first) == "This round is over."  # round 1's, still on her screen
    await ev.press(ev.ann, ch, "Bet (20)")
    await ev.press(ev.bob, ch, "Buy card (20)")
    await ev.press(ev.cat, ch, "Fold")
    await ev.press(ev.bob, ch, "☐ 2")
    assert await ev.press(ev.bob, ch, "Swap 2 (20)") == "Box 1 now: A♠ A♣"
    await ev.press(ev.bob, ch, "Bet (40)")
    assert ev.notices(ch)[-1] == "\n".join([
        "Dealer reveals 2♣ 7♦: king high — no game: it takes a pair or better.",
        "Ann, box 1: half payout (+505) — a straight flush to the king: K♥ Q♥ J♥ T♥ 9♥; ANTE 0 · BET 0 · half payout "
        "+505 (half of 1,010: a straight flush to the king, ANTE 1:1 and BET ×50).",
        "Bob, box 1: dealer does not qualify (−20) — a pair of aces, king kicker: A♠ A♣ K♥ Q♥ J♥; ANTE +20 · BET 0 · "
        "card fee −20 · exchange fee −20.",
        "Cat, box 1: folded (−5); ANTE −5.",
        "Round over: Ann +505, Bob −20, Cat −5."])
    await ev.closed(ch, {"Ann": "Your wallet: 3,515 chips.", "Bob": "Your wallet: 1,060 chips.",
                         "Cat": "Your wallet: 985 chips."})


async def test_russian_poker_three_boxes_and_the_dealers_game(evening: Evening, dealer: Dealer) -> None:
    ev, ch = evening, RUSSIAN
    await ev.open(ch, "russian")
    # Ann: box 1 A♠ A♦ K♣ 8♠ 9♥, box 2 3♣ 3♦ 7♥ 7♠ Q♦, box 3 (blind: ANTE 10 and BET 20 at once) K♠ K♦ 4♣ 6♦ T♥;
    # Bob 2♥ 4♥ 6♥ 8♥ J♥; Cat 5♣ 6♣ 9♦ J♠ 2♠; dealer 2♣ 5♦ 8♣ J♦ 9♠ (9♠ open). Then Ann's exchange draws 7♣,
    # Bob's buy T♣, the dealer's draw 2♦.
    # The dealer has no game (no pair, no ace-king). Ann buys him a game on boxes 1 and 3 (10 each), not on box 2;
    # Bob does not. He discards his highest, J♦, draws 2♦: a pair of twos, a game.
    # Ann box 1 plays (20): a pair of aces with ace-king as the second combination beats the twos: ANTE not paid,
    #   BET 20×(1+1) = +40, dealer's game fee −10 → +30.
    # Ann box 2 exchanges Q♦ (10) for 7♣, plays (20): sevens full, but the dealer had no game and she bought none:
    #   ANTE +10, BET back, fee −10 → 0.
    # Ann box 3, blind: a pair of kings beats the twos: BET 20×1 = +20, fee −10 → +10.
    # Bob buys (20) a sixth card, plays (40): no game for the dealer: ANTE +20, fee −20 → 0.
    # Cat folds: −5.
    dealer.order = "As Ad Kc 8s 9h 3c 3d 7h 7s Qd Ks Kd 4c 6d Th 2h 4h 6h 8h Jh 5c 6c 9d Js 2s 2c 5d 8c Jd 9s 7c Tc 2d"
    assert await ev.slash(ev.ann, ch, "ante", amount=10, box=2) == "Bet on box 2 only after the box before it."
    await ev.antes(ch, ((ev.ann, 10, 1), (ev.ann, 10, 2), (ev.ann, 10, 3), (ev.bob, 20, None), (ev.cat, 5, None)))
    assert await ev.slash(ev.ann, ch, "ante", amount=10, box=2) == "You already bet on box 2."
    assert await ev.slash(ev.ann, ch, "deal") == "Box 1: A♠ A♦ K♣ 8♠ 9♥"
    assert await ev.press(ev.bob, ch, "🂠") == "Your boxes:\nbox 1: 2♥ 4♥ 6♥ 8♥ J♥"
    assert await ev.press(ev.ann, ch, "🂠") == ("Your boxes:\nbox 1: A♠ A♦ K♣ 8♠ 9♥\nbox 2: shown when its turn "
                                                "comes\nbox 3: plays blind, shown at the showdown\nBox 1, the card "
                                                "buttons' numbers: 1 A♠ · 2 A♦ · 3 K♣ · 4 8♠ · 5 9♥")
    first = ev.table(ch)
    assert await ev.press(ev.ann, ch, "Play (20)") == "Box 2: 3♣ 3♦ 7♥ 7♠ Q♦"
    assert await ev.press(ev.ann, ch, "Play", first) == "Already done."  # box 2 is not played by it
    await ev.press(ev.ann, ch, "☐ 5")
    assert await ev.press(ev.ann, ch, "Swap 5 (10)") == "Box 2 now: 3♣ 3♦ 7♥ 7♠ 7♣"
    assert ev.labels(ch) == ["🂠 My cards", "Play (20)", "Fold"]  # one draw per box
    await ev.press(ev.ann, ch, "Play (20)")
    assert await ev.press(ev.bob, ch, "Buy card (20)") == "Box 1 now: 2♥ 4♥ 6♥ 8♥ J♥ T♣"
    await ev.press(ev.bob, ch, "Play (40)")
    await ev.press(ev.cat, ch, "Fold")
    assert ev.notices(ch)[-1] == "Dealer reveals 2♣ 5♦ 8♣ J♦ 9♠: no game."
    await ev.press(ev.ann, ch, "Buy a game (10)")
    assert await ev.press(ev.ann, ch, "No thanks") == "Box 3: K♠ K♦ 4♣ 6♦ T♥"  # its turn: the blind box shown
    await ev.press(ev.ann, ch, "Buy a game (10)")
    await ev.press(ev.bob, ch, "No thanks")
    assert ev.notices(ch)[-1] == "\n".join([
        "Ann, box 2: dealer has no game (0) — a full house, sevens full of threes: 3♣ 3♦ 7♥ 7♠ 7♣; ANTE +10 · BET 0 · "
        "exchange fee −10.",
        "Bob, box 1: dealer has no game (0) — a flush, jack high: 2♥ 4♥ 6♥ 8♥ J♥; ANTE +20 · BET 0 · card fee −20.",
        "Dealer discards J♦, draws 2♦: a pair of twos, nine kicker — qualifies.",
        "Ann, box 1: wins (+30) — a pair of aces, king kicker: A♠ A♦ K♣ 8♠ 9♥; ANTE 0 · BET +40 (a pair of aces + "
        "second combination: ace-king, ×2) · dealer's game fee −10.",
        "Ann, box 3: wins (+10) — a pair of kings, ten kicker: K♠ K♦ 4♣ 6♦ T♥; ANTE 0 · BET +20 (a pair of kings, ×1) "
        "· dealer's game fee −10.",
        "Cat, box 1: folded (−5); ANTE −5.",
        "Round over: Ann +40, Bob 0, Cat −5."])
    await ev.closed(ch, {"Ann": "Your wallet: 1,040 chips.", "Bob": "Your wallet: 1,000 chips.",
                         "Cat": "Your wallet: 995 chips."})


async def test_caribbean_poker_bonus_exchange_and_the_suit_tie_break(evening: Evening, dealer: Dealer) -> None:
    ev, ch = evening, CARIBBEAN
    await ev.open(ch, "caribbean")
    ev.cat.locale = "ru"  # she reads what is hers alone in Russian; the channel speaks its first player's English
    assert await ev.slash(ev.dan, ch, "ante", amount=10, bonus=5) == "The BONUS bet is 10 at this table, not 5."
    # Ann 5♥ 6♥ 7♥ 8♥ 9♥ (bonus 10); Bob Q♣ Q♦ 5♠ 9♣ 3♥ (bonus 10); Cat A♥ K♣ 7♦ 4♣ 2♥; dealer A♠ K♦ 7♣ 4♠ 2♦
    # (2♦ open): ace-king, he qualifies. Bob's exchange draws Q♠ 9♦ 9♠.
    # Ann plays (20): her straight flush beats ace-king: ANTE +10, BET 20×50 = +1,000; the dealt straight flush pays
    #   the bonus 10×100 = +1,000 → +2,010 (under the 10,000 cap).
    # Bob exchanges 5♠ 9♣ 3♥ at 20 a card (60), plays (40): queens full beat ace-king: ANTE +20, BET 40×7 = +280;
    #   his dealt pair loses the bonus −10; fee −60 → +230.
    # Cat plays (10): A K 7 4 2 against A K 7 4 2, the same ranks: the suit of the highest card decides, her A♥ over
    #   the dealer's A♠: ANTE +5, BET 10×1 (ace-king, the standard 1:1) → +15.
    dealer.order = "5h 6h 7h 8h 9h Qc Qd 5s 9c 3h Ah Kc 7d 4c 2h As Kd 7c 4s 2d Qs 9d 9s"
    await ev.antes(ch, ((ev.ann, 10, 10), (ev.bob, 20, 10), (ev.cat, 5, None)), "bonus")
    assert await ev.slash(ev.cat, ch, "ante", amount=5) == "Вы уже поставили на бокс 1."
    await ev.slash(ev.bob, ch, "deal")
    assert await ev.press(ev.dan, ch, "Play") == ev.fake.mentioned(
        "You have no box in this round: place an ANTE ({ante} amount) before the next one is dealt.")
    await ev.press(ev.ann, ch, "Play (20)")
    for card in ("Swap: ☐ 1", "☐ 3", "☐ 4", "☐ 5", "Swap: ☑ 1"):
        await ev.press(ev.bob, ch, card)
    assert await ev.press(ev.bob, ch, "Swap 3 4 5 (60)") == "Box 1 now: Q♣ Q♦ Q♠ 9♦ 9♠"
    await ev.press(ev.bob, ch, "Play (40)")
    assert await ev.press(ev.cat, ch, "🂠") == ("Ваши боксы:\nбокс 1: A♥ K♣ 7♦ 4♣ 2♥\nБокс 1, номера карт на кнопках: "
                                                "1 A♥ · 2 K♣ · 3 7♦ · 4 4♣ · 5 2♥")
    await ev.press(ev.cat, ch, "Play (10)")
    assert ev.notices(ch)[-1] == "\n".join([
        "Dealer reveals A♠ K♦ 7♣ 4♠ 2♦: ace-king — qualifies.",
        "Ann, box 1: wins (+2,010) — a straight flush to the nine: 5♥ 6♥ 7♥ 8♥ 9♥; ANTE +10 · BET +1,000 (a straight "
        "flush to the nine, ×50) · BONUS +1,000 (a straight flush to the nine, ×100).",
        "Bob, box 1: wins (+230) — a full house, queens full of nines: Q♣ Q♦ Q♠ 9♦ 9♠; ANTE +20 · BET +280 (a full "
        "house, queens full of nines, ×7) · BONUS −10 · exchange fee −60.",
        "Cat, box 1: wins on the suit of the highest card, ♥ > ♣ > ♦ > ♠ (+15) — ace-king: A♥ K♣ 7♦ 4♣ 2♥; ANTE +5 · "
        "BET +10 (ace-king, ×1).",
        "Round over: Ann +2,010, Bob +230, Cat +15."])
    await ev.closed(ch, {"Ann": "Your wallet: 3,010 chips.", "Bob": "Your wallet: 1,230 chips.",
                         "Cat": "В кошельке 1\u00a0015 фишек."})


async def test_three_card_poker_pairplus_ante_bonus_and_the_queen(evening: Evening, dealer: Dealer) -> None:
    ev, ch = evening, THREE_CARD
    await ev.open(ch, "three-card")
    assert await ev.slash(ev.dan, ch, "ante", amount=51) == "ANTE must be 1 to 50 at this table, not 51."
    assert await ev.slash(ev.dan, ch, "ante", amount=10, pairplus=26) == ("The PAIRPLUS bet must be 1 to 25 at this "
                                                                          "table, not 26.")
    # Round 1 (LITE). Ann A♥ K♥ Q♥ (ANTE 10, PAIRPLUS 5); Bob 5♣ 5♦ 2♥ (ANTE 20); Cat 7♠ 8♦ 9♣ (PAIRPLUS 10 alone);
    # dealer J♣ 9♦ 4♠: jack high, under the queen: he does not qualify.
    # Ann: PAIRPLUS on the deal, straight flush 5×40 = +200; she plays (10): ANTE +10, PLAY back, and the ante bonus
    #   (a dealer who does not qualify counts as a win) 10×4 = +40 → +250.
    # Bob plays (20): ANTE +20, PLAY back, no bonus for a pair → +20.
    # Cat: PAIRPLUS on a straight 10×5 = +50.
    dealer.order = "Ah Kh Qh 5c 5d 2h 7s 8d 9c Jc 9d 4s"
    await ev.antes(ch, ((ev.ann, 10, 5), (ev.bob, 20, None), (ev.cat, 0, 10)), "pairplus")
    assert await ev.slash(ev.bob, ch, "deal") == "Box 1: 5♣ 5♦ 2♥"
    # the PAIRPLUS result gives the cards away: told to its owner alone, the table learns it at the end
    assert await ev.press(ev.ann, ch, "🂠") == ("Your boxes:\nbox 1: A♥ K♥ Q♥ · side bet: PAIRPLUS +200 (a straight "
                                                "flush to the ace, ×40)")
    assert "+200" not in ev.table(ch)["content"]
    first = ev.table(ch)
    await ev.press(ev.ann, ch, "Play (10)")
    assert await ev.press(ev.ann, ch, "Play", first) == "Already done."
    await ev.press(ev.bob, ch, "Play (20)")
    assert ev.notices(ch)[-1] == "\n".join([
        "Dealer reveals J♣ 9♦ 4♠: jack high — no game: it takes queen high or better.",
        "Ann, box 1: dealer does not qualify (+250) — a straight flush to the ace: A♥ K♥ Q♥; PAIRPLUS +200 (a straight "
        "flush to the ace, ×40) · ANTE +10 · PLAY 0 · ANTE bonus +40 (a straight flush to the ace, ×4).",
        "Bob, box 1: dealer does not qualify (+20) — a pair of fives, two kicker: 5♣ 5♦ 2♥; ANTE +20 · PLAY 0.",
        "Cat, box 1: wins (+50) — a straight to the nine: 7♠ 8♦ 9♣; PAIRPLUS +50 (a straight to the nine, ×5).",
        "Round over: Ann +250, Bob +20, Cat +50."])

    # Round 2. Ann K♣ K♦ 4♥ (ANTE 10, PAIRPLUS 5); Bob Q♠ 9♠ 3♠ (ANTE 20); Cat 2♣ 7♦ 9♥ (ANTE 10); dealer A♦ 8♣ 5♥:
    # ace high, he qualifies.
    # Ann: PAIRPLUS on a pair 5×1 = +5; plays (10): kings beat ace high: ANTE +10, PLAY +10 → +25.
    # Bob plays (20): a flush beats ace high: ANTE +20, PLAY +20; a flush earns no ante bonus → +40.
    # Cat folds: −10.
    dealer.order = "Kc Kd 4h Qs 9s 3s 2c 7d 9h Ad 8c 5h"
    # the round's first ANTE opens its table message below round 1's: nothing links back up to the old one
    assert await ev.slash(ev.ann, ch, "ante", amount=10, pairplus=5) == "Done."
    second = ev.table(ch)
    assert await ev.slash(ev.bob, ch, "ante", amount=20) == (
        f"The table: https://discord.com/channels/{GUILD_ID}/{ch}/{second['id']}")
    await ev.antes(ch, ((ev.cat, 10, None),), "pairplus")
    await ev.slash(ev.cat, ch, "deal")
    assert await ev.press(ev.ann, ch, "Play", first) == "This round is over."  # round 1's button
    await ev.press(ev.ann, ch, "Play (10)")
    await ev.press(ev.bob, ch, "Play (20)")
    await ev.press(ev.cat, ch, "Fold")
    assert ev.notices(ch)[-1] == "\n".join([
        "Dealer reveals A♦ 8♣ 5♥: ace high — qualifies.",
        "Ann, box 1: wins (+25) — a pair of kings, four kicker: K♣ K♦ 4♥; PAIRPLUS +5 (a pair of kings, four kicker, "
        "×1) · ANTE +10 · PLAY +10 (a pair of kings, four kicker, ×1).",
        "Bob, box 1: wins (+40) — a flush, queen high: Q♠ 9♠ 3♠; ANTE +20 · PLAY +20 (a flush, queen high, ×1).",
        "Cat, box 1: folded (−10); ANTE −10.",
        "Round over: Ann +25, Bob +40, Cat −10."])
    await ev.closed(ch, {"Ann": "Your wallet: 1,275 chips.", "Bob": "Your wallet: 1,060 chips.",
                         "Cat": "Your wallet: 1,040 chips."})


async def test_an_ante_over_the_wallet_at_a_second_table_is_refused_in_the_players_language(
        evening: Evening) -> None:
    ev = evening
    ev.dan.locale = "ru"
    await ev.open(CARIBBEAN, "caribbean")
    await ev.open(RUSSIAN, "russian")
    # Three Caribbean boxes at 100 take 300 and keep 600 for their BETs: 100 of Dan's 1,000 are free. A Russian ANTE
    # of 40 needs 40 and 80 for its BET, 120: refused, nothing moves; 30 (and 60) fits.
    for box in (1, 2, 3):
        await ev.slash(ev.dan, CARIBBEAN, "ante", amount=100, box=box)
    assert await ev.slash(ev.dan, RUSSIAN, "ante", amount=40) == (
        "Для АНТЕ на боксе 1 не хватит фишек: вместе с последующими ставками (БЕТ или ИГРА) вашим боксам нужно 120, "
        "а у вас 100.")
    assert await ev.slash(ev.dan, RUSSIAN, "balance") == ("В кошельке 100 фишек, и ещё 600 отложено для ставок, "
                                                          "которые вашим боксам предстоит сделать.")
    await ev.slash(ev.dan, RUSSIAN, "ante", amount=30)
    assert await ev.slash(ev.dan, RUSSIAN, "balance") == ("В кошельке 10 фишек, и ещё 660 отложено для ставок, "
                                                          "которые вашим боксам предстоит сделать.")
    await ledger_ok(ev.bot.service)
