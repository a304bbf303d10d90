"""The fake Discord's rate-limit buckets on their own: every end-to-end test leans on them, so they are checked
here, on a fake clock, and once through HTTP with the headers discord.py paces itself by."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from discord.app_commands import AppCommand

from tests.discord.fake_discord import (
    ACK_SECONDS,
    CHANNEL_LIMIT,
    CHANNEL_PERIOD,
    CONTENT_LIMIT,
    CUSTOM_ID_LIMIT,
    GLOBAL_LIMIT,
    LABEL_LIMIT,
    ROW_LIMIT,
    ROWS_LIMIT,
    Bucket,
    FakeDiscord,
    Interaction,
    invalid_commands,
    is_name,
)


def test_a_bucket_refuses_the_request_after_its_limit_until_its_window_resets() -> None:
    bucket = Bucket("messages-create", CHANNEL_LIMIT, CHANNEL_PERIOD)
    assert [bucket.take(second / 2) for second in range(5)] == [None] * 5  # 5 in the window that began at 0
    assert bucket.take(4.5) == 0.5
    assert bucket.take(4.9) is not None and bucket.count == 5  # a refused request is not counted
    assert bucket.take(5.0) is None  # a new window from here
    assert bucket.reset_at == 10.0


def test_a_bucket_tells_what_is_left_and_when_it_resets() -> None:
    bucket = Bucket("messages-edit", 5, 5.0)
    bucket.take(100.0)
    bucket.take(100.5)
    headers = bucket.headers(101.0)
    assert headers["X-RateLimit-Limit"] == "5"
    assert headers["X-RateLimit-Remaining"] == "3"
    assert headers["X-RateLimit-Reset-After"] == "4.000"
    assert headers["X-RateLimit-Bucket"] == "messages-edit"


def test_an_exhausted_bucket_refuses_for_the_seconds_given() -> None:
    bucket = Bucket("messages-create", 5, 5.0)
    bucket.exhaust(10.0, 0.0)
    assert bucket.take(3.0) == 7.0
    assert bucket.take(10.0) is None


async def test_a_channels_sixth_message_in_its_window_is_answered_429_with_the_rate_limit_headers() -> None:
    fake = FakeDiscord()
    await fake.start()
    channel, other = fake.channels
    try:
        async with aiohttp.ClientSession() as session:
            answers = []
            for number in range(CHANNEL_LIMIT + 1):
                async with session.post(f"{fake.rest_base}/channels/{channel}/messages",
                                        json={"content": str(number)}) as response:
                    answers.append((response.status, dict(response.headers), await response.json()))
            async with session.post(f"{fake.rest_base}/channels/{other}/messages", json={"content": "x"}) as response:
                assert response.status == 200, "another channel has its own bucket"
    finally:
        await fake.close()
    assert [status for status, _, _ in answers] == [200] * CHANNEL_LIMIT + [429]
    assert answers[-2][1]["X-RateLimit-Remaining"] == "0"
    _, headers, body = answers[-1]
    assert body["global"] is False and 0 < body["retry_after"] <= CHANNEL_PERIOD
    assert headers["X-RateLimit-Bucket"] == "messages-create" and float(headers["X-RateLimit-Reset-After"]) > 0
    assert [(method, path) for method, path, _ in fake.limited] == [("POST", f"/channels/{channel}/messages")]


async def test_an_interaction_acknowledged_after_three_seconds_is_answered_404_unknown_interaction() -> None:
    """Discord refuses the first callback of an interaction more than three seconds old, by the fake's clock; one
    acknowledged in time may be followed up later."""
    fake = FakeDiscord()
    now = [1000.0]
    fake.clock = lambda: now[0]
    await fake.start()
    member = fake.add_member("Ann")
    late, prompt = (Interaction(number, f"token{number}", member, fake.channels[0], 2, sent_at=now[0])
                    for number in (1, 2))
    fake.interactions.update({late.token: late, prompt.token: prompt})
    deferred = {"type": 5, "data": {"flags": 64}}
    try:
        async with aiohttp.ClientSession() as session:

            async def callback(interaction: Interaction) -> tuple[int, dict[str, Any]]:
                url = f"{fake.rest_base}/interactions/{interaction.id}/{interaction.token}/callback"
                async with session.post(url, json=deferred) as response:
                    return response.status, await response.json()

            now[0] += ACK_SECONDS
            in_time = await callback(prompt)
            now[0] += 0.001
            refused = await callback(late)
            async with session.post(f"{fake.rest_base}/webhooks/1/{prompt.token}", json={"content": "later"}) as reply:
                followed = reply.status
    finally:
        await fake.close()
    assert in_time[0] == 200 and prompt.acked_after == ACK_SECONDS
    assert refused == (404, {"message": "Unknown interaction", "code": 10062})
    assert not late.acked.is_set() and late.callbacks == []
    assert followed == 200 and prompt.ephemeral_text() == "later"


def _button(*, custom_id: str = "b", label: str = "Deal") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


@pytest.mark.parametrize(("body", "field"), [
    ({"content": "x" * (CONTENT_LIMIT + 1)}, "content"),
    ({"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions"),
    ({"content": "x", "components": [_row(_button(custom_id="c" * (CUSTOM_ID_LIMIT + 1)))]}, "custom_id"),
    ({"content": "x", "components": [_row(_button(label="l" * (LABEL_LIMIT + 1)))]}, "label"),
    ({"content": "x", "components": [_row(*[_button(custom_id=str(n)) for n in range(6)])]}, "components"),
    ({"content": "x", "components": [_row(_button(custom_id=str(n))) for n in range(6)]}, "components"),
])
async def test_a_message_discord_refuses_is_answered_400_invalid_form_body(body: dict[str, Any], field: str) -> None:
    fake = FakeDiscord()
    await fake.start()
    channel = fake.channels[0]
    widest = [_row(*[_button(custom_id=f"{row}{n}".ljust(CUSTOM_ID_LIMIT, "c"), label="l" * LABEL_LIMIT)
                     for n in range(ROW_LIMIT)]) for row in range(ROWS_LIMIT)]
    try:
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{fake.rest_base}/channels/{channel}/messages", json=body) as response:
                refused = (response.status, await response.json())
            async with session.post(f"{fake.rest_base}/channels/{channel}/messages",
                                    json={"content": "x" * CONTENT_LIMIT, "components": widest}) as response:
                assert response.status == 200, "2,000 characters are allowed, and components at every limit"
    finally:
        await fake.close()
    assert refused[0] == 400 and refused[1]["code"] == 50035 and list(refused[1]["errors"]) == [field]
    assert [message["content"] for message in fake.channel_messages(channel)] == ["x" * CONTENT_LIMIT]


async def test_the_bots_requests_over_fifty_a_second_on_any_routes_are_answered_429_global() -> None:
    """Each channel's own bucket has room, but the bot's 51st request in a second is refused: the global limit. The
    fake's clock stands still while they are sent (however slowly the machine sends them), then moves on a second:
    the next request is taken again."""
    channels = tuple(930_000_000_000_000_000 + number for number in range(GLOBAL_LIMIT // CHANNEL_LIMIT + 2))
    fake = FakeDiscord(channels)
    now = [1000.0]
    fake.clock = lambda: now[0]
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:

            async def post(number: int) -> tuple[int, dict[str, str], dict[str, Any]]:
                channel = channels[number // CHANNEL_LIMIT]
                async with session.post(f"{fake.rest_base}/channels/{channel}/messages",
                                        json={"content": str(number)}) as response:
                    return response.status, dict(response.headers), await response.json()

            answers = [await post(number) for number in range(GLOBAL_LIMIT + 1)]
            now[0] += 0.999
            still = await post(GLOBAL_LIMIT + 1)
            now[0] += 0.001
            again = await post(GLOBAL_LIMIT + 2)
    finally:
        await fake.close()
    assert [status for status, _, _ in answers] == [200] * GLOBAL_LIMIT + [429]
    _, headers, body = answers[-1]
    assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert (still[0], still[2]["global"]) == (429, True), "within the same second: still refused"
    assert again[0] == 200, "a second after the first: taken"


def _command(**option: Any) -> list[dict[str, Any]]:
    """A command list of one command with one string option, changed by `option`."""
    return [{"name": "pre", "description": "choose", "type": 1,
             "options": [{"type": 3, "name": "choice", "description": "what", **option}]}]


def test_names_are_held_to_discords_rule_in_every_script() -> None:
    assert all(is_name(name) for name in ("олл-ин", "следующий-уровень", "сумма_2", "ঘর", "นับ", "गिनती", "x" * 32))
    assert not any(is_name(name) for name in ("", "x" * 33, "Ход", "два слова", "ход!", "«ход»", "ход."))


@pytest.mark.parametrize(("option", "why"), [
    ({"name_localizations": {"ru": "Ход"}}, "invalid name 'Ход' (ru)"),
    ({"name_localizations": {"ru": "мой ход"}}, "invalid name 'мой ход' (ru)"),
    ({"name_localizations": {"russian": "ход"}}, "unknown locale 'russian'"),
    ({"description_localizations": {"ru": "д" * 101}}, "invalid description"),
    ({"choices": [{"name": "x" * 101, "value": "x"}]}, "invalid choice name"),
    ({"choices": [{"name": "чек", "value": "x" * 101}]}, "invalid choice value"),
    ({"choices": [{"name": "check", "value": "check", "name_localizations": {"ru": ""}}]}, "invalid name '' (ru)"),
    ({"choices": [{"name": str(n), "value": str(n)} for n in range(26)]}, "26 choices"),
])
def test_the_sync_is_refused_as_discord_refuses_it(option: dict[str, Any], why: str) -> None:
    problem = invalid_commands(_command(**option))
    assert problem is not None and why in problem


def test_two_options_of_one_name_in_a_language_are_refused() -> None:
    commands = _command(name_localizations={"ru": "фишки"})
    commands[0]["options"].append({"type": 4, "name": "chips", "description": "how many",
                                   "name_localizations": {"ru": "фишки"}})
    assert "duplicate ru names" in (invalid_commands(commands) or "")
    commands[0]["options"][1]["name_localizations"] = {"ru": "ставка"}
    assert invalid_commands(commands) is None


def test_a_sync_keeps_the_id_of_each_command_registered_again_in_its_scope() -> None:
    """Discord's bulk overwrite updates a command of the same name and type (its id kept: the mentions texts wrote
    stay good), creates the new ones and drops the rest; global commands and a guild's are apart. Its answer is
    what discord.py reads as `AppCommand`s: ids, the application's, the guild's."""
    fake = FakeDiscord()
    fold, call = ({"name": name, "description": name, "type": 1} for name in ("fold", "call"))
    first = fake._sync(1, [*_command(), fold])
    again = fake._sync(1, [*_command(description="changed"), call])
    elsewhere = fake._sync(None, _command())
    assert not isinstance(first, str) and not isinstance(again, str) and not isinstance(elsewhere, str)
    assert again[0]["id"] == first[0]["id"] and again[0]["options"][0]["description"] == "changed"
    assert len({first[0]["id"], first[1]["id"], again[1]["id"], elsewhere[0]["id"]}) == 4
    parsed = [AppCommand(data=entry, state=None) for entry in again]  # type: ignore[arg-type]
    assert [(command.id, command.guild_id, command.mention) for command in parsed] == [
        (int(first[0]["id"]), 1, f"</pre:{first[0]['id']}>"), (int(again[1]["id"]), 1, f"</call:{again[1]['id']}>")]
    assert fake._sync(1, [*_command(), fold])[1]["id"] not in (first[1]["id"], again[1]["id"])  # fold was dropped
