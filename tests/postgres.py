"""PostgreSQL for the tests: the server `.ci/run` started (`POKERBOT_TEST_POSTGRES`), else a throwaway one started
here for the session (`tests.pg_cluster`), else the PostgreSQL tests are skipped with the reason."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests import pg_cluster

ENVIRONMENT = "POKERBOT_TEST_POSTGRES"
"""The URL of a running server the tests may create schemas in (`.ci/run` exports it)."""


def server() -> Iterator[str]:
    """Yield a server's URL for the session (stopping one started here at the end), or skip."""
    url = os.environ.get(ENVIRONMENT)
    if url:
        yield url
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("PostgreSQL tests skipped: psycopg is not installed (pip install -e '.[postgres]')")
    if pg_cluster.bin_dir() is None:
        pytest.skip("PostgreSQL tests skipped: no initdb (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="pokerbot-pg-"))  # short: a unix socket's path has at most 107 bytes
    try:
        url = pg_cluster.start(folder)
    except Exception as error:
        pg_cluster.stop(folder)
        pytest.skip(f"PostgreSQL tests skipped: no server could be started ({error})")
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


def fresh_schema(url: str) -> str:
    """A URL whose connections work in a new, empty schema (a database of their own, for one test)."""
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"
