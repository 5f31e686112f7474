"""A PostgreSQL server of a test's own: a cluster made with initdb in a folder of its own, on a free port.

For what the shared test database must never be put through while other tests use it: stopped,
restarted (``pg_ctl restart``), its disk filled. The binaries are PostgreSQL's own (initdb, pg_ctl),
found on PATH or under /usr/lib/postgresql/<version>/bin; without them the tests that need a cluster
skip, saying so. initdb refuses to run as root, so when the tests run as root (as the test command
does, to install its browser and databases) the cluster belongs to the postgres user.

These tests run once, in the SQLite run: the cluster is theirs whichever database the run is on, so a
second run on PostgreSQL would repeat them for nothing. They still ask for `database` (the SQLite run
watches for tests that connect without asking, helpers/passes.py), and skip in the PostgreSQL run.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.full_disk import FullDisk
from helpers.servers import free_port

OWNER = "postgres"  # who runs the cluster when the tests run as root
DATABASE = "scorekeeper"
# Small and quick: WAL segments of 1 MB (initdb --wal-segsize) so that a small disk holds the cluster, no
# fsync (nothing here outlives the test), the app's connections and a few of the test's own.
SETTINGS = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{folder}'
max_connections = 40
shared_buffers = 16MB
max_wal_size = 8MB
min_wal_size = 2MB
fsync = off
synchronous_commit = off
full_page_writes = off
"""


def bin_folder() -> Path | None:
    """The folder of PostgreSQL's server binaries: initdb's on PATH, else the newest /usr/lib/postgresql/*/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    folders = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parts[-3])
                     if path.parts[-3].isdigit() else 0)
    return folders[-1].parent if folders else None


def run_as() -> dict[str, Any]:
    """subprocess options that run a binary as the cluster's owner: postgres when the tests run as root."""
    if os.geteuid() != 0:
        return {}
    owner = pwd.getpwnam(OWNER)
    return {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}


class PrivatePostgres:
    """One cluster in a folder of its own (on a small disk of its own when disk_megabytes is given)."""

    def __init__(self, binaries: Path, disk_megabytes: int | None = None):
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))  # short: it holds the socket
        self.disk = FullDisk(self.folder, disk_megabytes) if disk_megabytes else None
        self.data, self.log = self.folder / "data", self.folder / "server.log"
        self.port = free_port()
        self.started = False
        self.owned = run_as()
        if self.owned:
            os.chown(self.folder, self.owned["user"], self.owned["group"])

    def make(self) -> None:
        """The cluster: initdb, then the settings above."""
        self.command("initdb", "--auth=trust", "--username=postgres", "--encoding=UTF8", "--locale=C",
                     "--wal-segsize=1", "--no-sync", "-D", str(self.data))
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(SETTINGS.format(port=self.port, folder=self.folder))

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def command(self, name: str, *args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([str(self.binaries / name), *args], capture_output=True, text=True, check=False,
                              cwd=self.folder, **self.owned)
        if done.returncode != 0:
            raise RuntimeError(f"{name} {' '.join(args)} failed: {done.stdout}{done.stderr}{self.server_log()}")
        return done

    def server_log(self) -> str:
        try:
            return self.log.read_text()[-3000:]
        except OSError:
            return ""

    def pg_ctl(self, *args: str) -> None:
        self.command("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", *args)

    def start(self) -> None:
        self.pg_ctl("start")
        self.started = True

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "fast")
        self.started = False

    def restart(self) -> None:
        """What an operator's restart does: a fast shutdown (every connection dropped), then a start."""
        self.pg_ctl("restart", "-m", "fast")
        self.started = True

    def create_database(self) -> str:
        """The app's database, empty; returns its URL."""
        self.command("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", "postgres",
                     "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {DATABASE}")
        return self.url

    def close(self) -> None:
        if self.started or (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self.pg_ctl("stop", "-m", "immediate")
        if self.disk is not None:
            self.disk.free()
            self.disk.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def private_postgres(database: str, disk_megabytes: int | None = None) -> Iterator[PrivatePostgres]:
    """A started cluster with the app's database created in it, stopped and removed after; skips where none can be.

    database is the run's (the `database` fixture): in the PostgreSQL run the test skips, having run in the SQLite one.
    """
    if database != "sqlite":
        pytest.skip("runs once, in the SQLite run: it starts a PostgreSQL of its own")
    binaries = bin_folder()
    if binaries is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(OWNER)
        except KeyError:
            pytest.skip(f"running as root, a cluster needs the {OWNER} user to own it, and there is none")
    server = PrivatePostgres(binaries, disk_megabytes)
    try:
        if server.disk is not None and not server.disk.mounted:
            pytest.skip(f"this machine lets no test mount a small disk: {server.disk.why}")
        server.make()
        server.start()
        server.create_database()
        yield server
    finally:
        server.close()
