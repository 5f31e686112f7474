"""A phone saving a hand while the server's disk is full keeps it, and sends it once space is freed, without a tap.

The server's SQLite database sits on a small disk of the test's own (helpers/full_disk.py), filled to its
last byte: the server answers 503, never "already recorded", and the phone's outbox holds the hand as it
holds one sent without a connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers.databases import Template
from helpers.full_disk import FullDisk
from helpers.matches import PLAYERS

SENT_WITHIN = 30_000  # ms: the outbox tries again within seconds, backing off


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[FullDisk]:
    real = FullDisk(tmp_path / "disk")
    if not real.mounted:
        pytest.skip(f"this machine lets no test mount a small disk: {real.why}")
    yield real
    real.free()
    real.close()


@pytest.fixture
def database_url(template: Template, disk: FullDisk) -> str:
    """The live server's database, on the small disk."""
    return template.copy(disk.path)


def test_a_deal_saved_on_a_full_disk_is_kept_and_arrives_once_when_space_is_freed(phone, new_match, disk):
    page = phone()
    match_id = new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    page.get_by_role("link", name="Enter deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()
    page.wait_for_load_state("load")
    disk.fill()
    page.locator("#points").fill("75")
    page.get_by_role("button", name="Save deal 1").tap()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Deal 1 is kept on this phone")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")  # not "the next hand is hand 1"
    disk.free()  # nobody taps anything
    expect(outbox).to_be_hidden(timeout=SENT_WITHIN)
    hands = page.context.request.get(f"/api/v1/matches/{match_id}").json()["hands"]
    assert [hand["entry"]["points"] for hand in hands] == [[75, 45]]
