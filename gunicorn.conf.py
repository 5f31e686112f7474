"""Gunicorn settings for `python3 manage.py serve` (gunicorn reads this file from the project folder).

Every value can be set from the environment; the defaults suit a small two-core box.
State lives only in the database, so several workers (and several machines) serve one club.
"""

import multiprocessing
import os

bind = os.environ.get("SCOREKEEPER_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("SCOREKEEPER_WORKERS", multiprocessing.cpu_count() * 2))
# gevent: each connection is a greenlet, so a phone on a poor line that sends its request a byte at a
# time waits on its socket without holding a worker; the other phones are answered meanwhile (README,
# "Slow phones"; tests/test_slow_clients.py, bench/slow_clients.py). A worker still runs one request's
# Python at a time, as the single thread of the former gthread worker did.
# SCOREKEEPER_WORKER_CLASS=gthread brings the threaded worker back (then SCOREKEEPER_THREADS applies:
# more threads never raised the throughput on the benchmark machine, bench/RESULTS.md).
worker_class = os.environ.get("SCOREKEEPER_WORKER_CLASS", "gevent")
threads = int(os.environ.get("SCOREKEEPER_THREADS", 1))
worker_connections = 1000  # open connections per gevent worker, slow ones included
timeout = 30
graceful_timeout = 10
keepalive = 5
max_requests = int(os.environ.get("SCOREKEEPER_MAX_REQUESTS", 20000))  # recycle workers now and then (0: never);
# PDF rendering grows memory a little. The first workers' lifetimes are spread (post_fork), so no jitter.
max_requests_jitter = 0
accesslog = os.environ.get("SCOREKEEPER_ACCESS_LOG") or None
errorlog = "-"
# Edit and admin links, Bearer headers and the session cookie carry keys: this logger takes them out of
# every access log atom (whatever access_log_format a deployer sets) and of every error log line
# (README, "What the logs hold"; tests/test_logs.py).
logger_class = "scorekeeper.logs.Logger"
# gunicorn 25+ opens a control socket for gunicornc at one path per user ($HOME/.gunicorn), which
# two servers on one machine (a second instance, a benchmark) would take from each other.
control_socket_disable = True
wsgi_app = "scorekeeper.app:create_app()"
# Forwarded headers (X-Forwarded-Proto, and the SCRIPT_NAME or PATH_INFO a proxy may set) are believed only
# from the proxies the app is told of. With SCOREKEEPER_PROXIES at 0, the default, from nobody, loopback
# included: a phone on the same machine cannot claim https, and a SCRIPT_NAME header is dropped instead of
# failing the request. With proxies in front, from gunicorn's FORWARDED_ALLOW_IPS (loopback by default).
forwarded_allow_ips = (os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
                       if int(os.environ.get("SCOREKEEPER_PROXIES") or 0) else "")

# With the threaded worker, import the app's code once, in the master: a worker forked from it (at
# start, or when one is recycled after max_requests) skips about two CPU-seconds of imports
# (WeasyPrint, SQLAlchemy). Each worker still creates its own app and database connections after the
# fork. As with preload_app, new code needs a restart rather than a HUP.
# Not with gevent: it must patch the standard library (sockets, locks) before the app's modules are
# imported, which each worker does as it starts; locks made before the patch would block the whole worker.
if worker_class != "gevent":
    import scorekeeper.app  # noqa: E402,F401

limit_request_line = 8190  # gunicorn's most, not its 4094: the app's longest link is 5,330 bytes (README, "Request size limits")
limit_request_fields = 100  # gunicorn's default; more header fields: gunicorn's own plain 431
limit_request_field_size = 8190  # gunicorn's default; a longer header field: gunicorn's own plain 431


def post_fork(server, worker):
    """Spread the workers' restarts: the first ones recycle after 1 + 1/N, 1 + 2/N ... times max_requests
    (scorekeeper/serving.py); and a worker still booting is killed outright with its master, so that a
    master started again at once finds its port free."""
    import signal

    from scorekeeper.serving import end_with_parent, lifetime

    if getattr(server, "pid", None):
        end_with_parent(server.pid, signal.SIGKILL)
    worker.max_requests = lifetime(worker.age, server.num_workers, max_requests) or worker.max_requests


def post_worker_init(worker):
    """A new worker compiles the templates and reads the latest clubs' figures before its first request;
    ready, it ends gracefully with its master (SIGTERM: the requests it holds are finished)."""
    from scorekeeper.serving import end_with_parent, warm

    warmed = warm(worker.wsgi)
    end_with_parent(worker.ppid)
    worker.log.info("worker %s warm: %s templates, %s clubs; recycled after %s requests", worker.pid,
                    warmed["templates"], warmed["clubs"], worker.max_requests)
