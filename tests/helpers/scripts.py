"""Names in every script a phone can type, and every PDF the app prints them in, on a machine with no font at all.

NAMES gives a name per script with the families of static/sheet-fonts.css that may print it (pdffonts names an
embedded font by its family, "Sheet-Khmer", after a subset prefix). ``print_everything`` prints the filled and
blank sheets of each game with them, a club's standings, an evening's table cards and its results, and the
sheets whose pictures are compared (pictures.py: Khmer and Lao names whose marks stack high and deep, each
sheet printed with only its text and with only its rules). ``on_a_bare_machine`` does it in a process of its
own on a fresh app and SQLite database, its fontconfig seeing no folder of fonts: what prints there prints on
any server, whatever fonts it has. It runs this module (``python -m helpers.scripts FOLDER``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from helpers.api import bearer, create_match, post
from helpers.clubs import TEAM_1_LOSES
from helpers.full_evenings import FullEvening
from helpers.matches import barbu_entry, hearts_entry
from helpers.pictures import RULES_ONLY, TEXT_ONLY

ROOT = Path(__file__).resolve().parents[2]
SANS = ("Sheet-Sans", "Sheet-Mono")
# A long Lao name, written as Lao is, without spaces: the PDF finds no place to break it between words.
LAO_LONG = "ສົມພອນບຸນມີແກ້ວພູມີຄຳຫຼ້າສົມພອນບຸນມີແກ້ວພູ"
# script: (a name, the families that may print it). Each reads back whole from the PDF, subscripts, conjuncts and
# vowels written before their consonant included (scorekeeper/actual_text.py).
NAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "Latin": ("Jörg Peggy", SANS),
    "Greek": ("Γιώργος", SANS),
    "Cyrillic": ("Ёжик Козлов", SANS),
    "Arabic": ("محمد علي", ("Sheet-Arabic",)),
    "Hebrew": ("דוד כהן", ("Sheet-Hebrew",)),
    "Devanagari": ("क्षत्रिय राहुल", ("Sheet-Devanagari",)),
    "Thai": ("สมชาย ใจดี", ("Sheet-Thai",)),
    "Khmer": ("ស្រីពៅ ឧត្តម", ("Sheet-Khmer",)),
    "Lao": (LAO_LONG, ("Sheet-Lao",)),
    "Chinese": ("王小明", ("Sheet-CJK",)),
    "Japanese": ("山田さくら", ("Sheet-CJK",)),
    "Korean": ("김민준", ("Sheet-CJK",)),
    "Emoji": ("Ann 😀🃏", ("Sheet-Emoji",)),
    "Latin, again": ("Åsa Quigley", SANS),
}
FILL = ["Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivo"]  # seats the names above leave empty
# Names whose marks stack high or whose subscripts go deep, for the pictures: Khmer, Lao, and Latin descenders.
KHMER = ["ស្ត្រី", "ក្សត្រ", "ឧត្តម", "ស៊ីណា"]
LAO = ["ສີ່ສຸກ", "ຜູ້ໃຫຍ່", "ຄຳຫຼ້າ", "ປູ່"]
LATIN = ["Peggy Jaqq", "Ǻgnès Ģirts"]

Printed = dict[str, list[str]]  # file name in the folder -> the names printed in it


def seated(names: list[str], seats: int) -> list[str]:
    return (names + [name for name in FILL if name not in names])[:seats]


def in_fours(names: list[str]) -> list[list[str]]:
    return [seated(names[start:start + 4], 4) for start in range(0, len(names), 4)]


def played(client: FlaskClient, game: str, names: list[str]) -> Callable[[], bytes]:
    """A match of the game with a few hands (the last trick named, for Kozyol): its sheet, fetched each time."""
    match = create_match(client, game, names, {"first_declarer": names[0]} if game == "barbu" else {})
    for number in range(1, 4):
        post(client, match, barbu_entry(number, names) if game == "barbu" else hearts_entry(number, names)
             if game == "hearts" else {"points": [75, 45], "trump_suit": "hearts", "last_trick": names[number % 2]})
    return lambda: fetched(client, f"/api/v1/matches/{match['id']}/sheet.pdf")


def blank(client: FlaskClient, game: str, names: list[str]) -> Callable[[], bytes]:
    return lambda: fetched(client, f"/sheets/{game}.pdf", query_string=[("players", name) for name in names])


def fetched(client: FlaskClient, address: str, **more: Any) -> bytes:
    answer = client.get(address, **more)
    assert answer.status_code == 200 and answer.mimetype == "application/pdf", (address, answer.text[:300])
    return answer.data


def evening(client: FlaskClient, names: list[str]) -> dict[str, Callable[[], bytes]]:
    """A club evening of three tables (Kozyol, Barbu, Hearts) with these names, the Kozyol series over: its PDFs."""
    def call(method: str, path: str, body: Any, key: str | None) -> Any:
        answer = client.open(path, method=method, json=body, headers=bearer(key) if key else {})
        assert answer.status_code in (200, 201), (path, answer.get_json())
        return answer.get_json()

    night = FullEvening(call, names, [("kozyol", names[:4]), ("barbu", names[4:8]), ("hearts", names[8:])])
    night.play(1, TEAM_1_LOSES)
    night.play(2, barbu_entry(1, names[4:8]))
    night.play(3, hearts_entry(1, names[8:]))
    day = datetime.now(timezone.utc).date().isoformat()
    admin = bearer(night.key)
    return {"standings": lambda: fetched(client, f"/c/{night.club}/standings.pdf"),
            "results": lambda: fetched(client, f"/c/{night.club}/evenings/{day}/results.pdf"),
            "cards": lambda: fetched(client, f"/api/v1/clubs/{night.club}/evenings/{night.evening}/cards.pdf",
                                     headers=admin)}


def print_everything(client: FlaskClient, config: dict[str, Any], folder: Path) -> Printed:
    """Every PDF with the names (NAMES), and the pictures' pairs, written to folder: what each holds."""
    printed: Printed = {}

    def keep(name: str, sheet: Callable[[], bytes], names: list[str]) -> None:
        (folder / name).write_bytes(sheet())
        printed[name] = names

    names = [name for name, _families in NAMES.values()]
    for game in ("kozyol", "barbu"):
        for number, four in enumerate(in_fours(names), start=1):
            keep(f"{game}-{number}.pdf", played(client, game, four), four)
            keep(f"{game}-{number}-blank.pdf", blank(client, game, four), four)
    for number, players in enumerate((names[:11], seated(names[11:], 6)), start=1):
        keep(f"hearts-{number}.pdf", played(client, "hearts", players), players)
        keep(f"hearts-{number}-blank.pdf", blank(client, "hearts", players), players)
    keep("hearts-8-blank.pdf", blank(client, "hearts", seated([LAO_LONG], 8)), seated([LAO_LONG], 8))
    at_tables = names[8:] + names[:8]  # the long Lao name at the Kozyol table, whose series ends: it has a place
    club = evening(client, at_tables)
    keep("standings.pdf", club["standings"], at_tables[:4])  # the Kozyol table's, the one finished match
    keep("results.pdf", club["results"], at_tables)
    keep("cards.pdf", club["cards"], at_tables)
    for game, seats in (("kozyol", 4), ("barbu", 4), ("hearts", 6)):
        for label, stacked in (("khmer", KHMER), ("lao", LAO)):
            players = (stacked + LATIN)[:seats]
            for kind, sheet in (("filled", played(client, game, players)), ("blank", blank(client, game, players))):
                for part, css in (("text", TEXT_ONLY), ("rules", RULES_ONLY)):
                    config["PDF_EXTRA_CSS"] = css
                    keep(f"picture-{game}-{label}-{kind}-{part}.pdf", sheet, players)
                config["PDF_EXTRA_CSS"] = ""
    return printed


def on_a_bare_machine(folder: Path) -> Printed:
    """print_everything in a process whose fontconfig sees no font of the machine (a fonts.conf naming no folder)."""
    config = folder / "fonts.conf"
    config.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
                      f"<fontconfig><cachedir>{folder / 'fontconfig'}</cachedir></fontconfig>\n")
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-m", "helpers.scripts", str(folder)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((folder / "printed.json").read_text())


def main(folder: Path) -> None:
    warnings.filterwarnings("ignore", "No fonts configured")  # WeasyPrint's, as this machine has none
    from scorekeeper.app import create_app
    from scorekeeper.system_fonts import configured

    assert configured()[0] == [], "fontconfig still sees folders of fonts"
    database = Path(tempfile.mkdtemp(dir=folder)) / "scorekeeper.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
                      "RATELIMIT_ENABLED": False, "PDF_CACHE_BYTES": 0, "PDF_RENDER_WAIT": 120})
    printed = print_everything(app.test_client(), app.config, folder)
    (folder / "printed.json").write_text(json.dumps(printed, ensure_ascii=False))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
