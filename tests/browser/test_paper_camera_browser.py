"""The live framing guide of the paper upload page on a phone: the rear camera in a view with a page-shaped frame,
the photo taken there sent through the upload form as a chosen photo, and a refused camera that leaves the file
field to fall back on.

Chromium's fake camera plays a synthetic photo of a marked readable sheet (a YUV4MPEG2 file made here), so the
sheet the camera sees is read back on the review screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from helpers.browser import BARBU, CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT, Taps, opened, serious, uncovered
from helpers.matches import barbu_entry
from helpers.paper import marks_of, raster
from helpers.paper_pen import CLEAN, Marks, fill
from helpers.paper_photos import Camera, shoot
from scorekeeper.paper import layout

DPI = 200
FRAME = (3840, 2160)  # what the page asks the rear camera for, and what the fake one sends
# The phone held square over the sheet, which fills most of the frame's height.
HELD = Camera(FRAME, (0.85, 0.92), 3.0)
SEVERITY = 0.3
HANDS = [barbu_entry(number, BARBU) for number in (1, 2, 3)]
PLAYING = """() => { const video = document.querySelector(".live-camera video");
  return video !== null && video.videoWidth > 0 && !video.paused && video.readyState >= 2; }"""
HINT = "Fit the sheet's four black corner squares in the corners of the frame."
REFUSED = "The camera could not be opened: choose a Photo of the sheet above instead."
FAKE_CAMERA = ["--use-fake-device-for-media-stream"]
NO_CAMERA_API = "Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined });"


def y4m(frame_bgr: np.ndarray, path: Path) -> Path:
    """One frame as YUV4MPEG2 (4:2:0), which chromium's fake camera plays over and over."""
    h, w = frame_bgr.shape[:2]
    planes = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2YUV_I420)
    path.write_bytes(f"YUV4MPEG2 W{w} H{h} F1:1 Ip A1:1 C420jpeg\n".encode() + b"FRAME\n" + planes.tobytes())
    return path


def marked_sheet(api: Any, match_id: str, path: Path) -> Path:
    """The match's readable sheet printed, its three hands marked in pen, as the camera sees it on a table."""
    answer = api.get(f"/m/{match_id}/paper.pdf")
    assert answer.ok, answer.status
    printed = raster(answer.body(), DPI)[0]
    page = layout.page_for("barbu", len(BARBU), 26)
    marks: Marks = {}
    for row, entry in enumerate(HANDS):
        marks.update({key: values for key, values in marks_of("barbu", entry, BARBU, row).items() if values})
    rng = np.random.default_rng(37)
    photo = shoot(fill(printed, page, marks, rng, CLEAN).image, rng, SEVERITY, HELD, page=page)
    frame = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert frame.shape[1::-1] == FRAME
    return y4m(frame, path)


@pytest.fixture
def api(playwright: Any, live_server: str) -> Iterator[Any]:
    """The app's API, as another phone at the table uses it."""
    context = playwright.request.new_context(base_url=live_server)
    yield context
    context.dispose()


@pytest.fixture
def camera_phone(playwright: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """A phone whose chromium has a camera: camera_phone(flags, **context options) opens its page."""
    browsers: list[Any] = []

    def open_phone(flags: list[str], **options: Any) -> Any:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + flags, headless=True)
        browsers.append(browser)
        context = browser.new_context(**{**PHONE, **options}, base_url=live_server)
        context.set_default_timeout(WAIT)
        return opened(context)

    yield open_phone
    for browser in browsers:
        browser.close()


def new_match(api: Any) -> dict[str, Any]:
    answer = api.post("/api/v1/matches", data={"game": "barbu", "players": BARBU,
                                               "options": {"first_declarer": BARBU[0]}})
    assert answer.status == 201, answer.text()
    return answer.json()


def upload_page(page: Any, match: dict[str, Any]) -> None:
    """The match opened with its edit link, then its "Read a paper sheet" page."""
    page.goto(match["edit_url"])
    page.goto(f"/m/{match['id']}/paper")
    expect(page.get_by_role("heading", name="Read a paper sheet")).to_be_visible()


def test_the_live_camera_frames_the_sheet_and_its_photo_is_read(camera_phone, api, tap: Taps, screenshot, tmp_path):
    match = new_match(api)
    video = marked_sheet(api, match["id"], tmp_path / "sheet.y4m")
    page = camera_phone([*FAKE_CAMERA, "--use-fake-ui-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    upload_page(page, match)
    live = page.locator(".live-camera")
    expect(live).to_be_hidden()
    tap(page.get_by_role("button", name="Use the live camera"))
    page.wait_for_function(PLAYING)
    # Cancel puts the camera away (its light goes out) and the button back.
    tap(live.get_by_role("button", name="Cancel"))
    expect(live).to_be_hidden()
    assert page.evaluate("() => document.querySelector('.live-camera video').srcObject") is None
    tap(page.get_by_role("button", name="Use the live camera"))

    page.wait_for_function(PLAYING)
    assert page.evaluate("() => document.querySelector('.live-camera video').videoWidth") == FRAME[0]
    expect(live.get_by_text(HINT)).to_be_visible()
    expect(page.get_by_role("button", name="Use the live camera")).to_be_hidden()
    corners = live.locator(".camera-frame .corner")
    expect(corners).to_have_count(4)
    view = live.locator(".camera-view").bounding_box()
    for corner in corners.all():
        expect(corner).to_be_visible()
        expect(corner).to_have_css("background-color", "rgba(0, 0, 0, 0)")  # the sheet shows through it
        box = corner.bounding_box()
        assert box["width"] > 20 and box["height"] > 20, box  # a bracket a thumb can aim at
        assert view["x"] <= box["x"] and box["x"] + box["width"] <= view["x"] + view["width"] + 0.5, (box, view)
        assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"] + 0.5, (box, view)
    uncovered(page, corners)
    # The frame is the page's shape: A4 lying on its long side, as the sheet is printed.
    frame = live.locator(".camera-frame").bounding_box()
    assert frame["width"] / frame["height"] == pytest.approx(297 / 210, rel=0.02)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert serious(page) == []
    screenshot(page, "framing")

    tap(live.get_by_role("button", name="Take the photo"))
    page.wait_for_url(re.compile(rf"/m/{match['id']}/paper/\d+$"))
    expect(page.get_by_role("heading", name="Check the sheet read")).to_be_visible()
    expect(page.locator(".paper-certain li strong")).to_have_text([f"Hand {number}" for number in (1, 2, 3)])
    expect(page.locator("section.paper-row")).to_have_count(0)


def test_a_refused_camera_says_so_and_leaves_the_file_field(camera_phone, api, tap: Taps):
    match = new_match(api)
    page = camera_phone(FAKE_CAMERA, permissions=[])  # no one says yes to the camera
    upload_page(page, match)
    tap(page.get_by_role("button", name="Use the live camera"))
    expect(page.get_by_text(REFUSED)).to_be_visible()
    expect(page.locator(".live-camera")).to_be_hidden()
    expect(page.get_by_role("button", name="Use the live camera")).to_be_hidden()
    expect(page.get_by_label("Photo of the sheet")).to_be_visible()
    expect(page.get_by_label("Photo of the sheet")).to_be_enabled()


def test_without_the_camera_api_the_page_is_the_file_field_alone(camera_phone, api):
    match = new_match(api)
    page = camera_phone(FAKE_CAMERA)
    page.context.add_init_script(NO_CAMERA_API)
    upload_page(page, match)
    page.wait_for_function("() => document.readyState === 'complete'")
    expect(page.get_by_label("Photo of the sheet")).to_be_visible()
    expect(page.get_by_role("button", name="Use the live camera")).to_have_count(0)
