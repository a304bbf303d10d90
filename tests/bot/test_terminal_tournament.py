"""Tournament stories at the terminal table: unregistering, the end with its winner and places before the settlement
(played out and closed by the organizer), a cash-out counted in /stats, and redeeming a pawned item."""

import io

from bot.service import Service
from bot.terminal import PLACE, TerminalAdapter
from tests.bot.helpers import ledger_ok

BANK = f"bank:{PLACE.table_id}:t1"


def stack(name: str) -> str:
    return f"stack:{PLACE.table_id}:term:{name}"


async def say(terminal: TerminalAdapter, *lines: str) -> None:
    for line in lines:
        assert await terminal.say(line)


def seen(out: io.StringIO, start: int = 0) -> str:
    return out.getvalue()[start:]


def refused(printed: str, name: str) -> bool:
    """Whether `printed`, the answer to a line of `name`'s, is a refusal: one line, to him alone."""
    return printed.startswith(f"[private to {name}] ") and printed.count("\n") == 1


async def play(terminal: TerminalAdapter, out: io.StringIO, choose: dict[str, tuple[str, ...]], until: str,
               players: tuple[str, ...] = ("ann", "bob", "cat"), limit: int = 400) -> None:
    """Press, for whoever is to act, the first of his preferred buttons (by label word) and deal the next hand with
    /deal when none is in play, until `until` appears in the output."""
    for _ in range(limit):
        if until in out.getvalue():
            return
        to_act = terminal.table.to_act if terminal.table is not None else None
        if to_act is not None:
            name = to_act.removeprefix("term:")
            labels = {button.label.split()[0].lower(): index for index, button in enumerate(terminal.buttons, 1)}
            word = next(word for word in choose[name] if word in labels)
            await say(terminal, f"{name}: {labels[word]}")
        else:
            before = len(out.getvalue())
            asked = "Run it once" in [button.label for button in terminal.buttons]  # all-in: one board, please
            for name in players:  # the first player still seated deals (or, asked to run it twice, says once)
                await say(terminal, f"{name}: /run once" if asked else f"{name}: /deal")
                if not refused(seen(out, before), name):
                    break
                before = len(out.getvalue())
    raise AssertionError(f"never saw {until!r}:\n{out.getvalue()[-3000:]}")


async def test_a_registered_player_unregisters_before_the_start_and_not_after(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await say(terminal, "ann: /tournament create", "ann: /join", "bob: /join", "cat: /join")
    wallet = await service.store.read(lambda tx: tx.balances("wallet:"))
    assert await service.store.read(lambda tx: tx.balance(BANK)) == -900
    await say(terminal, "bob: /leave")
    assert ("[table] Bob unregisters and gets the buy-in of 50 back; 300 chips leave play (2 players)."
            in out.getvalue().splitlines())
    assert await service.store.read(lambda tx: tx.balance(stack("bob"))) == 0
    assert await service.store.read(lambda tx: tx.balance(BANK)) == -600
    rows = await service.store.read(lambda tx: tx.ledger_rows(PLACE.table_id, "t1"))
    assert (rows[-1].source, rows[-1].target, rows[-1].amount, rows[-1].reason) == (stack("bob"), BANK, 300,
                                                                                     "unregister")
    assert await service.store.read(lambda tx: tx.balances("wallet:")) == wallet, "the buy-in is money, not chips"
    await ledger_ok(service)
    before = len(out.getvalue())
    await say(terminal, "bob: /leave")
    assert seen(out, before) == "[private to bob] You are not seated at this table: /join first.\n"
    await say(terminal, "ann: /tournament start")
    assert "Bob" not in terminal.table.text, "he is no longer in the tournament"
    before = len(out.getvalue())
    await say(terminal, "cat: /leave")  # after the start: only a cash-out takes him out
    assert seen(out, before) == "[private to cat] In a tournament, leave with /cashout (between hands).\n"
    assert await service.store.read(lambda tx: tx.balance(stack("cat"))) > 0
    await play(terminal, out, {name: ("fold", "check") for name in ("ann", "cat")}, "wins")
    before = len(out.getvalue())
    await say(terminal, "ann: /tournament close")
    assert seen(out, before) == (  # Bob, who unregistered, is not in it
        "[table] Cat finishes with 305 chips, worth 50.83.\n"
        "[table] Ann finishes with 295 chips, worth 49.17.\n"
        "[table] 🏆 The tournament is over. Winner: Cat!\n"
        "        Places: 1. Cat · 2. Ann\n"
        "[table] Settlement (money units):\n"
        "        Ann: paid 50, cashed out 49.17, net −0.83\n"
        "        Cat: paid 50, cashed out 50.83, net +0.83\n"
        "        Payments:\n"
        "        Ann → Cat: 0.83\n"
        "[table] The tournament is over: /tournament close shows its places and who pays whom.\n")
    await ledger_ok(service)


async def test_a_tournament_played_to_its_end_announces_winner_and_places_before_the_settlement(
        service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await say(terminal, "ann: /tournament create", "ann: /set structure no-limit",
              "ann: /join", "bob: /join", "cat: /join", "ann: /tournament start")
    # Cat folds the first hand while Ann and Bob go all-in: one of them is out third; then everyone shoves.
    await play(terminal, out, {"ann": ("all-in", "call", "check"), "bob": ("all-in", "call", "check"),
                               "cat": ("fold",)}, "is eliminated in 3rd place.")
    shove = ("all-in", "call", "check")
    await play(terminal, out, {name: shove for name in ("ann", "bob", "cat")}, "🏆")
    text = out.getvalue()
    assert "[table] Bob is eliminated in 3rd place." in text.splitlines()
    # the last hand reads as on Discord and Telegram: its lines (the table message tells them), its picture, then
    # what its end brought about; the places come before who pays whom, and nobody cashed out before the end
    ends = text.split("        The hand is over.\n")[-1]
    assert ends == (
        "[table] [picture: Hand #2 · showdown]\n"
        "[table] Cat is eliminated in 2nd place.\n"
        "[table] Ann finishes with 900 chips, worth 150.\n"
        "[table] 🏆 The tournament is over. Winner: Ann!\n"
        "        Places: 1. Ann · 2. Cat · 3. Bob\n"
        "[table] Settlement (money units):\n"
        "        Ann: paid 50, cashed out 150, net +100\n"
        "        Bob: paid 50, cashed out 0, net −50\n"
        "        Cat: paid 50, cashed out 0, net −50\n"
        "        Payments:\n"
        "        Bob → Ann: 50\n"
        "        Cat → Ann: 50\n")
    assert await service.store.read(lambda tx: tx.balance(BANK)) == 0
    await ledger_ok(service)
    before = len(out.getvalue())
    await say(terminal, "bob: /stats")
    assert seen(out, before) == (
        "[table] Bob: 1 hand played, 0 won\n"
        "        VPIP 100% · PFR 0% · aggression factor — · went to showdown 100% · won at showdown 0%\n"
        "        Tournaments: 1 (places: 3rd; wins: 0) · money −50\n")


async def test_the_organizer_closes_and_a_cash_out_counts_in_stats(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await say(terminal, "ann: /tournament create", "ann: /join", "bob: /join", "cat: /join", "ann: /tournament start")
    await play(terminal, out, {name: ("check", "call") for name in ("ann", "bob", "cat")}, "wins")
    before = len(out.getvalue())
    await say(terminal, "cat: /cashout")
    assert "[table] Cat cashes out 290 chips for 48.33.\n" in seen(out, before)
    before = len(out.getvalue())
    await say(terminal, "bob: /tournament close")
    assert seen(out, before) == "[private to bob] Only the organizer — Ann — can do that.\n"
    before = len(out.getvalue())
    await say(terminal, "ann: /tournament close")
    closed = seen(out, before)
    # Cat was told 48.33 for his 290 chips and keeps it; Ann and Bob share what is left of the 150 paid in (101.67,
    # in proportion to their chips, 53.336… and 48.333…): paid + net = cashed out on every line, the nets sum to 0.
    results = (  # Cat, who cashed out, after the places and before who pays whom
        "[table] 🏆 The tournament is over. Winner: Ann!\n"
        "        Places: 1. Ann · 2. Bob\n"
        "        Cashed out before the end (no place): Cat\n"
        "[table] Settlement (money units):\n"
        "        Ann: paid 50, cashed out 53.34, net +3.34\n"
        "        Bob: paid 50, cashed out 48.33, net −1.67\n"
        "        Cat: paid 50, cashed out 48.33, net −1.67\n"
        "        Payments:\n"
        "        Bob → Ann: 1.67\n"
        "        Cat → Ann: 1.67\n")
    assert closed == (
        "[table] Ann finishes with 320 chips, worth 53.34.\n"
        "[table] Bob finishes with 290 chips, worth 48.33.\n" + results +
        "[table] The tournament is over: /tournament close shows its places and who pays whom.\n")
    await ledger_ok(service)
    before = len(out.getvalue())
    await say(terminal, "cat: /stats")
    assert seen(out, before) == (  # he played it, without a place
        "[table] Cat: 1 hand played, 0 won\n"
        "        VPIP 0% · PFR 0% · aggression factor — · went to showdown 100% · won at showdown 0%\n"
        "        Tournaments: 1 (places: cashed out; wins: 0) · money −1.67\n")
    before = len(out.getvalue())
    await say(terminal, "cat: /tournament close")  # once it is over, anyone sees the results again
    assert seen(out, before) == results  # the results again, without the finishes


async def test_redeem_lists_pawned_items_by_number_and_names_the_one_redeemed(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await say(terminal, "ann: /tournament create", "ann: /set structure no-limit",
              "ann: /join", "bob: /join", "cat: /join", "ann: /tournament start")
    calling = {name: ("call", "check") for name in ("ann", "bob", "cat")}
    await play(terminal, out, calling, "wins")  # the stacks now differ
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    biggest = max(stacks, key=lambda account: stacks[account]).rsplit(":", 1)[1]
    await say(terminal, "ann: /deal")
    pawner = None
    for _ in range(6):  # the biggest stack shoves, the others call: someone is short of the call and pawns
        name = terminal.to_act
        before = len(out.getvalue())
        await say(terminal, f"{name}: /pawn leather jacket")
        if not refused(seen(out, before), name):
            pawner = name
            break
        assert "You can still call: pawn only when short of the call." in seen(out, before)
        await say(terminal, f"{name}: {'/allin' if name == biggest else '/call'}")
    assert pawner is not None, "nobody was ever short of a call"
    assert "pawned “leather jacket” for 100 chips (buy-back price 16.67)" in seen(out, before)
    while terminal.table.to_act is not None:  # he folds and keeps the 100 chips; the others check or fold
        name = terminal.table.to_act.removeprefix("term:")
        labels = {button.label.split()[0].lower(): index for index, button in enumerate(terminal.buttons, 1)}
        await say(terminal, f"{name}: {labels.get('check') or labels['fold']}")
    chips = await service.store.read(lambda tx: tx.balance(stack(pawner)))
    before = len(out.getvalue())
    await say(terminal, f"{pawner}: /tournament redeem")
    assert pawner == "bob"
    assert seen(out, before) == (
        "[private to bob] Your pawned items (redeem one between hands with /tournament redeem number):\n"
        "                 1. “leather jacket” — 100 chips to redeem\n")
    before = len(out.getvalue())
    await say(terminal, f"{pawner}: /tournament redeem 1")
    assert seen(out, before).splitlines()[0] == "[table] Bob redeems “leather jacket” for 100 chips."
    assert await service.store.read(lambda tx: tx.balance(stack(pawner))) == chips - 100
    before = len(out.getvalue())
    await say(terminal, f"{pawner}: /tournament redeem")
    assert seen(out, before) == "[private to bob] You have no pawned items to redeem.\n"
    await ledger_ok(service)
