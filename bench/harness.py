"""What every benchmark needs: a throwaway instance, gunicorn on 127.0.0.1, a load generator.

Everything started here is stopped again when the `with` block ends, also on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PYTHON = sys.executable
WRK = shutil.which("wrk")
# The local PostgreSQL the test suite uses; the benchmarks make and drop their own database there.
POSTGRES_SERVER = os.environ.get("SCOREKEEPER_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
POSTGRES_DATABASE = "scorekeeper_bench"
HELLO_APP = "hello:app"  # bench/hello.py, served with --pythonpath bench
REAL_APP = "scorekeeper.app:create_app()"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- databases ---------------------------------------------------------------------------------


@contextlib.contextmanager
def instance(kind: str = "sqlite", name: str = POSTGRES_DATABASE) -> Iterator[dict[str, str]]:
    """A throwaway instance folder and an empty, migrated database; yields the SCOREKEEPER_* settings.

    kind is "sqlite" (a file in the folder) or "postgres" (the database name, made afresh and dropped afterwards).
    The settings also go into os.environ, so that create_app() here and gunicorn there agree.
    """
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    url = f"sqlite:///{folder / 'scorekeeper.sqlite'}"
    if kind == "postgres":
        url = postgres_recreate(name)
    settings = {
        "SCOREKEEPER_INSTANCE_PATH": str(folder),
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "bench-secret-key",
        "SCOREKEEPER_MIGRATE_ON_START": "false",
    }
    saved = {variable: os.environ.get(variable) for variable in settings}
    os.environ.update(settings)
    try:
        migrate(folder)
        yield settings
    finally:
        for variable, value in saved.items():
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value
        if kind == "postgres":
            postgres_drop(name)
        shutil.rmtree(folder, ignore_errors=True)


def local_app(**settings: object):
    """The app in this process on the instance's database (inside `instance`), with these settings over it.

    create_app() reads the SCOREKEEPER_* variables only when given no settings of its own, so the
    instance's database is named here: without it, settings such as RATELIMIT_ENABLED would leave the
    app on the instance folder's SQLite file while the served app runs on PostgreSQL."""
    from scorekeeper.app import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": os.environ["SCOREKEEPER_DATABASE_URL"],
                       "SECRET_KEY": os.environ["SCOREKEEPER_SECRET_KEY"], "MIGRATE_ON_START": False, **settings})


def migrate(folder: Path) -> None:
    """Bring the schema up to date the way `manage.py serve` does: once, before any worker starts."""
    command = [PYTHON, "-m", "flask", "--app", "scorekeeper.app:create_app", "db", "upgrade"]
    with open(folder / "migrate.log", "w") as log:
        subprocess.run(command, cwd=ROOT, check=True, stdout=log, stderr=subprocess.STDOUT)


def _postgres_admin():
    import psycopg

    dsn = POSTGRES_SERVER.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    return psycopg.connect(dsn, autocommit=True)


def postgres_recreate(name: str) -> str:
    """An empty benchmark database on the local PostgreSQL (never the test suite's database)."""
    if not re.fullmatch(r"scorekeeper_bench\w*", name):
        raise ValueError(f"benchmark databases are called scorekeeper_bench...: {name}")
    with _postgres_admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return f"{POSTGRES_SERVER}/{name}"


def postgres_drop(name: str) -> None:
    if not re.fullmatch(r"scorekeeper_bench\w*", name):
        return
    with contextlib.suppress(Exception), _postgres_admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def postgres_available() -> bool:
    try:
        with _postgres_admin():
            return True
    except Exception:  # noqa: BLE001 - any failure means: no PostgreSQL here
        return False


def postgres_version() -> str:
    try:
        with _postgres_admin() as conn:
            return conn.execute("SHOW server_version").fetchone()[0]
    except Exception:  # noqa: BLE001
        return "not available"


# -- servers -----------------------------------------------------------------------------------


@dataclass
class Server:
    """A gunicorn started with the project's gunicorn.conf.py; only bind, workers and threads vary."""

    app: str
    workers: int
    threads: int
    log: Path
    settings: dict[str, str] | None = None  # SCOREKEEPER_* for this server; default: os.environ's
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, ready_path: str = "/") -> Server:
        env = {
            **os.environ,
            **(self.settings or {}),
            "SCOREKEEPER_BIND": f"127.0.0.1:{self.port}",
            "SCOREKEEPER_WORKERS": str(self.workers),
            "SCOREKEEPER_THREADS": str(self.threads),
        }
        env.pop("SCOREKEEPER_ACCESS_LOG", None)
        command = [PYTHON, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
                   "--pythonpath", str(BENCH), self.app]
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        self._wait_ready(ready_path)
        return self

    def _wait_ready(self, path: str, timeout: float = 60) -> None:
        """Wait until every worker answers (a few requests in a row succeed)."""
        deadline = time.monotonic() + timeout
        good = 0
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}; see {self.log}:\n"
                                   + self.log.read_text()[-2000:])
            try:
                with urllib.request.urlopen(self.base + path, timeout=5) as answer:
                    answer.read()
                good += 1
                if good >= 4 * self.workers:
                    return
            except OSError:
                good = 0
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer on {self.base} within {timeout} s; see {self.log}")

    def cpu_seconds(self) -> float:
        """CPU time used so far by the master and its workers (also workers that were recycled)."""
        if self.process is None:
            return 0.0
        return process_cpu(self.process.pid, children_done=True) + sum(
            process_cpu(pid) for pid in child_pids(self.process.pid))

    def stop(self) -> None:
        """Stop the master (it stops its workers); kill the whole group if it lingers."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


_TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, children_done: bool = False) -> float:
    """User and system CPU seconds of a process (plus its reaped children's, when asked) from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children_done:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / _TICK


def child_pids(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(n) for n in children.read().split()]
    except OSError:
        return []


@contextlib.contextmanager
def served(app: str, workers: int, threads: int, log: Path, ready_path: str = "/",
           settings: dict[str, str] | None = None) -> Iterator[Server]:
    server = Server(app, workers, threads, log, settings)
    try:
        yield server.start(ready_path)
    finally:
        server.stop()


# -- load ----------------------------------------------------------------------------------------


@dataclass
class Load:
    requests: int
    seconds: float
    errors: int  # non-2xx/3xx answers plus socket errors
    latency_ms: float  # mean
    tool: str
    counted: int | None = None  # what a script counted (e.g. hands recorded), when it counts
    server_cpu: float = 0.0  # CPU seconds the server's processes used meanwhile, when measured

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def per_cpu_second(self) -> float:
        """Requests per CPU-second of the server: the throughput of a machine given over to it."""
        return self.requests / self.server_cpu if self.server_cpu else 0.0


_DURATION = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}
_warned = False


def load(url: str, seconds: float, connections: int = 16, threads: int = 1, headers: dict[str, str] | None = None,
         script: Path | None = None, server: Server | None = None) -> Load:
    """Load url for a bounded time with wrk (or the small Python client below when wrk is missing).

    With server, also measure the CPU time its processes spent meanwhile.
    """
    began = server.cpu_seconds() if server else 0.0
    result = _load(url, seconds, connections, threads, headers, script)
    if server:
        result.server_cpu = server.cpu_seconds() - began
    return result


def _load(url: str, seconds: float, connections: int, threads: int, headers: dict[str, str] | None,
          script: Path | None) -> Load:
    global _warned
    if WRK is None:
        if not _warned:
            say("note: wrk is not installed (Debian: apt-get install wrk); using the slower Python load "
                "generator, so ratios are lower bounds")
            _warned = True
        if script is not None:
            raise RuntimeError("this benchmark needs wrk for its request script")
        return python_load(url, seconds, connections, headers or {})
    command = [WRK, f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    run = subprocess.run([*command, url], capture_output=True, text=True, timeout=seconds + 60)
    if run.returncode != 0:
        raise RuntimeError(f"wrk failed ({run.returncode}): {run.stderr or run.stdout}")
    out = run.stdout
    requests_seconds = re.search(r"(\d+) requests in ([\d.]+)(\w+),", out)
    if not requests_seconds:
        raise RuntimeError(f"could not read wrk's answer:\n{out}")
    elapsed = float(requests_seconds.group(2)) * _DURATION[requests_seconds.group(3)] / 1e3
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket_errors:
        errors += sum(int(n) for n in socket_errors.groups())
    mean = re.search(r"Latency\s+([\d.]+)(\w+)", out)
    counted = re.search(r"^counted (\d+)$", out, re.M)
    return Load(int(requests_seconds.group(1)), elapsed, errors,
                float(mean.group(1)) * _DURATION[mean.group(2)] if mean else 0.0, "wrk",
                int(counted.group(1)) if counted else None)


def python_load(url: str, seconds: float, connections: int, headers: dict[str, str]) -> Load:
    """A minimal keep-alive load generator: one thread per connection, GETs until the time is up."""
    host_port, _, path = url.removeprefix("http://").partition("/")
    host, _, port = host_port.partition(":")
    stop = time.monotonic() + seconds
    counts = [0, 0, 0.0]  # requests, errors, total latency
    lock = threading.Lock()

    def worker() -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        done = errors = 0
        waited = 0.0
        while time.monotonic() < stop:
            began = time.perf_counter()
            try:
                conn.request("GET", "/" + path, headers=headers)
                answer = conn.getresponse()
                answer.read()
                done += 1
                errors += answer.status >= 400
            except OSError:
                errors += 1
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
            waited += time.perf_counter() - began
        with lock:
            counts[0] += done
            counts[1] += errors
            counts[2] += waited

    began = time.monotonic()
    workers = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    elapsed = time.monotonic() - began
    return Load(counts[0], elapsed, counts[1], 1e3 * counts[2] / max(counts[0], 1), "python")


def call(port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None,
         timeout: float = 10.0) -> tuple[int, dict[str, str], bytes, float]:
    """One request on a new connection: status, headers, body and seconds taken (status 0: no answer)."""
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={
            **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read(), time.perf_counter() - began
    except OSError:
        return 0, {}, b"", time.perf_counter() - began
    finally:
        connection.close()


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def post_json(url: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


# -- the machine -----------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = "unknown"
    with contextlib.suppress(OSError), open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    wrk = "not installed (Python load generator)"
    if WRK:
        wrk = subprocess.run([WRK, "-v"], capture_output=True, text=True).stdout.split("\n")[0].strip() or "wrk"
    import gunicorn

    return {
        "cores (nproc)": str(os.cpu_count()),
        "CPU": cpu,
        "memory": memory,
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "SQLite": sqlite3.sqlite_version,
        "PostgreSQL": postgres_version(),
        "gunicorn": gunicorn.__version__,
        "load generator": wrk,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
    }


def database_options(parser: argparse.ArgumentParser) -> None:
    """The options every benchmark on either database takes: --database, --database-url, --json."""
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", help="a PostgreSQL server (postgresql+psycopg://user@host:port) to run on; "
                        "the benchmark makes its own database there and drops it afterwards")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")


def database_kind(args: argparse.Namespace) -> str:
    """The database the options chose ("sqlite" or "postgres"), the PostgreSQL server taken from --database-url."""
    global POSTGRES_SERVER
    if args.database_url:
        POSTGRES_SERVER = args.database_url.rstrip("/")
        return "postgres"
    return args.database


def ratio(value: float, base: float) -> float:
    return value / base if base else 0.0


def emit_figures(figures: list[dict], path: Path | None) -> None:
    """Print figures as JSON lines (run_all.py collects them) and optionally write them to path."""
    for figure in figures:
        say("FIGURE " + json.dumps(figure))
    if path is not None:
        path.write_text(json.dumps(figures, indent=2))
