"""Figure 13: Lighthouse's mobile scores (performance, accessibility) of the pages a phone opens most.

    .venv/bin/python bench/lighthouse.py [--runs 1] [--json out.json]

Serves the app as `manage.py serve` does (gunicorn, gevent workers) on a throwaway SQLite database
holding a finished match of each game, a club of 12 players with 30 finished matches, and runs
Lighthouse 12 (its default mobile profile: a Moto G class phone, simulated slow 4G and a 4 x slower
CPU) with Debian's chromium on: the home page, a match page of each game, a hand form (as the phone
that holds the edit key, through its session cookie), a blank sheet's print view, a club page and a
player page. Each score is 0 to 100; a page's figure is the median over --runs runs.

Lighthouse comes from npm: the first run installs lighthouse@12.2.3 (the last release for Node 20)
into bench/.lighthouse/ (ignored by git). CHROME_PATH defaults to /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import club_seed
import harness
import seed
from harness import REAL_APP, emit_figures, say, served

TARGET = 95
LIGHTHOUSE = "lighthouse@12.2.3"
HERE = Path(__file__).resolve().parent
TOOLS = HERE / ".lighthouse"
CATEGORIES = ("performance", "accessibility")


def lighthouse() -> Path:
    """The lighthouse command, installed on first use."""
    command = TOOLS / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        if shutil.which("npm") is None:
            raise RuntimeError("this benchmark needs Node and npm (Debian: apt-get install nodejs npm)")
        TOOLS.mkdir(exist_ok=True)
        say(f"installing {LIGHTHOUSE} into {TOOLS} ...")
        subprocess.run(["npm", "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund", "-E", LIGHTHOUSE],
                       check=True, capture_output=True, text=True)
    return command


def audit(command: Path, url: str, cookie: str | None) -> dict[str, int]:
    """One Lighthouse run of url on the mobile profile: each category's score out of 100."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as folder:
        out = Path(folder) / "report.json"
        args = [str(command), url, "--output=json", f"--output-path={out}", "--quiet",
                f"--only-categories={','.join(CATEGORIES)}",
                f"--chrome-flags=--headless=new --no-sandbox --disable-gpu --user-data-dir={folder}/profile"]
        if cookie:
            args.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        run = subprocess.run(args, capture_output=True, text=True, env=env, timeout=240)
        if not out.exists():
            raise RuntimeError(f"lighthouse failed on {url}: {run.stderr[-2000:]}")
        report = json.loads(out.read_text())
    return {name: round(100 * (report["categories"][name]["score"] or 0)) for name in CATEGORIES}


def session_cookie(edit_url: str) -> str:
    """The session cookie of a phone that opened the edit link, as a Cookie header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(edit_url) as answer:
        answer.read()
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def seeded(app) -> dict[str, str]:
    """A finished match of each game, a club with a season's worth of matches: the pages' addresses."""
    from sqlalchemy import select

    from scorekeeper.db import db
    from scorekeeper.models import ClubPlayer

    barbu, barbu_key = seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
    rng = random.Random(13)
    hearts, _ = seed.create(app, "hearts", seed.HEARTS_PLAYERS, {"target": 100},
                            club_seed.hearts_entries(rng, seed.HEARTS_PLAYERS))
    kozyol, _ = seed.create(app, "kozyol", seed.PLAYERS, {}, club_seed.kozyol_entries(rng, seed.PLAYERS))
    club, _admin, roster = club_seed.make_club(app, 12)
    club_seed.bulk_matches(app, club, roster, 30, rng, log=lambda line: None)
    with app.app_context():
        player = db.session.scalar(select(ClubPlayer.id).where(ClubPlayer.id.in_(roster)).limit(1))
        db.session.remove()
    return {"home": "/", "Barbu match": f"/m/{barbu}", "Kozyol match": f"/m/{kozyol}",
            "Hearts match": f"/m/{hearts}", "hand form": f"/m/{barbu}/hands/new?variant=no_tricks",
            "blank sheet print view": "/sheets/barbu", "club page": f"/c/{club}",
            "player page": f"/c/{club}/players/{player}", "_edit": f"/m/{barbu}/join?key={barbu_key}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (default 1)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    command = lighthouse()
    with harness.instance("sqlite") as settings:
        pages = seeded(seed.app())
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        workers = 2
        with served(REAL_APP, workers, 1, logs / "app.log") as server:
            edit = pages.pop("_edit")
            cookie = session_cookie(server.base + edit)
            status, _, body = harness.get(server.base + pages["hand form"], {"Cookie": cookie})
            if status != 200 or b'method="post"' not in body:  # the form itself, not the page that refuses it
                raise RuntimeError(f"the hand form answered {status} with the edit key's cookie")
            scores: dict[str, dict[str, list[int]]] = {}
            for name, path in pages.items():
                for _ in range(args.runs):
                    got = audit(command, server.base + path, cookie if name == "hand form" else None)
                    for category, value in got.items():
                        scores.setdefault(name, {}).setdefault(category, []).append(value)
                say(f"  {name}: " + ", ".join(f"{c} {statistics.median(v):g}" for c, v in scores[name].items()))
    figures = []
    for name, got in scores.items():
        values = {category: statistics.median(runs) for category, runs in got.items()}
        figures.append({"figure": f"13 {name}", "name": f"Lighthouse mobile scores, {name}",
                        "value": values, "target": f">= {TARGET} each",
                        "pass": all(value >= TARGET for value in values.values()),
                        "detail": f"median of {args.runs} run(s); Lighthouse 12.2.3, chromium, mobile profile"})
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
