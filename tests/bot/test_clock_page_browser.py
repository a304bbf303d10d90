"""The clock page in a real browser: Debian's headless Chromium, driven by Selenium through chromium-driver.

A tournament runs on a fake clock; the page must show what `/clock` says, take a pause and a level change live
without reloading (pushed by its stream, woken by the service: here the stream looks on its own only once an hour),
answer a wrong token with 404, and lay out at a TV's 1920×1080 and a phone's 390×844 with no text overlapping or cut
off (checked in the page from the boxes `getBoundingClientRect` gives), its options listed, and nothing moving when
their periods end. A crowded night (a long schedule, every option, a season of twelve) shows whole rows only: the
current level and those after it, the season's leaders, "…" where rows are left out; a long title shows whole words
on two lines at most, then "…". Screenshots go to `test-artifacts/clock-page/` (gitignored; `POKERBOT_TEST_ARTIFACTS`
names another folder).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.web.view import SeasonRow, clock_view
from tests.bot.clock_page_helpers import AN_HOUR, WAIT_LIMIT, Night, tournament_night
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import patches_compiled_code

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no chromium and chromedriver here (apt-get install chromium chromium-driver)")
webdriver = pytest.importorskip("selenium.webdriver")

ARTIFACTS = Path(os.environ.get("POKERBOT_TEST_ARTIFACTS") or Path(__file__).resolve().parents[2] / "test-artifacts")
SCHEDULE = ("10/20 20m; 20/40 20m; break 10m; 40/80 20m; 80/160 20m; 160/320 20m; break 15m; 320/640 20m; "
            "640/1280 20m; 1280/2560")
CROWDED = ("10/20 20m; 20/40 20m; 30/60 20m; 40/80 20m; break 10m; 50/100 20m; 60/120 20m; 80/160 20m; "
           "100/200 20m; 150/300 20m; break 15m; 200/400 20m; 300/600 20m; 400/800 20m; 600/1200 20m; "
           "800/1600 20m; 1000/2000")
"""Fifteen levels and two breaks: more than the TV's column holds beside the options and the season."""
LONG_WORD = "Hubert Wolfeschlegelsteinhausenbergerdorff"
"""A name whose second word is wider than the season's column: it ends in "…" rather than breaking."""
SEASON = [SeasonRow(name, f"{result} · {points}") for name, result, points in (
    ("Анна", "+125", 31), ("Константин Константинопольский", "+90,50", 27),
    (LONG_WORD, "+60", 25),
    ("Екатерина", "+41,25", 22), ("Дмитрий", "+12", 20), ("Ann", "+3", 18), ("Сергей", "−4", 16),
    ("Мария", "−15,50", 14), ("Cat", "−33", 11), ("Александр", "−57", 9), ("Ольга", "−78,75", 6),
    ("Иван", "−101", 3))]
"""A season of twelve players, as `season_standings` ranks them: a long name among the leaders, and one with a word
longer than the TV's column (and the phone's)."""
TITLE = "Турнир №1 · Зимний кубок клуба «Пиковая дама» памяти Хуберта Вольфешлегельштайнхаузенбергердорфа"
"""A long title, with a word wider than the phone's header: whole words on at most two lines, then "…"."""
SIZES = ((1920, 1080), (390, 844))
OPTIONS = "rebuys 2 addon reentry bounty 10 pawns 1"
BLOCKS = ("return ['clock', 'stats', 'options']"
          ".map((id) => document.getElementById(id).getBoundingClientRect().toJSON());")
"""Where the page's blocks are, to tell that nothing moves as the options change."""
LIST_ROWS = """
return ['options', 'schedule', 'season-list'].map((id) => {
  const list = document.getElementById(id), outer = list.getBoundingClientRect();
  if (list.closest('[hidden]')) return [];
  return [...list.children].map((item) => {
    const box = item.getBoundingClientRect();
    const inside = box.top >= outer.top - 0.5 && box.bottom <= outer.bottom + 0.5 && box.left >= outer.left - 0.5
      && box.right <= outer.right + 0.5;
    return [item.textContent, item.className, item.hidden, inside];
  });
});
"""
"""Each list's items (the options, the schedule, the season's standings): the text, the class, whether it is hidden
and whether its box lies inside its list's box."""

NAMES = """
return [...document.querySelectorAll('#title, #schedule li > span:first-child, #season-list li > span:first-child')]
  .filter((name) => !name.closest('[hidden]') && name.firstChild)
  .map((name) => {
    const node = name.firstChild, split = [];
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0)
        .map((box) => Math.round(box.top)));
      if (lines.size > 1) split.push(word[0]);
    }
    const ellipsis = getComputedStyle(name).textOverflow === "ellipsis"
      && (name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight);
    const lines = Math.round(name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight));
    return [node.textContent, split, ellipsis, lines];
  });
"""
"""Each name the page shows (the title, a level's limits, a player's): its text, its words broken across lines
(measured with a range's client rects: a word on two lines has boxes at two heights), whether it ends in "…"
(`text-overflow`, its text wider or taller than its box) and how many lines it shows."""

LAYOUT_PROBLEMS = """
const problems = [], boxes = [];
const width = window.innerWidth, height = window.innerHeight, fitScreen = arguments[0];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode, element = node.parentElement, words = node.textContent.trim();
  if (!words || element.closest("[hidden], script, #banner") || getComputedStyle(element).visibility === "hidden")
    continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const rect = range.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) continue;
  // a text that ends in "…" (`text-overflow`) is seen up to its element's edges: what lies past them is left out
  const ends = getComputedStyle(element).textOverflow === "ellipsis", outer = element.getBoundingClientRect();
  const box = {left: rect.left, top: rect.top, right: ends ? Math.min(rect.right, outer.right) : rect.right,
               bottom: ends ? Math.min(rect.bottom, outer.bottom) : rect.bottom};
  let seen = {left: box.left, top: box.top, right: box.right, bottom: box.bottom};
  for (let parent = element; parent && parent !== document.body; parent = parent.parentElement) {
    if (getComputedStyle(parent).overflow === "visible") continue;
    const clip = parent.getBoundingClientRect();
    seen = {left: Math.max(seen.left, clip.left), top: Math.max(seen.top, clip.top),
            right: Math.min(seen.right, clip.right), bottom: Math.min(seen.bottom, clip.bottom)};
  }
  if (seen.right - seen.left <= 0 || seen.bottom - seen.top <= 0) continue;  // scrolled out of its list
  if (seen.left > box.left + 1 || seen.right < box.right - 1 || seen.top > box.top + 1 || seen.bottom < box.bottom - 1)
    problems.push("cut off: " + words);
  if (box.left < -1 || box.right > width + 1) problems.push("outside the screen's width: " + words);
  if (fitScreen && (box.top < -1 || box.bottom > height + 1)) problems.push("below the screen: " + words);
  boxes.push({words, box});
}
for (let i = 0; i < boxes.length; i++)
  for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].box, b = boxes[j].box;
    const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (across > 1 && down > 1) problems.push("overlap: " + boxes[i].words + " / " + boxes[j].words);
  }
if (document.documentElement.scrollWidth > width + 1) problems.push("the page scrolls sideways");
return problems;
"""


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Headless Chromium from the system (no browser or driver is downloaded: Selenium Manager stays offline)."""
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service as DriverService

    monkeypatch.setenv("SE_OFFLINE", "true")
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--autoplay-policy=no-user-gesture-required", "--hide-scrollbars",
                     f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=DriverService(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


async def in_browser(call: Callable[..., Any], *args: Any) -> Any:
    """A Selenium call, in a thread: the bot serving the page runs on this test's event loop."""
    return await asyncio.to_thread(call, *args)


async def page_text(driver: Any, element_id: str) -> str:
    """The text of an element of the page ("" when it is hidden)."""
    script = "const e = document.getElementById(arguments[0]); return e.hidden ? '' : e.textContent;"
    return str(await in_browser(driver.execute_script, script, element_id))


async def until_shown(driver: Any, element_id: str, wanted: Callable[[str], bool]) -> None:
    """Wait until the element's text is as wanted (no bound on the page's pace: `WAIT_LIMIT` only tells a failure
    from a hang)."""
    try:
        async with asyncio.timeout(WAIT_LIMIT):
            while not wanted(await page_text(driver, element_id)):
                await asyncio.sleep(0.02)
    except TimeoutError:
        shown = await page_text(driver, element_id)
        raise AssertionError(f"#{element_id} still shows {shown!r} after {WAIT_LIMIT:.0f} s") from None


def moved(before: list[dict[str, float]], after: list[dict[str, float]]) -> list[str]:
    """The blocks (of `BLOCKS`) that moved or changed size by more than a pixel (the header's sound button, hidden
    once sound plays, may shift everything by a fraction of one)."""
    names = ("clock", "stats", "options")
    return [name for name, was, now in zip(names, before, after, strict=True)
            if any(abs(was[side] - now[side]) > 1 for side in ("left", "top", "width", "height"))]


async def option_lines(driver: Any) -> list[list[str]]:
    """The options the page lists, each as the text it shows and its class ("option over" once its time is over)."""
    script = ("return [...document.querySelectorAll('#options li')]"
              ".map((li) => [li.firstChild.textContent, li.className]);")
    return list(await in_browser(driver.execute_script, script))


async def put_banner_away(driver: Any) -> None:
    """Hide the new level's banner, as it goes by itself after 8 seconds, so the screenshots show what it covers."""
    await in_browser(driver.execute_script, "document.getElementById('banner').hidden = true;")


async def screen(driver: Any, width: int, height: int) -> None:
    """Show the page as on a screen of `width` × `height` CSS pixels."""
    await in_browser(driver.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < height})
    await asyncio.sleep(0.3)  # a layout pass and a tick of the countdown


Rows = list[list[Any]]
"""A list's items as `LIST_ROWS` gives them."""


async def check_layout(driver: Any, name: str) -> dict[tuple[int, int], list[Rows]]:
    """No text overlaps or is cut off at either size (but a name's word wider than its column, which ends in "…"), no
    word of a name is broken across lines, no list item is shown past its list's edge; the TV shows everything
    without scrolling, the time left in digits at least a fifth of the screen tall; a screenshot of each is kept. The
    lists' items at each size, as `LIST_ROWS` gives them."""
    ARTIFACTS.joinpath("clock-page").mkdir(parents=True, exist_ok=True)
    lists = {}
    for width, height in SIZES:
        await screen(driver, width, height)
        is_tv = width > height
        problems = await in_browser(driver.execute_script, LAYOUT_PROBLEMS, is_tv)
        await in_browser(driver.save_screenshot, str(ARTIFACTS / "clock-page" / f"{name}-{width}x{height}.png"))
        assert problems == [], f"{name} at {width}×{height}: {problems}"
        names = await in_browser(driver.execute_script, NAMES)
        assert [(text, split) for text, split, *_ in names if split] == [], f"{name} at {width}×{height}: words broken"
        lists[width, height] = await in_browser(driver.execute_script, LIST_ROWS)
        cut = [text for rows in lists[width, height] for text, _, hidden, inside in rows if not hidden and not inside]
        assert cut == [], f"{name} at {width}×{height}: rows past their list's edge: {cut}"
        digits = await in_browser(driver.execute_script,
                                  "return document.getElementById('timer').getBoundingClientRect().height;")
        assert digits >= (height / 5 if is_tv else height / 12), f"the time left is {digits} px tall"
    return lists


async def next_period(night: Night, browser: Any, seconds: int, level: str, blocks: list[dict[str, float]],
                      name: str) -> tuple[list[list[str]], list[str], dict[tuple[int, int], list[Rows]]]:
    """Run the night's clock `seconds` on, the bot's timer firing what falls due, until the page names the level
    `level`: the options it then lists (`option_lines`), which of the `BLOCKS` moved since they stood at `blocks`,
    and, the banner put away, its lists at each size (`check_layout`, its screenshots named `name`)."""
    night.clock.advance(seconds)
    await night.service.scheduler.fire_due()
    await until_shown(browser, "level-name", lambda shown: shown == level)
    options = await option_lines(browser)
    shifted = moved(blocks, await in_browser(browser.execute_script, BLOCKS))
    await put_banner_away(browser)
    return options, shifted, await check_layout(browser, name)


async def ellipsized(driver: Any) -> list[str]:
    """The names the lists show ending in "…" (a word wider than the column), as `NAMES` tells."""
    return [text for text, _, ellipsis, _ in await in_browser(driver.execute_script, NAMES) if ellipsis]


def shown_run(rows: Rows) -> tuple[int, int]:
    """The rows a list shows, as (first, end) of the run of its entries they are, checking that they are one run with
    "…" shown above when entries before it are left out, and below when entries after it are."""
    entries = [index for index, (_, class_name, _, _) in enumerate(rows) if class_name != "more"]
    shown = [number for number, index in enumerate(entries) if not rows[index][2]]
    assert shown, "the list shows no entry"
    first, end = shown[0], shown[-1] + 1
    assert shown == list(range(first, end)), f"entries left out in the middle: {shown}"
    markers = [(index, text) for index, (text, class_name, hidden, _) in enumerate(rows)
               if class_name == "more" and not hidden]
    expected = ([(0, "…")] if first > 0 else []) + ([(len(rows) - 1, "…")] if end < len(entries) else [])
    assert markers == expected, f"markers {markers} for entries {first}–{end} of {len(entries)}"
    return first, end


def check_schedule(rows: Rows, current: int) -> tuple[int, int]:
    """The schedule shows the current level (entry `current`) and as many after it as fit before any before it."""
    first, end = shown_run(rows)
    entries = [row for row in rows if row[1] != "more"]
    assert [index for index, row in enumerate(entries) if "current" in row[1].split()] == [current]
    assert first <= current < end, f"the current level {current} is not among {first}–{end}"
    assert end == len(entries) or first == current, f"earlier levels shown, later ones left out: {first}–{end}"
    return first, end


@patches_compiled_code("bot.store.clock_pages.season_standings")
async def test_the_clock_page_in_chromium(store: Store, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    standings = [SeasonRow("Ann", "+25 · 7"), SeasonRow("Konstantin Konstantinopolsky", "−12,50 · 3")]
    monkeypatch.setattr("bot.store.clock_pages.season_standings", lambda tx, chat_id: standings)  # as a season would
    async with tournament_night(store, schedule=SCHEDULE, options=OPTIONS, looks=AN_HOUR) as night:
        service, clock = night.service, night.clock
        clock.advance(7 * 60 + 30)
        await screen(browser, *SIZES[0])
        await in_browser(browser.get, night.link)
        await until_shown(browser, "timer", lambda shown: bool(re.fullmatch(r"\d\d:\d\d", shown)))
        await in_browser(browser.execute_script, "window.notReloaded = true;")

        said = (await service.handle(PLACE, BOB, "/clock")).public[0]
        level, limits, minutes = re.search(r"Level (\d+): limits (\S+) .*, (\d+)m left", said).groups()
        assert await page_text(browser, "level-name") == f"Level {level}"
        assert await page_text(browser, "limits") == f"Limits {limits}"
        assert int((await page_text(browser, "timer")).split(":")[0]) == int(minutes) == 12
        assert await page_text(browser, "players") == "3 of 3"
        assert await page_text(browser, "season-list") == "", "the season's standings wait for a break"
        assert await page_text(browser, "options-title") == "Options"
        assert await option_lines(browser) == [
            ["2 rebuys each through level 2", "option"], ["1 add-on each at the break", "option"],
            ["re-entry through level 2", "option"], ["bounty 10", "option"],
            ["at most 1 item pawned per player", "option"]]
        blocks = await in_browser(browser.execute_script, BLOCKS)

        assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
        await until_shown(browser, "paused", lambda shown: shown == "Paused")
        frozen = await page_text(browser, "timer")
        await asyncio.sleep(1.1)
        assert await page_text(browser, "timer") == frozen == "12:30", "a paused clock does not count down"
        await check_layout(browser, "paused-level")
        await screen(browser, *SIZES[0])

        assert (await service.handle(PLACE, ANN, "/tournament resume")).error is None
        await until_shown(browser, "paused", lambda shown: shown == "")
        clock.advance(12 * 60 + 31)
        assert await service.scheduler.fire_due() >= 1  # the level's end, as the bot's timer brings it
        await until_shown(browser, "level-name", lambda shown: shown == "Level 2")
        assert await page_text(browser, "limits") == "Limits 20/40"
        assert await page_text(browser, "banner") == "Level 2 · Limits 20/40"
        assert await in_browser(browser.execute_script, "return document.body.dataset.chimes;") == "1"
        ARTIFACTS.joinpath("clock-page").mkdir(parents=True, exist_ok=True)
        await in_browser(browser.save_screenshot, str(ARTIFACTS / "clock-page" / "level-change-1920x1080.png"))
        assert await in_browser(browser.execute_script, "return window.notReloaded === true;")

        token = night.link.rsplit("/", 1)[1]
        wrong = night.link[: -len(token)] + ("x" if token[0] != "x" else "y") + token[1:]
        status = await in_browser(browser.execute_async_script,
                                  "fetch(arguments[0]).then((r) => arguments[1](r.status));", wrong)
        assert status == 404

        options, shifted, _ = await next_period(night, browser, 20 * 60, "Break", blocks, "break")
        assert await page_text(browser, "until") == "until 18:50"
        assert options == [
            ["rebuys are over", "option over"], ["1 add-on each at the break", "option"],
            ["re-entry is over", "option over"], ["bounty 10", "option"],
            ["at most 1 item pawned per player", "option"]]
        assert shifted == [], "the periods' end moves nothing"
        assert await page_text(browser, "season-list") == "Ann+25 · 7Konstantin Konstantinopolsky−12,50 · 3"

        assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
        await until_shown(browser, "level-name", lambda shown: shown == "Перерыв")
        assert await option_lines(browser) == [
            ["ребаи закончились", "option over"], ["1 аддон на игрока на перерыве", "option"],
            ["повторный вход закрыт", "option over"], ["баунти 10", "option"],
            ["в залог — не больше 1 вещи на игрока", "option"]]
        await check_layout(browser, "break-ru")


def titled(*args: Any) -> dict[str, Any]:
    """The page's view (`clock_view`) under the long `TITLE`, as a tournament with a long name would show."""
    view = clock_view(*args)
    view["title"] = TITLE
    return view


async def title_shown(driver: Any) -> tuple[int, bool]:
    """How many lines the page's title shows, and whether it ends in "…" (as `NAMES` tells)."""
    names = await in_browser(driver.execute_script, NAMES)
    assert names[0][0] == TITLE, names[0]
    return names[0][3], names[0][2]


@patches_compiled_code("bot.store.clock_pages.season_standings")
async def test_a_crowded_night_shows_whole_rows_in_russian(store: Store, browser: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.store.clock_pages.season_standings", lambda tx, chat_id: SEASON)
    monkeypatch.setattr("bot.web.server.clock_view", titled)
    async with tournament_night(store, schedule=CROWDED, options=OPTIONS, looks=AN_HOUR) as night:
        service, clock = night.service, night.clock
        assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
        clock.advance(70 * 60)  # mid-level 4, the last before the first break
        await service.scheduler.fire_due()
        await screen(browser, *SIZES[0])
        await in_browser(browser.get, night.link)
        await until_shown(browser, "level-name", lambda shown: shown == "Уровень 4")
        assert (await option_lines(browser))[0] == ["2 ребая на игрока до конца уровня 4", "option"]
        blocks = await in_browser(browser.execute_script, BLOCKS)
        for _, schedule, season in (await check_layout(browser, "crowded-level-ru")).values():
            check_schedule(schedule, 3)
            assert season == [], "the season's standings wait for a break"
        await screen(browser, *SIZES[0])

        options, shifted, lists = await next_period(night, browser, 10 * 60, "Перерыв", blocks, "crowded-break-ru")
        assert options == [
            ["ребаи закончились", "option over"], ["1 аддон на игрока на перерыве", "option"],
            ["повторный вход закрыт", "option over"], ["баунти 10", "option"],
            ["в залог — не больше 1 вещи на игрока", "option"]]
        assert shifted == [], "the periods' end moves nothing"
        _, schedule, season = lists[SIZES[0]]
        first, end = check_schedule(schedule, 4)
        assert first == 4 and end < 17, "on the TV the levels before the break give way first, then the last ones"
        leaders = shown_run(season)
        assert leaders[0] == 0 and 3 <= leaders[1] < 12, f"the TV shows the season's leaders only: {leaders}"
        _, schedule, season = lists[SIZES[1]]
        assert check_schedule(schedule, 4) == (0, 17) and shown_run(season) == (0, 12), "a phone scrolls through all"
        assert await ellipsized(browser) == [TITLE, LONG_WORD], "a word wider than the phone's column ends in “…”"
        assert await title_shown(browser) == (2, True), "the title's first two lines, its long word cut by “…”"
        await screen(browser, *SIZES[0])
        on_tv = await ellipsized(browser)  # the TV's column holds fewer letters: "Константинопольский" is too long
        assert on_tv == ["Константин Константинопольский", LONG_WORD]
        assert await title_shown(browser) == (2, False), "the TV shows the whole title on two lines"

        # mid-level 8 (the schedule's ninth entry), the season put away until the next break
        options, shifted, lists = await next_period(night, browser, 80 * 60, "Уровень 8", blocks, "crowded-mid-ru")
        assert options == [
            ["ребаи закончились", "option over"], ["аддоны закончились", "option over"],
            ["повторный вход закрыт", "option over"], ["баунти 10", "option"],
            ["в залог — не больше 1 вещи на игрока", "option"]]
        assert shifted == [], "the add-on's end moves nothing"
        _, schedule, season = lists[SIZES[0]]
        first, end = check_schedule(schedule, 8)
        assert 0 < first < 8 and end == 17, "the last levels shown, then as many before the current one as fit"
        assert season == []
