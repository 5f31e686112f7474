"""Everything `python3 manage.py test` changes outside this folder, and why; nothing else does.

The rest of manage.py only writes .venv/ and the compiled translations. This module is the part that
touches the machine: it installs Debian packages (as root with apt-get; otherwise it prints what to
install), starts the local PostgreSQL cluster when the test database does not answer, and starts a
throwaway Redis on a free port when none answers at the test address (stopped when the tests end).
It runs on the system's python3, before and outside .venv, so it uses the standard library only.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

# What the test suite needs from the system, each with the Debian package that brings it: a command
# on the PATH, or a file (an absolute path). Installed only when missing.
TEST_SYSTEM_PACKAGES = {
    # tests/test_pdf.py and test_access.py read the text of the printed score sheets with pdftotext.
    "pdftotext": "poppler-utils",
    # tests/test_club_table_cards.py reads the QR code printed on each table card back with zbarimg.
    "zbarimg": "zbar-tools",
    # tests/browser/ drive Debian's Chromium through Playwright (never `playwright install`).
    "chromium": "chromium",
    # The browser tests' screenshots show the symbols the pages use (♠ ♥ ♦ ♣ ★ ☾ 🥚), not empty boxes;
    # where it is installed, the PDF sheets print emoji with it (tests/test_sheet_scripts.py).
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf": "fonts-noto-color-emoji",
    # The PDF sheets bring their own fonts for every script (static/fonts; tests/test_sheet_fonts.py prints
    # them on a machine without any); tests/test_sheet_scripts.py checks that a machine with fonts of its
    # own for Arabic, Hebrew, Devanagari, Thai... (12 MB to download) and for Chinese, Japanese and Korean
    # (1.6 MB) still prints them with the app's.
    "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf": "fonts-noto-core",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc": "fonts-wqy-microhei",
    # tests/test_rate_limits.py shares the rate limits of two servers through a real Redis.
    "redis-server": "redis-server",
}
# The PostgreSQL clusters Debian's postgresql package sets up, one folder per version.
POSTGRES_CLUSTERS = Path("/etc/postgresql")


def say(message: str) -> None:
    print(f"[scorekeeper] {message}", flush=True)


def present(need: str) -> bool:
    """Whether a command is on the PATH, or a file (an absolute path) exists."""
    return Path(need).exists() if os.path.isabs(need) else shutil.which(need) is not None


def ensure_test_packages(packages: dict[str, str] = TEST_SYSTEM_PACKAGES) -> None:
    """Install the missing Debian packages when running as root with apt-get; otherwise name them."""
    missing = sorted({package for need, package in packages.items() if not present(need)})
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        say(f"please install these system packages: {' '.join(missing)}")
        return
    say(f"installing system packages: {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)


def ensure_postgres(answers: Callable[[], bool]) -> bool:
    """Whether the test PostgreSQL answers; if it does not, start the local clusters once and ask again.

    The second test run needs a PostgreSQL server; Debian's cluster may be installed but not running
    (a container has no service manager to start it), so it is started here, and only then.
    """
    if answers():
        return True
    if shutil.which("pg_ctlcluster") is None or not POSTGRES_CLUSTERS.is_dir():
        return False
    for version in sorted(folder.name for folder in POSTGRES_CLUSTERS.iterdir()):
        say(f"starting the local PostgreSQL {version} cluster")
        subprocess.call(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"])
    return answers()


def redis_answers(url: str, timeout: float = 1.0) -> bool:
    """Whether a Redis answers PING at redis://host:port/... (spoken over a plain socket: no client library here)."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis() -> tuple[str, subprocess.Popen] | None:
    """Start a Redis of our own on a free loopback port, keeping nothing on disk; None without redis-server.

    The caller stops it (terminate) when done. It answers within a second or two of starting.
    """
    if shutil.which("redis-server") is None:
        return None
    port = free_port()
    folder = tempfile.mkdtemp(prefix="scorekeeper-redis-")
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", folder, "--daemonize", "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        if redis_answers(url):
            return url, process
        time.sleep(0.05)
    process.kill()
    process.wait()
    return None


def ensure_redis(url: str) -> tuple[str | None, subprocess.Popen | None]:
    """A Redis for the rate-limit tests: the one at url if it answers, else one started here (and its process).

    Each test keeps its counts under a key prefix of its own, so a Redis that others use is safe to share.
    """
    if redis_answers(url):
        return url, None
    started = start_redis()
    if started is None:
        return None, None
    say(f"started a Redis for the tests at {started[0]}")
    return started
