"""PDF files read with poppler (pdfinfo, pdftotext), and the sheet of a match fetched through the API."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient


def save(tmp_path: Path, data: bytes, name: str = "sheet.pdf") -> Path:
    assert data.startswith(b"%PDF-"), data[:200]
    path = tmp_path / name
    path.write_bytes(data)
    return path


def poppler(*args: str) -> str:
    """A poppler tool's output. A document's title with an emoji comes out of pdftotext -bbox as the halves of its
    UTF-16 surrogate pair, which no UTF-8 decoder takes: they are replaced."""
    return subprocess.run(args, check=True, capture_output=True, text=True, errors="replace", timeout=60).stdout


def info(path: Path) -> dict[str, str]:
    return dict(line.split(":", 1) for line in poppler("pdfinfo", str(path)).splitlines() if ":" in line)


def pages(path: Path) -> int:
    return int(info(path)["Pages"])


def landscape(path: Path) -> bool:
    width, height = map(float, re.findall(r"[\d.]+", info(path)["Page size"])[:2])
    return width > height


def text(path: Path) -> str:
    return poppler("pdftotext", "-layout", str(path), "-")


def squeezed(value: str) -> str:
    """Text without any white space, so that names wrapped in narrow columns still match."""
    return re.sub(r"\s+", "", value)


def row(page_text: str, label: str) -> list[int]:
    """The whole numbers on the first line that starts with label."""
    line = next(line for line in page_text.splitlines() if line.strip().startswith(label))
    return [int(n) for n in re.findall(r"-?\d+", line[line.index(label) + len(label):])]


def sheet_pdf(client: FlaskClient, match: dict[str, Any]) -> bytes:
    answer = client.get(f"/api/v1/matches/{match['id']}/sheet.pdf")
    assert answer.status_code == 200, answer.text[:300]
    assert answer.mimetype == "application/pdf"
    return answer.data


@dataclass
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def words(path: Path) -> tuple[float, list[Word]]:
    """The page width and every word on the first page, with its box (points from the top left)."""
    out = poppler("pdftotext", "-bbox", "-f", "1", "-l", "1", str(path), "-")
    width = float(re.search(r'<page width="([\d.]+)"', out)[1])
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', out)
    return width, [Word(html.unescape(text), float(a), float(b), float(c), float(d)) for a, b, c, d, text in found]
