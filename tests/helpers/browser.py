"""What the real-browser tests share: matches made over the API, axe-core and tap-size checks, measured figures."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from helpers.matches import PLAYERS

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
# Debian's chromium (package chromium), never one Playwright downloads, and how every test starts it.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
# How long a wait on something the phone shows may take, Playwright's expect() included (5 s of its own):
# a condition a loaded machine reaches late is still met, and a passing test waits no longer for it.
WAIT = 15_000
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB"}
BARBU = PLAYERS  # the four at every Barbu and Kozyol table of the phone tests
HEARTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
SERIOUS = {"serious", "critical"}
TAP = 44  # CSS pixels, both ways
# How long the live pages may take to show a change made on another phone (the promise).
LIVE_WITHIN = 3.0

# Controls smaller than a thumb. Exempt: a link inside a sentence ("Ann declares. Other contract"),
# which the text around it would have to move away from; its line is its target.
SMALL_TARGETS = """() => {
  const visible = (el) => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const inSentence = (a) => { const p = a.closest("p, li, figcaption, small");
    return p && p.textContent.replace(a.textContent, "").trim().length > 0 && !a.classList.contains("button"); };
  const found = [], exempt = [];
  document.querySelectorAll("a[href], button, input:not([type=hidden]), select, summary, textarea").forEach((el) => {
    let target = el;
    if (el.matches("input[type=radio], input[type=checkbox]")) { target = el.closest("label") || el; }
    if (!visible(target)) { return; }
    const r = target.getBoundingClientRect();
    if (r.width < %(tap)d - 0.5 || r.height < %(tap)d - 0.5) {
      const name = (el.textContent || el.getAttribute("aria-label") || el.name || "").trim().slice(0, 40);
      (el.matches("a") && inSentence(el) ? exempt : found).push(
        `${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  });
  return {small: [...new Set(found)], exempt: [...new Set(exempt)]};
}""" % {"tap": TAP}  # noqa: UP031 (JavaScript: an f-string would double every brace)

# Whether the middle of an element is on the phone's screen and the element itself is what a tap there hits.
UNCOVERED = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || r.left < 0 || r.right > window.innerWidth || y < 0 || y > window.innerHeight) { return false; }
  const hit = document.elementFromPoint(x, y);
  return hit !== null && (hit === el || el.contains(hit));
}"""

# Names split across two lines inside a word: each word of each element is measured as it is drawn (a hyphen
# ends a word: a line may break after it).
BROKEN = """selector => {
  const broken = [];
  document.querySelectorAll(selector).forEach((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const match of text.matchAll(/[^\\s·,:&-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) { broken.push(match[0]); }
      }
    }
  });
  return broken;
}"""


def uncovered(page: Any, locator: Any) -> None:
    """Scroll the element to the middle of the screen (as a reader would), then check nothing covers it."""
    for found in locator.all():
        found.evaluate("el => el.scrollIntoView({block: 'center', inline: 'nearest'})")
        text = found.inner_text()
        assert found.evaluate(UNCOVERED), f"{text!r} is cut off or covered"


def made(page: Any, game: str, players: list[str], options: dict[str, Any], hands: list[dict[str, Any]]) -> str:
    """A match made over the API with a few hands, opened on this phone with its edit link."""
    answer = page.context.request.post("/api/v1/matches", data={"game": game, "players": players, "options": options})
    assert answer.status == 201, answer.text()
    match = answer.json()
    for hand in hands:
        sent = page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data=hand,
                                         headers={"Authorization": f"Bearer {match['edit_key']}"})
        assert sent.status == 201, sent.text()
    page.goto(match["edit_url"])
    return match["id"]


def member_link(page: Any, club: str, player_id: int, admin_key: str) -> str:
    """The member link the club's admin makes for a roster player, over the API (a new one replaces the old)."""
    answer = page.context.request.post(f"/api/v1/clubs/{club}/players/{player_id}/member-key",
                                       headers={"Authorization": f"Bearer {admin_key}"})
    assert answer.status == 201, answer.text()
    return answer.json()["member_url"]


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each."""
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {node['target']}: {node['failureSummary']}"
            for v in found if v["impact"] in SERIOUS for node in v["nodes"]]


def check(page: Any, name: str, problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    targets = page.evaluate(SMALL_TARGETS)
    problems[name] = serious(page) + [f"small target: {t}" for t in targets["small"]]
    if targets["exempt"]:
        exempt[name] = targets["exempt"]
    if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
        problems[name].append("wider than the phone: the page scrolls sideways")


def report(kind: str, name: str, figures: Any) -> None:
    """Print a measured figure (pytest -s shows it) and keep it in artifacts/<kind>.json."""
    print(f"\n[{kind}] {name}: {figures}")
    path = ARTIFACTS / f"{kind}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    known = json.loads(path.read_text()) if path.exists() else {}
    known[name] = figures
    path.write_text(json.dumps(known, indent=2, ensure_ascii=False) + "\n")


class Taps:
    """Every tap of a test, counted: on buttons, chips, links and the keys of the phone's keyboard."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator: Any) -> None:
        # A phone's tap lands once the page has set itself up: the form's scripts run after the HTML is
        # parsed, so a tap between the two would reach a form that does not fill in or count yet. The page's
        # load event comes after its scripts and their DOMContentLoaded handlers have run. Playwright tells it
        # from the browser's own events: a condition checked in the page (wait_for_function) is looked at
        # again only by the page's own timers, which a phone with scripts off never runs, so a page still
        # loading at the first look would be waited for in vain.
        locator.page.wait_for_load_state("load")
        locator.tap()
        self.count += 1

    def type(self, locator: Any, text: str) -> None:
        """Tap a field, then a key per character (the field selects its value on focus)."""
        self(locator)
        locator.page.keyboard.type(text)
        self.count += len(text)

    def reset(self) -> int:
        counted, self.count = self.count, 0
        return counted

    def report(self, hand: str, most: int, paper: str) -> int:
        """Keep the taps of a typical hand in artifacts/taps.json; at most `most` are allowed."""
        report("taps", hand, {"taps": self.count, "at_most": most, "on_paper": paper})
        assert self.count <= most, f"{hand} took {self.count} taps, more than {most}"
        return self.count


# Every page notes when the live script last redrew it (static/js/live.js fires scorekeeper:updated after
# the swap): the delay is read from the page, not from how often Playwright looks (up to every 0.5 s).
REDRAWN = """document.addEventListener("scorekeeper:updated", () => {
  window.redrawnAt = performance.timeOrigin + performance.now();
});"""


class Live:
    """Measures how long a watching phone takes to show a change made on another phone."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.delays: dict[str, dict[str, float]] = {}
        self.tapped = 0.0

    def saved(self, page: Any, action: Callable[[], None]) -> float:
        """Do action (the tap that sends a form); return when the server answered: the change is stored."""
        self.tapped = time.time()
        with page.expect_response(lambda response: response.request.method == "POST"):
            action()
        return time.time()

    def wait(self, what: str, since: float, watcher: Any, show: Callable[[int], None]) -> float:
        """show(timeout_ms) waits for the change on the watching page; returns seconds from stored to redrawn."""
        show(int(LIVE_WITHIN * 1000) + 2000)
        redrawn = watcher.evaluate("window.redrawnAt") / 1000
        delay = round(redrawn - since, 2)
        self.delays[what] = {"after_stored": delay, "after_tap": round(redrawn - self.tapped, 2)}
        assert 0 < delay < LIVE_WITHIN, f"{what}: the watching phone showed it {delay} s after it was stored"
        return delay


# Every page says whether anything it started may still take it elsewhere: a form sent (by a tap, or by a
# script's form.submit() as the outbox does after a refusal), or the page already unloading. A submit
# event counts once its dispatch is over and nobody prevented it, so a form a script sends itself (the
# outbox's fetch) does not; a form the outbox is sending carries data-saving until it has decided.
SETTLED = """(() => {
  let leaving = false, submitted = null;
  const submit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function () { leaving = true; return submit.call(this); };
  addEventListener("submit", (event) => { submitted = event; }, true);
  addEventListener("beforeunload", () => { leaving = true; });
  window.scorekeeperSettled = () => !leaving && !(submitted && !submitted.defaultPrevented)
    && document.readyState === "complete" && document.querySelector("form[data-saving]") === null;
})();"""
# A page is settled when it says so; about:blank and a document without the script (a PDF) have nothing going.
IS_SETTLED = """() => location.href === "about:blank" || (window.scorekeeperSettled === undefined
  ? document.readyState === "complete" : window.scorekeeperSettled())"""


def settle(page: Any, scripts: bool = True) -> None:
    """Wait until nothing the page started can still navigate it: any page a tap or a script asked for is there.

    The wait goes on across the navigation it waits for (Playwright runs the check again in the new page),
    looking every 100 ms. A phone with scripts off runs no init script and no check of its own: there only a
    tap navigates, and Playwright's tap returns once that navigation has begun, so its page's load is the wait.
    """
    if scripts:
        page.wait_for_function(IS_SETTLED, polling=100)
    else:
        page.wait_for_load_state("load")


def settled_navigations(page: Any, scripts: bool = True) -> Any:
    """Make the page's goto and reload wait for the page to settle first.

    Otherwise a goto right after a tap can meet the navigation that tap started (a form's post, the outbox
    letting a refused form post itself): one of the two is aborted (net::ERR_ABORTED), or the post never
    reaches the server. The class of race is closed here, for every browser test, not test by test.
    """
    if getattr(page, "settles", False):
        return page
    goto, reload = page.goto, page.reload

    def settled_goto(*args: Any, **options: Any) -> Any:
        settle(page, scripts)
        return goto(*args, **options)

    def settled_reload(*args: Any, **options: Any) -> Any:
        settle(page, scripts)
        return reload(*args, **options)

    page.goto, page.reload, page.settles = settled_goto, settled_reload, True
    return page


def opened(context: Any, scripts: bool = True) -> Any:
    """A new page of a phone's browser context, its navigations settled (see settled_navigations).

    scripts: whether the context runs the pages' scripts (java_script_enabled)."""
    context.add_init_script(SETTLED)
    context.add_init_script(REDRAWN)
    context.on("page", lambda page: settled_navigations(page, scripts))  # pages the phone opens itself (a second tab)
    return settled_navigations(context.new_page(), scripts)


def scrolled_to_end(region: Any) -> None:
    """Swipe a region to its far right, and wait until it is there and the page has drawn it."""
    region.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    region.page.wait_for_function("""el => el.scrollLeft >= el.scrollWidth - el.clientWidth - 1
      && new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn(true))))""",
                                  arg=region.element_handle())


# Playwright's wait_for_function takes a promise the condition returns for a truthy value and returns at once:
# a condition that asks an asynchronous API (the Cache API, the service worker) would never be waited for. Each
# poll here starts the condition when none is on its way and answers what the last one resolved to.
ASKED = """([key, arg]) => {
  const waits = window.__waits || (window.__waits = {});
  const wait = waits[key] || (waits[key] = { asking: false, held: false });
  if (wait.held) { delete waits[key]; return true; }
  if (!wait.asking) {
    wait.asking = true;
    Promise.resolve().then(() => (%s)(arg)).then((held) => { wait.held = Boolean(held); }, () => { wait.held = false; })
      .then(() => { wait.asking = false; });
  }
  return false;
}"""


def wait_until(page: Any, condition: str, arg: Any = None, within: float = 10, what: str = "") -> None:
    """Wait until a condition in the page holds (a promise it returns is waited for), at most `within` seconds."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(ASKED % condition, arg=[uuid.uuid4().hex, arg], timeout=within * 1000, polling=100)
    except Timeout:
        raise AssertionError(what or f"{condition} did not hold within {within} s") from None


# The page's fonts are in and two frames have been drawn since: main.js refits names once the fonts are ready
# (a handler that runs before this one's), so what a test measures next is what the phone shows.
FONTS_DRAWN = """() => document.fonts.ready.then(() => new Promise((drawn) =>
  requestAnimationFrame(() => requestAnimationFrame(() => drawn(true)))))"""


def fonts_drawn(page: Any) -> None:
    """Wait until the page's fonts have arrived and the sizes set for them are drawn."""
    wait_until(page, FONTS_DRAWN, what="the page's fonts did not arrive")
