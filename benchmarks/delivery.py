"""Telegram delivery at Telegram's pace: the real adapter and service against the fake Bot API enforcing the limits.

(a) one 6-player Hold'em hand with instant players: requests per action and seconds until the final state is shown;
(b) one table at a human pace (an action every 2 s): lag from an action's commit to the next table edit reaching
    Telegram, p50/p99; (c) 150 groups, an action every 5 s each (30 actions/s: the bot's whole budget): lag p50/p99,
    the busiest group's requests per minute, 429s received; (d) a 429 with retry_after 10 in one group: how long
    another group waits for its answer. Each prints its ratio to the budget: requests sent over the most Telegram's
    limits admit to the same groups in the same span (see `most_allowed`); (a) also prints when the group's 20 a
    minute would first have admitted the final request, beside when it was actually shown.

`--scale N` runs the fake's limits, the bot's budget and the players' pace all N times faster (both sides alike);
every figure is reported in real seconds (measured times multiplied back by N). `--quick` is the CI smoke run.
(e) and (f) are (a) and (b) with the table message as a photo (`Outbox.table_photos`, the `editMessageMedia` option).
`--only b` runs only the scenarios named; `--trace` prints (b)'s timeline and where (c)'s slowest lags came from.
(g) and (h) are (b) and (c) run twice in the same run, first with the old table messages keeping their buttons
(retiring them switched off), then as the bot runs (`Outbox.retire`), and print the second over the first; in (g) a
fifth player sits down or leaves between hands, so every hand's message ends with a Deal button to take away.
Run: `python benchmarks/delivery.py [--scale 1] [--groups 150] [--seconds 60] [--only b] [--trace]`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.holdem as engine
from bot.clock import FakeClock
from bot.telegram.render import place_of
from tests.telegram.conftest import Running
from tests.telegram.fake_api import FakeBotApi, Sent

SIX = [{"id": 101 + n, "is_bot": False, "first_name": f"P{n}", "username": f"p{n}"} for n in range(6)]
BY_KEY = {f"tg:{user['id']}": user for user in SIX}


def group(n: int) -> dict[str, object]:
    return {"id": -100_000 - n, "type": "supergroup", "title": f"Table {n}"}


def table_requests(api: FakeBotApi, chat_id: int) -> list[float]:
    """Arrival times of requests that show a table state in a chat (edits, and posts with buttons)."""
    return [call.at for call in api.requests if int(call.params.get("chat_id", 0)) == chat_id and (
        call.method in ("editMessageText", "editMessageCaption", "editMessageMedia")
        or (call.method in ("sendMessage", "sendPhoto") and call.params.get("reply_markup")))]


def limited(api: FakeBotApi, chat_id: int | None = None) -> list[float]:
    return [call.at for call in api.requests if call.method.startswith(("send", "edit"))
            and (chat_id is None or int(call.params.get("chat_id", 0)) == chat_id)]


def most_allowed(api: FakeBotApi, span: float, groups: int) -> int:
    """The most requests Telegram's limits admit to `groups` groups within `span` real seconds: a rolling window
    admits its whole count in every window the span reaches into (each group's 20 a minute, the bot's 30 a second,
    whichever admits fewer)."""
    (group_count, group_seconds), (bot_count, bot_seconds) = api.flood.limits.group, api.flood.limits.bot
    return min(groups * group_count * (math.floor(span / group_seconds) + 1),
               bot_count * (math.floor(span / bot_seconds) + 1))


def ratio_to_budget(api: FakeBotApi, sent: list[float], groups: int, scale: float, since: float | None = None) -> str:
    """`ratio to budget …` for requests that arrived at `sent` (fast-clock times), over their span (from `since`
    when given, else from the first of them, to the last)."""
    if not sent:
        return "ratio to budget 0.00 (0 sent)"
    span = (sent[-1] - (sent[0] if since is None else since)) * scale
    allowed = most_allowed(api, span, groups)
    return f"ratio to budget {len(sent) / allowed:.2f} ({len(sent)} sent, {allowed} allowed in {span:.1f} s)"


def first_admitted(api: FakeBotApi, earlier: list[float], after: float) -> float:
    """When the group's window (its 20 in any rolling minute, as the fake counts them) would first admit one more
    request after `after`, given the requests that arrived at `earlier` (fast-clock times)."""
    count, seconds = api.flood.limits.group
    if len(earlier) < count:
        return after
    return max(after, earlier[-count] + seconds / api.flood.time_scale)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Table:
    """One group's Hold'em table driven by simulated players."""

    def __init__(self, bot: Running, chat: dict[str, object], players: list[dict[str, object]]) -> None:
        self.bot, self.chat, self.players = bot, chat, players
        self.chat_id = int(chat["id"])  # type: ignore[call-overload]
        self.table_id = place_of(self.chat_id, None).table_id
        self.message: Sent | None = None
        self.between: dict[str, object] | None = None
        """A player who sits down and leaves in turn between hands (the hand's message then shows the seats with a
        Deal button, which the next hand's message must take away)."""
        self._seated = False

    async def seat(self) -> None:
        for user in self.players:
            await self.bot.handled(await self.bot.api.push(self.bot.api.command_update(user, "/join 200", self.chat)))
        await self.deal()

    async def deal(self) -> None:
        await self.bot.handled(await self.bot.api.push(self.bot.api.command_update(self.players[0], "/deal",
                                                                                     self.chat)))

    async def hand(self) -> engine.Hand | None:
        service = self.bot.service
        assert service is not None
        stored = await self.bot.store.read(lambda tx: service.stored_table(tx, self.table_id))
        data = (stored[1] or {}).get("hand") if stored else None
        return engine.Hand.from_dict(data) if data else None

    async def act(self) -> float | None:
        """One action by whoever must act (a new hand when none is on); returns when it was committed."""
        hand = await self.hand()
        if hand is None or hand.to_act is None:
            if self.between is not None:
                line = "/leave" if self._seated else "/join 200"
                self._seated = not self._seated
                await self.bot.handled(await self.bot.api.push(self.bot.api.command_update(self.between, line,
                                                                                             self.chat)))
            await self.deal()
            self.message = None
            return None
        if self.message is None:  # the press needs a message to come from; its id does not matter to the bot
            self.message = Sent(self.chat_id, 1, "")
        number = hand.hand_number
        for word in ("check", "call"):
            update, query_id = self.bot.api.press_update(BY_KEY[hand.to_act], self.message, f"h{number}|{word}")
            await self.bot.handled(await self.bot.api.push(update))
            if not (self.bot.api.answer(query_id) or {}).get("show_alert"):
                return time.monotonic()
        return None


STALL_SECONDS = 30.0
"""Longer than any scenario's waits at the quick run's scale: past it, the run says which scenario stalled."""


async def start(api: FakeBotApi, path: Path, photos: bool = False, retire: bool = True) -> Running:
    """The bot; `photos`: its table messages are photos (the `table_photos` option the issue asked to measure);
    without `retire`, old table messages keep their buttons (as before `Outbox.retire`)."""
    bot = Running(api, path, FakeClock(), "holdem", seed=1)
    await bot.start()
    bot.adapter.outbox.table_photos = photos
    if not retire:
        bot.adapter.outbox.retire = lambda op: []  # type: ignore[method-assign]
    return bot


def lags(api: FakeBotApi, chat_id: int, commits: list[float]) -> list[float]:
    shown = table_requests(api, chat_id)
    found = []
    for commit in commits:
        later = [at for at in shown if at >= commit]
        if later:
            found.append(later[0] - commit)
    return found


async def instant_hand(api: FakeBotApi, path: Path, scale: float, photos: bool = False) -> None:
    bot = await start(api, path, photos)
    table = Table(bot, group(0), SIX)
    await table.seat()
    await bot.adapter.flush()
    first = len(limited(api, table.chat_id))
    actions, last = 0, time.monotonic()
    while (hand := await table.hand()) is not None and hand.to_act is not None:
        committed = await table.act()
        actions += 1
        last = committed or last
    await bot.adapter.flush()
    every = limited(api, table.chat_id)
    sent = every[first:]
    shown = (sent[-1] - last) * scale if sent else 0.0
    allowed = (first_admitted(api, every[:-1], last) - last) * scale if sent else 0.0
    print(f"(a{', table as a photo' if photos else ''}) 6-player hand, instant players: {actions} actions, "
          f"{len(sent)} requests to the group "
          f"({len(sent) / actions:.2f} per action), final state shown {shown:.1f} s after the last action (the "
          f"group's 20 a minute first allowed it at {allowed:.1f} s), 429s {len(api.rejected)}, "
          f"{ratio_to_budget(api, sent, 1, scale)}")
    await bot.stop()


def timeline(api: FakeBotApi, chat_id: int, commits: list[float], began: float, scale: float) -> None:
    """Print each action's commit and each request to the chat, in real seconds from `began`."""
    events = [(at, "action") for at in commits]
    events += [(call.at, f"  {call.method}" + (" (table)" if call.method == "editMessageText" or call.params.get(
        "reply_markup") else "")) for call in api.requests
        if call.method.startswith(("send", "edit")) and int(call.params.get("chat_id", 0)) == chat_id]
    for at, what in sorted(events):
        if at >= began:
            print(f"{(at - began) * scale:7.2f} {what}")


async def paced_table(api: FakeBotApi, path: Path, scale: float, seconds: float, trace: bool = False,
                      photos: bool = False, retire: bool = True, between: bool = False) -> dict[str, float]:
    bot = await start(api, path, photos, retire)
    table = Table(bot, group(0), SIX[:4])
    table.between = SIX[5] if between else None
    await table.seat()
    await bot.adapter.flush()
    await asyncio.sleep(60 / scale)  # a fresh minute for the group
    began, commits = time.monotonic(), []
    while time.monotonic() - began < seconds / scale:
        committed = await table.act()
        if committed is not None:
            commits.append(committed)
        await asyncio.sleep(2 / scale)
    await bot.adapter.flush()
    found = [lag * scale for lag in lags(api, table.chat_id, commits)]
    if trace:
        timeline(api, table.chat_id, commits, began, scale)
    sent = [at for at in limited(api, table.chat_id) if at >= began]
    hands = sum(1 for call in api.requests if call.at >= began and call.method in ("sendMessage", "sendPhoto")
                and call.params.get("reply_markup") and int(call.params.get("chat_id", 0)) == table.chat_id)
    retired = sum(1 for call in api.requests if call.at >= began and call.method == "editMessageReplyMarkup")
    print(f"(b{', table as a photo' if photos else ''}{'' if retire else ', no retiring'}"
          f"{', a player sits down or leaves between hands' if between else ''}) one table, an action "
          f"every 2 s: {len(commits)} actions, {hands} new hands, {len(sent)} requests ({len(sent) / max(hands, 1):.1f}"
          f" per hand, {retired} retiring old messages), lag p50 {percentile(found, 0.5):.2f} s, p99 "
          f"{percentile(found, 0.99):.2f} s, 429s {len(api.rejected)}, "
          f"{ratio_to_budget(api, sent, 1, scale, since=began)}")
    await bot.stop()
    return {"per hand": len(sent) / max(hands, 1), "p50": percentile(found, 0.5), "p99": percentile(found, 0.99),
            "actions": len(commits)}


class LoopLag:
    """How late the event loop wakes a task that sleeps 50 ms (a busy loop delays every send alike)."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(0.05)
            self.late.append(time.monotonic() - asked - 0.05)

    def stop(self) -> str:
        self._task.cancel()
        return f"event loop late p50 {percentile(self.late, 0.5) * 1000:.0f} ms, p99 " \
               f"{percentile(self.late, 0.99) * 1000:.0f} ms, max {max(self.late, default=0) * 1000:.0f} ms"


def where_lag_comes_from(api: FakeBotApi, tables: list[Table], commits: dict[int, list[float]], began: float,
                         scale: float) -> None:
    """Print what the bot sent per second (against the global 30) and, for the slowest actions, what their group
    was sent between the commit and the edit that showed it."""
    stamps = sorted(at for at in limited(api) if at >= began)
    per_second: dict[int, int] = {}
    for at in stamps:
        second = int((at - began) * scale)
        per_second[second] = per_second.get(second, 0) + 1
    print("  requests per real second:", " ".join(str(per_second.get(n, 0)) for n in range(max(per_second) + 1)))
    worst: list[tuple[float, int, float]] = []
    for table in tables:
        shown = table_requests(api, table.chat_id)
        for commit in commits[table.chat_id]:
            later = [at for at in shown if at >= commit]
            if later:
                worst.append(((later[0] - commit) * scale, table.chat_id, commit))
    worst.sort(reverse=True)
    for lag, chat_id, commit in worst[:5]:
        sent = [(call.at, call.method) for call in api.requests if call.method.startswith(("send", "edit"))
                and int(call.params.get("chat_id", 0)) == chat_id
                and commit - 10 / scale <= call.at <= commit + lag / scale]
        around = ", ".join(f"{(at - commit) * scale:+.1f} {method}" for at, method in sent)
        print(f"  lag {lag:.1f} s in {chat_id} at {(commit - began) * scale:.1f} s; its requests around it: {around}")


async def many_groups(api: FakeBotApi, path: Path, scale: float, seconds: float, groups: int,
                      trace: bool = False, retire: bool = True) -> dict[str, float]:
    bot = await start(api, path, retire=retire)
    tables = [Table(bot, group(n), SIX[:2]) for n in range(groups)]
    for table in tables:
        await table.seat()
    await bot.adapter.flush()
    await asyncio.sleep(60 / scale)
    began = time.monotonic()
    first = len(limited(api))
    commits: dict[int, list[float]] = {table.chat_id: [] for table in tables}

    async def play(table: Table, offset: float) -> None:
        await asyncio.sleep(offset)
        while time.monotonic() - began < seconds / scale:
            committed = await table.act()
            if committed is not None:
                commits[table.chat_id].append(committed)
            await asyncio.sleep(5 / scale)

    loop_lag = LoopLag()
    await asyncio.gather(*(play(table, 5 / scale * n / groups) for n, table in enumerate(tables)))
    await bot.adapter.flush()
    print(f"  {loop_lag.stop()}")
    elapsed = (time.monotonic() - began) * scale
    found = [lag * scale for table in tables for lag in lags(api, table.chat_id, commits[table.chat_id])]
    if trace:
        where_lag_comes_from(api, tables, commits, began, scale)
    busiest = max(busiest_minute([at * scale for at in limited(api, table.chat_id)]) for table in tables)
    sent = len(limited(api)) - first
    allowed = min(30 * elapsed, 20 * groups * elapsed / 60)
    retired = sum(1 for call in api.requests if call.at >= began and call.method == "editMessageReplyMarkup")
    hands = sum(1 for call in api.requests if call.at >= began and call.method == "sendMessage"
                and call.params.get("reply_markup"))
    print(f"(c{'' if retire else ', no retiring'}) {groups} groups, an action every 5 s each: "
          f"{sum(map(len, commits.values()))} actions, {hands} new hands, {retired} retiring old messages, lag p50 "
          f"{percentile(found, 0.5):.2f} s, p99 {percentile(found, 0.99):.2f} s, busiest group {busiest} "
          f"requests/min, 429s {len(api.rejected)}, ratio to budget {sent / allowed:.2f} ({sent} sent, "
          f"{allowed:.0f} allowed in {elapsed:.0f} s)")
    await bot.stop()
    return {"per hand": sent / max(hands, 1), "p50": percentile(found, 0.5), "p99": percentile(found, 0.99),
            "actions": sum(map(len, commits.values()))}


def compared(name: str, before: dict[str, float], after: dict[str, float]) -> None:
    """Print the run with retiring over the run without, figure by figure."""
    print(f"({name}) with retiring over without: " + ", ".join(
        f"{figure} {after[figure] / before[figure]:.2f}" if before[figure] else f"{figure} {after[figure]:.2f}/0"
        for figure in ("per hand", "p50", "p99", "actions")))


async def side_by_side(name: str, run: Any, api_for: Any, path: Path) -> None:
    """Run a scenario without retiring, then with it, each against a fresh fake; print the ratios."""
    figures = []
    for retire in (False, True):
        api = api_for()
        await api.start()
        try:
            figures.append(await run(api, path.with_suffix(f".{retire}.db"), retire))
        finally:
            await api.stop()
    compared(name, *figures)


def busiest_minute(stamps: list[float]) -> int:
    return max((sum(1 for other in stamps if stamp <= other < stamp + 60) for stamp in stamps), default=0)


async def one_chat_waits(api: FakeBotApi, path: Path, scale: float) -> None:
    bot = await start(api, path)
    began = time.monotonic()
    api.fail("sendMessage", 429, "Too Many Requests: retry after 10", retry_after=10)
    await bot.handled(await api.push(api.command_update(SIX[0], "/join", group(0))))
    pushed = time.monotonic()
    await bot.handled(await api.push(api.command_update(SIX[1], "/join", group(1))))
    while not api.chat(int(group(1)["id"])):  # type: ignore[call-overload]
        if time.monotonic() - pushed > STALL_SECONDS:
            raise SystemExit(f"(d) stalled: group 2 heard nothing in {STALL_SECONDS} s")
        await asyncio.sleep(0.001)
    waited = time.monotonic() - pushed
    sent = [at for at in limited(api) if at >= began]
    print(f"(d) a 429 (retry_after 10) in one group: another group's answer after {waited * 1000:.0f} ms, "
          f"{ratio_to_budget(api, sent, 2, scale, since=began)}")
    await bot.adapter.outbox.close(0)
    await bot.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="run limits, budget and pace this much faster")
    parser.add_argument("--groups", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (b) and (c) play, in real seconds")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--only", default=None, help="which scenarios to run (e.g. `b` or `bc`; e and f: a and b "
                        "with the table message as a photo; default all, `abcde` with --quick)")
    parser.add_argument("--trace", action="store_true", help="print each request to the groups (a timeline)")
    args = parser.parse_args()
    if args.quick:
        args.scale, args.groups, args.seconds = 30.0, 10, 30.0
        args.only = args.only or "abcde"  # (f) is (b)'s code with (e)'s option: CI's time limit spared
    args.only = args.only or "abcdef"
    logging.basicConfig(level=logging.ERROR)
    print(f"time scale {args.scale:g} (figures in real seconds)")
    if set(args.only) & set("gh"):
        with tempfile.TemporaryDirectory() as directory:
            if "g" in args.only:
                await side_by_side("g", lambda api, path, retire: paced_table(
                    api, path, args.scale, args.seconds, retire=retire, between=True),
                    lambda: FakeBotApi(time_scale=args.scale), Path(directory) / "g")
            if "h" in args.only:
                await side_by_side("h", lambda api, path, retire: many_groups(
                    api, path, args.scale, args.seconds, args.groups, retire=retire),
                    lambda: FakeBotApi(time_scale=args.scale), Path(directory) / "h")
    with tempfile.TemporaryDirectory() as directory:
        for number, run in enumerate((
            lambda api, path: instant_hand(api, path, args.scale),
            lambda api, path: paced_table(api, path, args.scale, args.seconds, args.trace),
            lambda api, path: many_groups(api, path, args.scale, args.seconds, args.groups, args.trace),
            lambda api, path: one_chat_waits(api, path, args.scale),
            lambda api, path: instant_hand(api, path, args.scale, photos=True),
            lambda api, path: paced_table(api, path, args.scale, args.seconds, args.trace, photos=True),
        )):
            if "abcdef"[number] not in args.only:
                continue
            api = FakeBotApi(time_scale=args.scale)
            await api.start()
            try:  # a scenario that stalls fails with its name instead of hanging the run
                await asyncio.wait_for(run(api, Path(directory) / f"bot{number}.db"),
                                       STALL_SECONDS * 6 if args.quick else None)
            except TimeoutError:
                raise SystemExit(f"scenario {'abcdef'[number]} stalled") from None
            finally:
                await api.stop()


if __name__ == "__main__":
    asyncio.run(main())
