"""Gunicorn settings for `python3 manage.py serve` (gunicorn reads this file from the project folder).

Every value can be set from the environment; the defaults suit a small two-core box.
State lives only in the database, so several workers (and several machines) serve one club.
"""

import multiprocessing
import os

bind = os.environ.get("SCOREKEEPER_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("SCOREKEEPER_WORKERS", multiprocessing.cpu_count() * 2))
# One thread per worker: on the benchmark machine (bench/RESULTS.md) more threads never raised the
# throughput of pages, polls or writes, on SQLite or PostgreSQL, and cost 5-10 % of the CPU per
# request (they contend for the GIL). Raise it where requests wait long on a remote database.
threads = int(os.environ.get("SCOREKEEPER_THREADS", 1))
worker_class = "gthread"
timeout = 30
graceful_timeout = 10
keepalive = 5
max_requests = 5000  # recycle workers now and then; PDF rendering grows memory a little
max_requests_jitter = 500
accesslog = os.environ.get("SCOREKEEPER_ACCESS_LOG") or None
errorlog = "-"
# gunicorn 25+ opens a control socket for gunicornc at one path per user ($HOME/.gunicorn), which
# two servers on one machine (a second instance, a benchmark) would take from each other.
control_socket_disable = True
wsgi_app = "scorekeeper.app:create_app()"

# Import the app's code once, in the master: a worker forked from it (at start, or when one is
# recycled after max_requests) skips about two CPU-seconds of imports (WeasyPrint, SQLAlchemy).
# Each worker still creates its own app and database connections after the fork. As with
# preload_app, new code needs a restart rather than a HUP.
import scorekeeper.app  # noqa: E402,F401
