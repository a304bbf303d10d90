"""Settings come from the environment and `.env`, real environment variables first."""

import re
import sys
from pathlib import Path

import pytest

from bot.config import Settings, load_settings, webhook_secret_from

NAMES = ("POKERBOT_DB", "POKERBOT_STARTING_GRANT", "DISCORD_TOKEN", "DISCORD_GUILD_ID", "TELEGRAM_TOKEN",
         "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_WEBHOOK_PORT")


def unset(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Remove the variables from the environment, recorded by monkeypatch, so that what load_dotenv sets from a `.env`
    is removed again after the test."""
    for name in names:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path, monkeypatch) -> None:
    unset(monkeypatch, *NAMES)
    env = tmp_path / ".env"
    env.write_text("POKERBOT_DB=cards.db\nTELEGRAM_TOKEN=123:abc\nDISCORD_GUILD_ID=42\nPOKERBOT_STARTING_GRANT=500\n")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "s3cret")
    monkeypatch.setenv("POKERBOT_STARTING_GRANT", "700")
    settings = load_settings(env)
    assert settings.database == Path("cards.db")
    assert settings.telegram_token == "123:abc"
    assert settings.discord_guild == 42
    assert settings.discord_token is None
    assert settings.telegram_webhook_secret == "s3cret"
    assert settings.starting_grant == 700


def test_the_log_redacts_the_tokens_and_the_webhook_secret_even_when_derived() -> None:
    derived = webhook_secret_from("123:abc")
    assert Settings(telegram_token="123:abc").secrets() == ("123:abc", derived)  # python-telegram-bot logs it
    assert set(Settings(discord_token="d", telegram_token="123:abc", telegram_webhook_secret="s3cret").secrets()) == {
        "d", "123:abc", "s3cret", derived}
    assert Settings().secrets() == ()


def test_every_setting_read_is_documented_in_the_example() -> None:
    root = Path(__file__).resolve().parents[2]
    source = (root / "bot/config.py").read_text(encoding="utf-8")
    example = (root / ".env.example").read_text(encoding="utf-8")
    for name in re.findall(r'get\("([A-Z_]+)"\)', source):
        assert f"\n{name}=" in example, f"{name} is not in .env.example"


def test_the_clock_pages_are_served_only_with_a_port(tmp_path: Path, monkeypatch) -> None:
    from bot.__main__ import clock_pages_url

    for name in ("POKERBOT_WEB_PORT", "POKERBOT_WEB_URL", "POKERBOT_WEB_HOST"):
        monkeypatch.delenv(name, raising=False)
    off = load_settings(None)
    assert off.web_port is None and clock_pages_url(off) is None
    monkeypatch.setenv("POKERBOT_WEB_PORT", "8080")
    guessed = load_settings(None)
    assert guessed.web_host == "0.0.0.0" and clock_pages_url(guessed).endswith(":8080")
    monkeypatch.setenv("POKERBOT_WEB_URL", "http://192.168.1.20:8080")
    assert clock_pages_url(load_settings(None)) == "http://192.168.1.20:8080"


def test_the_database_is_a_file_or_a_postgresql_url() -> None:
    from bot.config import database_location

    assert database_location("cards.db") == Path("cards.db")
    assert database_location("sqlite:///var/lib/cards.db") == Path("/var/lib/cards.db")
    assert database_location("postgresql://poker@db.internal/poker") == "postgresql://poker@db.internal/poker"


@pytest.mark.parametrize(("database", "shown"), [
    (Path("cards.db"), "cards.db"),
    ("postgresql://poker@db.internal/poker", "postgresql://poker@db.internal/poker"),
    ("postgresql://poker:s3cret@db.internal:5433/poker", "postgresql://poker:***@db.internal:5433/poker"),
    ("postgres://poker:p%40ss:w@rd@db.internal/poker", "postgres://poker:***@db.internal/poker"),
    ("postgresql://poker@/poker?host=/run/pg&password=s3cret&sslmode=off",
     "postgresql://poker@/poker?host=/run/pg&password=***&sslmode=off"),
])
def test_a_database_is_named_without_its_password(database: Path | str, shown: str) -> None:
    from bot.config import shown_database

    assert shown_database(database) == shown


def test_discord_shards_are_read_and_checked(monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0, 2")
    settings = load_settings(None)
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (4, (0, 2))
    monkeypatch.setenv("DISCORD_SHARD_IDS", "4")
    with pytest.raises(ValueError, match="DISCORD_SHARD_IDS must be distinct shard numbers from 0 to 3"):
        load_settings(None)
    monkeypatch.delenv("DISCORD_SHARD_IDS")
    monkeypatch.delenv("DISCORD_SHARD_COUNT")
    assert (load_settings(None).discord_shard_count, load_settings(None).discord_shard_ids) == (1, None)


POKERBOT_DB_REASON = "POKERBOT_DB must be a SQLite file (a path, or sqlite:///path) or a postgresql:// URL (got a {})"
WEB_URL_REASON = ("POKERBOT_WEB_URL must be the http:// or https:// address browsers reach the clock pages at, like "
                  "http://192.168.1.20:8080 (got {!r})")


@pytest.mark.parametrize(("name", "value", "reason"), [
    ("POKERBOT_STARTING_GRANT", "lots", "POKERBOT_STARTING_GRANT must be a whole number, at least 0 (got 'lots')"),
    ("POKERBOT_STARTING_GRANT", "-5", "POKERBOT_STARTING_GRANT must be a whole number, at least 0 (got -5)"),
    ("TELEGRAM_WEBHOOK_PORT", "https", "TELEGRAM_WEBHOOK_PORT must be a whole number from 1 to 65535 (got 'https')"),
    ("TELEGRAM_WEBHOOK_PORT", "-1", "TELEGRAM_WEBHOOK_PORT must be a whole number from 1 to 65535 (got -1)"),
    ("DISCORD_GUILD_ID", "my-server", "DISCORD_GUILD_ID must be a whole number, at least 1 (got 'my-server')"),
    ("DISCORD_SHARD_COUNT", "two", "DISCORD_SHARD_COUNT must be a whole number, at least 1 (got 'two')"),
    ("DISCORD_SHARD_IDS", "a,b", "DISCORD_SHARD_IDS must be distinct shard numbers from 0 to 0 (got a,b)"),
    ("DISCORD_SHARD_IDS", "7", "DISCORD_SHARD_IDS must be distinct shard numbers from 0 to 0 (got 7)"),
    ("POKERBOT_HISTORY_DAYS", "1.5", "POKERBOT_HISTORY_DAYS must be a whole number, at least 1 (got '1.5')"),
    ("POKERBOT_WEB_PORT", "80000", "POKERBOT_WEB_PORT must be a whole number from 1 to 65535 (got 80000)"),
    *(("POKERBOT_WEB_URL", value, WEB_URL_REASON.format(value))
      for value in ("notaurl", "192.168.1.20:8080", "ftp://tv.local", "http://", "http://tv.local:port",
                    "http://tv.local:80000", "http://[::1", "http://tv.local/?x=1", "http://tv.local/#top")),
    *(("POKERBOT_LOG_LEVEL", value, f"POKERBOT_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL "
                                    f"(got {value!r})") for value in ("verbose", "loud")),
    ("POKERBOT_DB", "mysql://db/poker", POKERBOT_DB_REASON.format("mysql:// URL")),
    ("POKERBOT_DB", "mysql://poker:s3cret@db.internal/poker", POKERBOT_DB_REASON.format("mysql:// URL")),
    ("POKERBOT_DB", "sqlite://cards.db", POKERBOT_DB_REASON.format("sqlite:// URL")),
    ("POKERBOT_DB", "postgresql://poker:s3cret@[db.internal/poker",
     "POKERBOT_DB is not a valid PostgreSQL URL: Invalid IPv6 URL"),
])
def test_a_bad_setting_stops_pokerbot_with_one_line_naming_it_and_where_it_was_set(
        tmp_path: Path, monkeypatch, capsys, name: str, value: str, reason: str) -> None:
    """Every number, the log level, the clock pages' address and the database: a value that is not one (once "invalid
    literal for int() with base 10: 'x'", naming no setting; an unknown log level a traceback) or out of range (a
    negative grant or port was taken) stops pokerbot with one line saying which setting and what it may be. Another
    database URL was taken for a file's path ('unable to open database file', its password shown), and a PostgreSQL
    URL that did not parse ended in two tracebacks quoting it, password and all.

    Every refused setting was also said to be "a setting in .env" when the process's environment had set it
    (systemd's Environment=, docker run -e): the line names where the value came from, .env or the environment."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    unset(monkeypatch, name)
    (tmp_path / ".env").write_text(f"{name}={value}\n")
    assert main([]) == 1
    assert capsys.readouterr().err == f"pokerbot stopped: a setting in .env is not valid: {reason}\n"
    monkeypatch.setenv(name, value)
    (tmp_path / ".env").write_text("")
    assert main([]) == 1
    assert capsys.readouterr().err == f"pokerbot stopped: a setting in the environment is not valid: {reason}\n"


@pytest.mark.parametrize("value", ["http://192.168.1.20:8080", "https://poker.example.org/tv/", "HTTP://tv.local",
                                   "http://[fe80::1]:8080"])
def test_a_clock_pages_address_is_taken_as_written(monkeypatch, value: str) -> None:
    monkeypatch.setenv("POKERBOT_WEB_URL", value)
    assert load_settings(None).web_url == value


def test_the_log_level_is_read_in_any_case(monkeypatch) -> None:
    monkeypatch.setenv("POKERBOT_LOG_LEVEL", "debug")
    assert load_settings(None).log_level == "DEBUG"


def test_a_postgresql_url_without_psycopg_says_what_to_install(tmp_path: Path, monkeypatch, capsys) -> None:
    """It said 'pokerbot stopped: ModuleNotFoundError: No module named 'psycopg''."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    monkeypatch.setenv("POKERBOT_DB", "postgresql://poker@db.internal/poker")
    assert main([]) == 1
    assert capsys.readouterr().err == ("pokerbot stopped: the database is a PostgreSQL URL, which needs psycopg: "
                                       "pip install -e '.[postgres]'\n")


def test_a_postgresql_password_is_never_shown(tmp_path: Path, monkeypatch, capsys) -> None:
    """libpq quotes a URL's part it cannot read, the password too: the password is one of the secrets every line
    the bot writes is redacted of, as written and decoded."""
    pytest.importorskip("psycopg")
    from bot.__main__ import main

    assert set(Settings(database="postgresql://poker:p%40ss@db/poker?password=other").secrets()) == {
        "p%40ss", "p@ss", "other"}
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("POKERBOT_DB", "postgresql://poker:s3%ZZcret@127.0.0.1:9/poker")
    assert main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pokerbot stopped: the database postgresql://poker:***@127.0.0.1:9/poker cannot be used: ")
    assert "s3" not in err and "<redacted>" in err


def test_a_clock_page_port_in_use_stops_pokerbot_with_one_line_naming_it(tmp_path: Path, monkeypatch, capsys) -> None:
    """It said 'pokerbot stopped: OSError: [Errno 98] error while attempting to bind on address ('127.0.0.1', …)',
    naming no setting (an unknown POKERBOT_WEB_HOST: 'gaierror: [Errno -2] Name or service not known')."""
    import socket

    from bot.__main__ import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("POKERBOT_WEB_PORT", str(port))
        monkeypatch.setenv("POKERBOT_WEB_HOST", "127.0.0.1")
        monkeypatch.setenv("POKERBOT_WEB_URL", f"http://127.0.0.1:{port}")
        assert main([]) == 1
    assert capsys.readouterr().err == (f"pokerbot stopped: the clock pages cannot be served on POKERBOT_WEB_HOST "
                                       f"127.0.0.1, POKERBOT_WEB_PORT {port}: Address already in use\n")
