#!/usr/bin/python3
"""The live page (GET /) in a real browser: headless Debian chromium, driven through its DevTools
protocol (python3-websocket), against `strokes daemon --replay FILE --http 127.0.0.1:PORT`.

    browser-test.py test                      # the checks below; exit 0 when all pass
    browser-test.py screenshot OUT.png        # the page during recording 01 (docs/browser-page.png)

Checks (each against what `strokes replay FILE` prints, stroke by stroke: points [x, y, time],
end state, cancel reason; stroke ids mapped by order of appearance):
  1. WebSocket: the page's window.strokesState once the replay is over.
  2. Resume: the same at a slow pace while the page's connection is dropped several times
     (window.__strokesTest.dropConnection()): every reconnection resumes, nothing lost or doubled;
     over WebSocket, then over the event stream (lastEventId).
  2b. Gaps: the same with a daemon that keeps nothing to resume from (`resume: 0`): every
     reconnection gets gapTooOld, and the snapshot and history make the picture whole again.
  3. Restart: the daemon stopped and started again on the same port: the page reconnects, sees a
     new instance and draws the new run's strokes afresh; then over the event stream, with a new
     daemon whose seq has passed the old one's when the page reconnects.
  4. Event stream: the same as 1 over Server-Sent Events (page.js?transport=sse).
  5. Pen: a pen-and-eraser recording (17) with hover subscribed (?hover=1).
  6. Fallback: a browser whose WebSockets never connect (as behind a proxy that drops upgrades)
     falls back to the event stream and draws the same; then "download SVG" is the daemon's
     picture and "clear" forgets the completed strokes.

Environment: STROKES_BIN (default .build/debug/strokes), CHROMIUM (default chromium).
"""
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # python3-websocket (websocket-client)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "ReplayTests", "Fixtures")
RECORDING_03 = os.path.join(FIXTURES, "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
RECORDING_01 = os.path.join(FIXTURES, "01-wacom-dth2242-touchscreen-10finger.evemu")
RECORDING_17 = os.path.join(FIXTURES, "17-wacom-cintiq12wx-pen-and-eraser.evemu")
STROKES = os.environ.get("STROKES_BIN", os.path.join(ROOT, ".build", "debug", "strokes"))
CHROMIUM = os.environ.get("CHROMIUM", "chromium")


class Failure(Exception):
    pass


# MARK: - What `strokes replay` prints, folded into strokes


def same_sample(a, b):
    return all(a.get(k) == b.get(k) for k in ("x", "y", "pressure", "touchMajor", "touchMinor", "orientation"))


def expected_strokes(recording):
    """The strokes of `strokes replay RECORDING`, in order of their `began`, folded as the page and
    `strokes render` fold them: `ended` adds its sample only when it differs from the last one."""
    out = subprocess.run([STROKES, "replay", recording], check=True, capture_output=True, text=True).stdout
    strokes, last = {}, {}
    still_active = None
    for line in out.splitlines():
        m = json.loads(line)
        t = m["type"]
        if t == "replayEnded":
            still_active = m["stillActive"]
            continue
        if t not in ("began", "moved", "ended", "cancelled"):
            continue
        sid = m["stroke"]
        point = [m["x"], m["y"], m["time"]]
        if t == "began":
            strokes[sid] = {"device": m["device"], "state": "live", "points": [point]}
        elif t == "moved":
            strokes[sid]["points"].append(point)
        elif t == "ended":
            if not same_sample(last[sid], m):
                strokes[sid]["points"].append(point)
            strokes[sid]["state"] = "ended"
        elif t == "cancelled":
            strokes[sid]["state"] = "cancelled"
            strokes[sid]["reason"] = m["reason"]
        last[sid] = m
    assert still_active is not None, "no replayEnded line"
    return [strokes[k] for k in sorted(strokes)]


def compare(page_state, expected, what):
    """Strokes of the page, in id order, against the expected ones, stroke by stroke."""
    got = [page_state["strokes"][k] for k in sorted(page_state["strokes"], key=int)]
    if len(got) != len(expected):
        raise Failure(f"{what}: the page has {len(got)} strokes, strokes replay {len(expected)}")
    for i, (g, e) in enumerate(zip(got, expected)):
        for key in ("device", "state", "reason"):
            if g.get(key) != e.get(key):
                raise Failure(f"{what}: stroke #{i + 1}: {key} {g.get(key)!r}, expected {e.get(key)!r}")
        if g["points"] != e["points"]:
            n = next((j for j, (a, b) in enumerate(zip(g["points"], e["points"])) if a != b), min(len(g["points"]), len(e["points"])))
            raise Failure(
                f"{what}: stroke #{i + 1}: {len(g['points'])} points, expected {len(e['points'])}; first difference at point {n}: "
                f"{g['points'][n] if n < len(g['points']) else None} vs {e['points'][n] if n < len(e['points']) else None}"
            )


# MARK: - The daemon


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    def __init__(self, recording, speed, port, directory, config=None):
        self.port = port
        self.log = open(os.path.join(directory, "daemon.log"), "ab")
        extra = []
        if config is not None:
            extra = ["--config", os.path.join(directory, "strokes.yaml")]
            with open(extra[1], "w") as f:
                f.write(config)
        self.process = subprocess.Popen(
            [STROKES, "daemon", "--replay", recording, "--speed", str(speed), "--no-loop",
             "--socket", os.path.join(directory, "strokes.sock"), "--http", f"127.0.0.1:{port}"] + extra,
            stdout=self.log, stderr=self.log,
        )
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None:
                raise Failure(f"the daemon exited with {self.process.returncode} (log: {self.log.name})")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise Failure("the daemon's HTTP listener did not come up within 20 s")
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# MARK: - The browser, through the DevTools protocol


class Browser:
    def __init__(self, directory, width=1100, height=900):
        profile = os.path.join(directory, "profile")
        os.makedirs(profile, exist_ok=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        if os.path.exists(port_file):
            os.remove(port_file)  # a previous browser's
        self.log = open(os.path.join(directory, "chromium.log"), "ab")
        args = [CHROMIUM, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={profile}",
                f"--window-size={width},{height}", "--hide-scrollbars", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 30
        while not (os.path.exists(port_file) and len(open(port_file).read().split()) >= 2):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise Failure(f"chromium did not start (log: {self.log.name})")
            time.sleep(0.05)
        self.ws = None
        self.next_id = 0
        self.console = []
        try:
            port = open(port_file).read().split()[0]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
                pages = [t for t in json.load(r) if t["type"] == "page"]
            self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
            self.call("Runtime.enable")
            self.call("Page.enable")
            self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == my_id:
                if "error" in m:
                    raise Failure(f"{method}: {m['error']}")
                return m.get("result", {})
            if m.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in m["params"]["args"]))
            elif m.get("method") == "Runtime.exceptionThrown":
                self.console.append("exception: " + json.dumps(m["params"]["exceptionDetails"])[:500])

    def evaluate(self, expression, awaiting=False):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=awaiting)
        if "exceptionDetails" in r:
            raise Failure(f"{expression}: {r['exceptionDetails'].get('exception', {}).get('description', r['exceptionDetails'])}")
        return r["result"].get("value")

    def navigate(self, url):
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && !!window.strokesState", 20, "the page did not load")

    def state(self):
        return self.evaluate("JSON.parse(JSON.stringify(window.strokesState))")

    def wait_for(self, expression, seconds, message):
        deadline = time.monotonic() + seconds
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise Failure(message)
            time.sleep(0.05)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        if self.ws is not None:
            self.ws.close()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


def wait_quiet(browser, expected, seconds, what):
    """Waits until the page holds as many strokes as expected, none of them live (unless expected
    so), and its last seq has not moved for half a second."""
    want = len(expected)
    live = sum(1 for s in expected if s["state"] == "live")
    browser.wait_for(
        f"(() => {{ const s = window.strokesState; const v = Object.values(s.strokes);"
        f" return s.connected && v.length === {want} && v.filter(x => x.state === 'live').length === {live}; }})()",
        seconds, f"{what}: the page did not reach {want} strokes within {seconds} s",
    )
    last, since = None, time.monotonic()
    while time.monotonic() - since < 0.5:
        seq = browser.evaluate("window.strokesState.lastSeq")
        if seq != last:
            last, since = seq, time.monotonic()
        time.sleep(0.05)
    return browser.state()


# MARK: - Checks


def check_websocket(browser, directory, expected):
    port = free_port()
    daemon = Daemon(RECORDING_03, 1, port, directory)
    try:
        browser.navigate(f"http://127.0.0.1:{port}/")
        state = wait_quiet(browser, expected, 30, "websocket")
        if state["transport"] != "ws":
            raise Failure(f"websocket: the page used {state['transport']}")
        compare(state, expected, "websocket")
        if not state["devices"]:
            raise Failure("websocket: the page has no devices")
        return port, daemon, state
    except BaseException:
        daemon.stop()
        raise


def check_restart(browser, directory, expected, port, daemon, before, transport="ws", speed=1):
    """Stops `daemon` and starts a new one on `port` at `speed`: the page must notice, reconnect
    to the new instance over `transport` and draw its strokes afresh."""
    what = "restart" if transport == "ws" else f"restart ({transport})"
    daemon.stop()
    browser.wait_for("!window.strokesState.connected", 10, f"{what}: the page did not notice the daemon stopped")
    daemon = Daemon(RECORDING_03, speed, port, directory)
    try:
        browser.wait_for(f"window.strokesState.instance !== {json.dumps(before['instance'])}", 30,
                         f"{what}: the page did not reconnect to the new daemon")
        state = wait_quiet(browser, expected, 30, what)
        if state["transport"] != transport:
            raise Failure(f"{what}: the page used {state['transport']}")
        compare(state, expected, what)
    finally:
        daemon.stop()


def check_restart_event_stream(browser, directory, expected):
    """A restart seen over the event stream: the page must open the stream again from the new
    instance's start. It reopened it with the old instance's last seq, and the new daemon resumed
    after that number of its own (an adversary's finding: its first strokes never appeared)."""
    port = free_port()
    daemon = Daemon(RECORDING_03, 1, port, directory)
    try:
        browser.navigate(f"http://127.0.0.1:{port}/?transport=sse")
        before = wait_quiet(browser, expected, 30, "restart (sse)")
    except BaseException:
        daemon.stop()
        raise
    # The new daemon serves the whole recording at once, so its seq is past the old one's by the
    # time the page reconnects: a resume after the old seq would skip every stroke.
    check_restart(browser, directory, expected, port, daemon, before, transport="sse", speed=0)


def check_resume(browser, directory, expected, transport, gaps=False):
    port = free_port()
    # 03 lasts 0.57 s: at a tenth of its pace, about 6 s with fingers down throughout. With
    # `resume: 0` the daemon keeps nothing to resume from: every reconnection is a gap.
    daemon = Daemon(RECORDING_03, 0.1, port, directory, config="resume: 0\n" if gaps else None)
    try:
        browser.navigate(f"http://127.0.0.1:{port}/?transport={transport}")
        browser.wait_for("window.strokesState.connected && window.strokesState.lastSeq > 0", 20, "resume: no connection")
        drops = 0
        for _ in range(6):
            time.sleep(0.6)
            browser.wait_for("window.strokesState.connected", 10, "resume: the page did not reconnect")
            browser.evaluate("window.__strokesTest.dropConnection()")
            drops += 1
        what = f"gapTooOld ({transport})" if gaps else f"resume ({transport})"
        state = wait_quiet(browser, expected, 30, what)
        compare(state, expected, what)
        if gaps:
            if state["transport"] != transport or state["gaps"] == 0:
                raise Failure(f"{what}: {state['transport']}, {drops} drops, {state['gaps']} gaps")
            return drops, state["gaps"]
        if state["transport"] != transport or state["resumes"] < drops or state["gaps"] != 0:
            raise Failure(f"{what}: {state['transport']}, {drops} drops, {state['resumes']} resumed, {state['gaps']} gaps")
        return drops
    finally:
        daemon.stop()


def check_history_pages(browser, directory, expected, transport):
    """A page that arrives after every stroke ended, on a daemon that keeps nothing to resume
    from and answers `history` a page of one stroke at a time: the picture is whole only if the
    page follows `cursor` to the last page."""
    port = free_port()
    daemon = Daemon(RECORDING_03, 0, port, directory, config="resume: 0\nhistoryPageBytes: 4096\n")
    try:
        deadline = time.monotonic() + 20
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/history", timeout=5) as r:
                first = json.loads(r.read())
            if "cursor" in first and not json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/live", timeout=5).read())["strokes"]:
                break
            if time.monotonic() > deadline:
                raise Failure(f"history pages ({transport}): the daemon's history is not paged: {first}")
            time.sleep(0.1)
        browser.navigate(f"http://127.0.0.1:{port}/?transport={transport}")
        what = f"history pages ({transport})"
        state = wait_quiet(browser, expected, 30, what)
        compare(state, expected, what)
        if state["transport"] != transport or state["gaps"] == 0:
            raise Failure(f"{what}: {state['transport']}, {state['gaps']} gaps")
        return len(first["strokes"])
    finally:
        daemon.stop()


def check_event_stream(browser, directory, expected):
    port = free_port()
    daemon = Daemon(RECORDING_03, 1, port, directory)
    try:
        browser.navigate(f"http://127.0.0.1:{port}/?transport=sse")
        state = wait_quiet(browser, expected, 30, "event stream")
        if state["transport"] != "sse":
            raise Failure(f"event stream: the page used {state['transport']}")
        compare(state, expected, "event stream")
    finally:
        daemon.stop()


def check_pen(browser, directory):
    expected = expected_strokes(RECORDING_17)
    port = free_port()
    daemon = Daemon(RECORDING_17, 1, port, directory)  # hover is not resumed: it must come after the page subscribes
    try:
        browser.navigate(f"http://127.0.0.1:{port}/?hover=1")
        state = wait_quiet(browser, expected, 60, "pen")
        compare(state, expected, "pen")
        if state["hoverEvents"] == 0:
            raise Failure("pen: no hover drawn")
        return len(expected), state["hoverEvents"]
    finally:
        daemon.stop()


# A WebSocket that never connects: closes (as a refused upgrade does) right after it is made.
FAILING_WEBSOCKET = """
window.WebSocket = class {
  constructor() { this.readyState = 0; setTimeout(() => { this.readyState = 3; if (this.onclose) this.onclose({}); }, 10); }
  send() {}
  close() {}
};
window.WebSocket.OPEN = 1;
"""


def check_fallback(browser, directory, expected):
    port = free_port()
    daemon = Daemon(RECORDING_03, 1, port, directory)
    script = browser.call("Page.addScriptToEvaluateOnNewDocument", source=FAILING_WEBSOCKET)["identifier"]
    try:
        browser.navigate(f"http://127.0.0.1:{port}/")
        state = wait_quiet(browser, expected, 30, "fallback")
        if state["transport"] != "sse":
            raise Failure(f"fallback: the page used {state['transport']}")
        compare(state, expected, "fallback")
        # "download SVG" is the daemon's picture; "clear" forgets the completed strokes.
        svg = browser.evaluate("fetch(document.getElementById('download').href).then(r => r.status + ' ' + r.headers.get('content-type'))",
                               awaiting=True)
        if not svg.startswith("200 image/svg+xml"):
            raise Failure(f"download SVG: {svg}")
        browser.evaluate("document.getElementById('clear').click()")
        if browser.evaluate("Object.keys(window.strokesState.strokes).length") != 0:
            raise Failure("clear: strokes remain")
    finally:
        browser.call("Page.removeScriptToEvaluateOnNewDocument", identifier=script)
        daemon.stop()


def run_tests():
    directory = tempfile.mkdtemp(prefix="strokes-browser-")
    started = time.monotonic()
    expected = expected_strokes(RECORDING_03)
    browser = Browser(directory)
    ok = False
    try:
        port, daemon, state = check_websocket(browser, directory, expected)
        print(f"browser: websocket: {len(expected)} strokes, {state['events']} events equal strokes replay")
        check_restart(browser, directory, expected, port, daemon, state)
        print("browser: restart: the page reconnected to a new instance and drew its strokes afresh")
        check_restart_event_stream(browser, directory, expected)
        print("browser: restart (sse): the event stream opened again from the new instance's start, every stroke drawn")
        for transport in ("ws", "sse"):
            drops = check_resume(browser, directory, expected, transport)
            print(f"browser: resume ({transport}): {drops} dropped connections, each resumed, nothing lost or doubled")
        for transport in ("ws", "sse"):
            drops, gaps = check_resume(browser, directory, expected, transport, gaps=True)
            print(f"browser: gapTooOld ({transport}): {drops} dropped connections, {gaps} gaps, made whole by snapshot and history")
        for transport in ("ws", "sse"):
            per_page = check_history_pages(browser, directory, expected, transport)
            print(f"browser: history pages ({transport}): {len(expected)} completed strokes, {per_page} per page, all drawn")
        check_event_stream(browser, directory, expected)
        print(f"browser: event stream: {len(expected)} strokes equal strokes replay")
        pen, hover = check_pen(browser, directory)
        print(f"browser: pen: {pen} pen and eraser strokes equal strokes replay; {hover} hover events drawn")
        check_fallback(browser, directory, expected)
        print("browser: fallback: WebSocket failing, the page used the event stream and drew the same")
        ok = True
    except Failure as e:
        print(f"browser: FAIL: {e}")
        for line in browser.console[-20:]:
            print(f"  console: {line}")
    finally:
        browser.close()
        if ok:
            shutil.rmtree(directory, ignore_errors=True)
        else:
            print(f"browser: logs kept in {directory}")
    print(f"browser: {'pass' if ok else 'FAILED'} in {time.monotonic() - started:.1f} s")
    return 0 if ok else 1


def take_screenshot(out):
    """The page during recording 01: twenty strokes drawn, all ten fingers down (for 1.6 s)."""
    directory = tempfile.mkdtemp(prefix="strokes-screenshot-")
    port = free_port()
    daemon = Daemon(RECORDING_01, 1, port, directory)
    browser = Browser(directory, width=1000, height=760)
    try:
        browser.navigate(f"http://127.0.0.1:{port}/")
        browser.wait_for(
            "Object.values(window.strokesState.strokes).filter(s => s.state === 'live').length >= 10"
            " && Object.keys(window.strokesState.strokes).length >= 20",
            120, "the page never showed ten fingers down after twenty strokes",
        )
        time.sleep(0.3)
        browser.screenshot(out)
    finally:
        browser.close()
        daemon.stop()
        shutil.rmtree(directory, ignore_errors=True)
    print(f"screenshot: {out} ({os.path.getsize(out)} bytes)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "test":
        sys.exit(run_tests())
    if len(sys.argv) == 3 and sys.argv[1] == "screenshot":
        sys.exit(take_screenshot(sys.argv[2]))
    print(__doc__, file=sys.stderr)
    sys.exit(64)
