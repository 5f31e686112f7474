"""What the production server's hooks call (gunicorn.conf.py): restarts spread out, and a new worker warm.

Workers are recycled after max_requests requests each, to give back what PDF rendering grows. Workers
that share the load evenly reach that number together: at a club night of 100 tables all four restarted
within seconds of each other about every 75 seconds, and each came back cold (templates to compile, the
club's figures to read again), so the CPU doubled and the poll's p95 went to 734 ms. Two things fix it:

- lifetime(): the workers started together get first lifetimes of 1 + 1/N, 1 + 2/N ... 2 times
  max_requests, every later one max_requests, so restarts come one at a time, max_requests / N requests apart
  (per worker) for as long as the load stays even;
- warm(): a new worker compiles the app's templates and reads the figures of the clubs that played
  since yesterday before it takes its first request; the others serve meanwhile.

And breathe(), between the parts of a long piece of work, so a worker never keeps its other phones
waiting for long.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from typing import Any

WARM_CLUBS = 8  # the clubs a new worker reads before it serves: those with the latest results


def lifetime(age: int, workers: int, max_requests: int, jitter: int = 0) -> int:
    """Requests a worker serves before it is recycled: 1 + 1/N, 1 + 2/N ... 2 times max_requests for the first
    workers, max_requests for every later one.

    age is gunicorn's count of the workers it started (1 for the first): the first `workers` of them
    started together, and their restarts are spread max_requests / N apart, none before 1 + 1/N times
    max_requests (a server just started does not restart at once); a worker started later replaces one
    and serves max_requests, keeping its place in the spread.

    >>> [lifetime(age, 4, 5000) for age in (1, 2, 3, 4, 5, 9)]
    [6250, 7500, 8750, 10000, 5000, 5000]
    >>> lifetime(3, 4, 0)  # max_requests 0: never recycled
    0
    """
    if max_requests <= 0:
        return 0
    share = max_requests * (workers + age) // workers if 0 < age <= workers else max_requests
    return max(1, share + jitter)


PR_SET_PDEATHSIG = 1  # Linux's prctl option: the signal a process gets when its parent ends


def end_with_parent(parent: int, how: int = signal.SIGTERM) -> bool:
    """Have this worker ended by the signal `how` when its master ends, however the master ended; True where it can.

    A master killed outright (SIGKILL, the OOM killer) leaves its workers running: one still importing the
    app holds the listening socket for seconds, and a master started again at once could not bind its port.
    Linux tells a process of its parent's end only if asked (prctl); asked, a worker that finds its master
    already gone meanwhile ends at once. Elsewhere gunicorn's own check (the parent's pid) is all there is.

    gunicorn.conf.py asks twice: SIGKILL while the worker boots (gunicorn's SIGTERM would only be noted, and
    the worker would go on loading the app and warming up with the port in hand; a booting worker has no
    request to finish), then SIGTERM once it is ready, which lets it finish the requests it holds.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, how, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the master ended before the request took: nobody would send the signal
        os.kill(os.getpid(), how)
    return True


def warm(app: Any) -> dict[str, int]:
    """Compile every template and read the figures of the clubs that played lately; what was warmed.

    Warming is a head start, never a condition: a server of another app (the benchmarks' plain
    hello-world runs under the same settings) warms nothing, and a failure is logged, not raised."""
    from .club import figures
    from .db import db

    warmed = {"templates": 0, "clubs": 0}
    try:
        names = app.jinja_env.list_templates(extensions=["html"])
        for name in names:
            app.jinja_env.get_template(name)
        warmed["templates"] = len(names)
        if app.extensions.get("sqlalchemy") is db:  # the app's own, not another app under the same settings
            with app.app_context():
                warmed["clubs"] = figures.warm(WARM_CLUBS)
    except Exception:  # noqa: BLE001 - the worker serves cold rather than not at all
        app.logger.exception("the new worker could not be warmed; it serves cold")
    return warmed


def breathe() -> None:
    """Let the worker answer its other phones before going on with a long piece of work.

    A gevent worker runs one greenlet at a time: drawing a big club's page after a result, or reading
    a season for the first time, would keep every phone of that worker waiting until it is done. The
    long pieces of work call this between their parts (a standings table, an evening, a batch of rows):
    under gevent time.sleep(0) hands over to the phones that are waiting, elsewhere it costs a microsecond.
    """
    time.sleep(0)
