#!/usr/bin/env python3
"""Opens a run's report.html in headless Chromium and checks it as a reader would see it.

    python3 scripts/report/browser_check.py REPORT.html SCREENSHOT.png

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: requests on
fd 3, answers on fd 4, NUL-terminated JSON), so no extra Python package is needed. Checks:
  - no console errors, uncaught exceptions or failed loads while the page opens and is used;
  - every <img> on the page has loaded (plots and the plans shown), and every plan file the
    page can switch to loads too (each selectable query/size × flag set × stage);
  - clicking a column header of the summary table sorts it (ascending, then descending);
  - the summary table and a plot are visible on screen: scrolled into view, they are inside
    the viewport, and a screenshot clipped to each is not blank (PIL, if present).
Writes a full screenshot of the first screen to SCREENSHOT.png and prints one JSON object,
{"checks": {name: true/false}, "details": {...}}; exit 0 when every check passed, 1 when
one failed, 3 when Chromium is not installed (scripts/setup.sh --browser installs it).
"""
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, executable, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def arrange():
            # Chromium expects the pipe ends as fds 3 and 4. Copy them out of the way first:
            # a pipe end may already be fd 3 or 4, and dup2 onto itself would keep it close-on-exec.
            reading, writing = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        arguments = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
                     "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=1400,1000",
                     "about:blank"]
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, preexec_fn=arrange, pass_fds=(),
                                        close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self, deadline):
        import select
        while b"\0" not in self.buffer:
            remaining = deadline - time.time()
            if remaining <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.from_chrome], [], [], remaining)
            if ready:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        while True:
            event = self.read(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def drain(self, seconds):
        deadline = time.time() + seconds
        try:
            while True:
                self.events.append(self.read(deadline))
        except TimeoutError:
            pass

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


PAGE_CHECKS = r"""
(async function () {
  function loaded(img) { return img.complete && img.naturalWidth > 0; }
  var images = Array.prototype.slice.call(document.images).filter(function (i) { return !i.hidden && i.getAttribute("src"); });
  var broken = images.filter(function (i) { return !loaded(i); }).map(function (i) { return i.getAttribute("src"); });

  // Every plan the selects can show.
  var files = [];
  var data = document.getElementById("plan-data");
  if (data) {
    JSON.parse(data.textContent).cells.forEach(function (c) {
      Object.keys(c.files).forEach(function (s) { Object.keys(c.files[s]).forEach(function (st) { files.push(c.files[s][st]); }); });
    });
  }
  var planResults = await Promise.all(files.map(function (f) {
    return new Promise(function (resolve) {
      var img = new Image();
      img.onload = function () { resolve(img.naturalWidth > 0 ? null : f); };
      img.onerror = function () { resolve(f); };
      img.src = f;
    });
  }));
  var brokenPlans = planResults.filter(function (f) { return f !== null; });

  // Switching the plan selects changes the pictures shown.
  var switched = null;
  var right = document.getElementById("plan-right"), cell = document.getElementById("plan-cell");
  if (right && right.options.length > 1) {
    var before = document.getElementById("plan-right-final").getAttribute("src");
    right.selectedIndex = (right.selectedIndex + 1) % right.options.length;
    right.dispatchEvent(new Event("change"));
    if (cell.options.length > 1) { cell.selectedIndex = cell.options.length - 1; cell.dispatchEvent(new Event("change")); }
    var after = document.getElementById("plan-right-final").getAttribute("src");
    switched = before !== after;
    await new Promise(function (r) { setTimeout(r, 300); });
    var shown = Array.prototype.slice.call(document.querySelectorAll(".plans img")).filter(function (i) { return !i.hidden; });
    broken = broken.concat(shown.filter(function (i) { return !loaded(i); }).map(function (i) { return i.getAttribute("src"); }));
  }

  // Sorting: the "median ms" column of the summary table.
  var table = document.getElementById("summary-table");
  var sort = {ok: false};
  if (table) {
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var th = headers.filter(function (h) { return h.textContent === "median ms"; })[0];
    var column = headers.indexOf(th);
    function values() {
      return Array.prototype.slice.call(table.tBodies[0].rows).map(function (r) { return parseFloat(r.cells[column].getAttribute("data-sort")); });
    }
    function sorted(v, up) { for (var i = 1; i < v.length; i++) { if (up ? v[i - 1] > v[i] : v[i - 1] < v[i]) return false; } return true; }
    var original = values();
    th.click();
    var up = values();
    th.click();
    var down = values();
    var textTh = headers.filter(function (h) { return h.textContent === "engine / flag set"; })[0];
    textTh.click();
    var labels = Array.prototype.slice.call(table.tBodies[0].rows).map(function (r) { return r.cells[headers.indexOf(textTh)].textContent; });
    var labelsSorted = labels.slice().sort(function (a, b) { return a.localeCompare(b); });
    sort = {rows: original.length, ascending: sorted(up, true), descending: sorted(down, false),
            text: JSON.stringify(labels) === JSON.stringify(labelsSorted),
            wasUnsorted: !sorted(original, true), aria: th.getAttribute("aria-sort") === null && textTh.getAttribute("aria-sort") === "ascending"};
    sort.ok = original.length > 1 && sort.ascending && sort.descending && sort.text && sort.aria;
    th.click();
  }
  return JSON.stringify({images: images.length, broken: broken, plans: files.length, brokenPlans: brokenPlans,
                         switched: switched, sort: sort});
})()
"""

VISIBLE = r"""
(function (selector) {
  var e = document.querySelector(selector);
  if (!e) return JSON.stringify(null);
  e.scrollIntoView({block: "start"});
  var r = e.getBoundingClientRect(), style = getComputedStyle(e);
  return JSON.stringify({x: r.left, y: r.top, width: r.width, height: r.height, scrollX: scrollX, scrollY: scrollY,
                         innerWidth: innerWidth, innerHeight: innerHeight,
                         visible: style.visibility !== "hidden" && style.display !== "none" && r.width > 50 && r.height > 20
                                  && r.top >= -2 && r.top < innerHeight && r.left >= 0 && r.left < innerWidth});
})
"""


def evaluate(browser, session, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                          session=session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
    return json.loads(result["result"]["value"])


def not_blank(png):
    """True when the picture holds more than a few colours and is not nearly all one colour."""
    try:
        from PIL import Image
    except ImportError:
        return None
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20) or []
    total = image.width * image.height
    commonest = max((count for count, _ in colors), default=total)
    return len(colors) > 8 and commonest < 0.97 * total


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: browser_check.py REPORT.html SCREENSHOT.png\n")
        return 2
    report = os.path.abspath(sys.argv[1])
    screenshot = sys.argv[2]
    executable = find_chromium()
    if not executable:
        sys.stderr.write("Chromium is not installed: run scripts/setup.sh --browser (apt-get install chromium)\n")
        return 3
    profile = tempfile.mkdtemp(prefix="testbed-chromium-")
    browser = Browser(executable, profile)
    details = {}
    checks = {}
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable", session=session)
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=session)
        browser.send("Page.navigate", {"url": "file://" + report}, session=session)
        browser.wait_for("Page.loadEventFired")
        details["page"] = evaluate(browser, session, PAGE_CHECKS)
        browser.drain(0.5)

        problems = []
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                problems.append("console." + params["type"] + ": " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                problems.append("exception: " + params.get("exceptionDetails", {}).get("text", "") + " "
                                + str(params.get("exceptionDetails", {}).get("exception", {}).get("description", "")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                problems.append("log: " + params["entry"].get("text", "") + " " + params["entry"].get("url", ""))
            elif method == "Network.loadingFailed":
                problems.append("load failed: " + params.get("errorText", ""))
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if not (url.startswith("file://") or url.startswith("data:") or url.startswith("about:")):
                    problems.append("network request: " + url)
        details["console"] = problems
        page = details["page"]
        checks["no console errors"] = not problems
        checks["every image loads"] = page["images"] > 0 and not page["broken"]
        checks["every plan loads"] = page["plans"] > 0 and not page["brokenPlans"]
        checks["plan selects switch"] = page["switched"] is True
        checks["sorting works"] = page["sort"].get("ok") is True

        for name, selector in (("summary table visible", "#summary-table"), ("plot visible", ".plots img")):
            box = evaluate(browser, session, VISIBLE + f"({json.dumps(selector)})")
            details[name] = box
            if not box or not box["visible"]:
                checks[name] = False
                continue
            # The clip is in page coordinates: the visible part of the element, offset by the scroll.
            top = max(box["y"], 0)
            clip = {"x": box["x"] + box["scrollX"], "y": top + box["scrollY"],
                    "width": min(box["width"], box["innerWidth"] - box["x"]),
                    "height": min(box["height"], box["innerHeight"] - top), "scale": 1}
            png = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png", "clip": clip}, session=session)["data"])
            pixels = not_blank(png)
            details[name]["pixels"] = pixels
            with open(os.path.splitext(screenshot)[0] + "-" + name.split()[0] + ".png", "wb") as f:
                f.write(png)
            checks[name] = pixels is not False

        evaluate(browser, session, "(function(){ window.scrollTo(0, 0); return 'null'; })()")
        png = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"])
        with open(screenshot, "wb") as f:
            f.write(png)
        details["screenshot"] = screenshot
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps({"checks": checks, "details": details}, indent=1))
    return 0 if checks and all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
