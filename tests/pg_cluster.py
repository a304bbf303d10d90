"""A throwaway PostgreSQL cluster on a unix socket in a folder: `python -m tests.pg_cluster start DIR` prints its URL,
`python -m tests.pg_cluster stop DIR` stops it (and removes DIR). Used by `.ci/run`, the tests' fixture and by hand.

`initdb` refuses to run as root, so as root the cluster is made and run by the `postgres` user (Debian's package
creates it). The superuser is always `postgres`, with trust authentication on the socket only (no TCP port).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

DATABASE = "pokerbot"


def bin_dir() -> Path | None:
    """The folder of `initdb` and `pg_ctl` (on PATH, else Debian's newest /usr/lib/postgresql/N/bin), None if none."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))
    return Path(folders[-1]) if folders else None


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def url(folder: Path) -> str:
    """The connection URL of the cluster in `folder`."""
    return f"postgresql://postgres@/{DATABASE}?host={folder / 'socket'}"


def start(folder: Path, *, fsync: bool = False) -> str:
    """Create and start a cluster in `folder` (made if missing), create the database, return its URL. `fsync` off
    (tests) loses nothing unless the machine itself crashes; a benchmark of the real thing turns it on."""
    binaries = bin_dir()
    if binaries is None:
        raise RuntimeError("no initdb found (install Debian's postgresql package)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "socket").mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(folder / "socket", "postgres", "postgres")
    data = folder / "data"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run(_as_owner([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                              "--no-sync", "-E", "UTF8"]), check=True, **quiet)  # type: ignore[call-overload]
    options = (f"-k {folder / 'socket'} -c listen_addresses='' -c max_connections=200 "
               f"-c fsync={'on' if fsync else 'off'} -c synchronous_commit={'on' if fsync else 'off'} "
               "-c full_page_writes=off -c shared_buffers=128MB")
    subprocess.run(_as_owner([str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                              "-o", options, "start"]), check=True, **quiet)  # type: ignore[call-overload]
    for _ in range(50):
        created = subprocess.run([str(binaries / "createdb"), "-h", str(folder / "socket"), "-U", "postgres",
                                  DATABASE], capture_output=True)
        if created.returncode == 0:
            return url(folder)
        time.sleep(0.1)
    raise RuntimeError(f"could not create the database: {created.stderr.decode()}")


def restart(folder: Path) -> None:
    """Restart the cluster in `folder` (its open sessions are cut, as by a server's restart), with the same options."""
    binaries = bin_dir()
    assert binaries is not None
    subprocess.run(_as_owner([str(binaries / "pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "-w", "restart"]),
                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, check=True)


def stop(folder: Path) -> None:
    """Stop the cluster in `folder` at once (open sessions are cut) and remove the folder."""
    binaries = bin_dir()
    data = folder / "data"
    if binaries is not None and (data / "postmaster.pid").exists():
        subprocess.run(_as_owner([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, check=False)
    shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    """`start DIR [--fsync]` prints the URL; `stop DIR`."""
    if len(argv) < 2 or argv[0] not in {"start", "stop"}:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    folder = Path(argv[1]).resolve()
    if argv[0] == "start":
        print(start(folder, fsync="--fsync" in argv))
    else:
        stop(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
