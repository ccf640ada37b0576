"""Headless Chromium driven through the DevTools protocol over a pipe.

Chromium started with --remote-debugging-pipe reads protocol commands from its fd 3 and
writes replies and events to its fd 4, NUL-separated JSON: no port to pick or to race for,
no driver program to match versions with, nothing beyond Python's standard library. Every
wait has a deadline, and the browser's whole process group is killed when it is closed.
"""

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time


class BrowserError(Exception):
    """The browser failed, went away, or did not answer in time."""


def find_chromium():
    """The browser to run: $SPRIG_CHROMIUM, else Debian's chromium on the PATH; None if neither."""
    chosen = os.environ.get("SPRIG_CHROMIUM")
    if chosen:
        return chosen if os.access(chosen, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium with a fresh profile in a temporary folder."""

    def __init__(self, executable, log_path, width=1280, height=800, timeout=60):
        self.width, self.height = width, height
        self._profile = tempfile.mkdtemp(prefix="sprig-chromium-")
        self._log_path = log_path
        self._buffer = b""
        self._next_id = 0
        self.events = []  # every event received, in order: {"method", "params", "sessionId"}
        to_child_read, self._to_child = os.pipe()
        self._from_child, from_child_write = os.pipe()

        def arrange_fds():  # in the child, before exec: the pipe's ends become fds 3 and 4
            commands, replies = os.dup(to_child_read), os.dup(from_child_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        args = [
            executable,
            "--headless=new",
            "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
            "--remote-debugging-pipe",
            "--user-data-dir=" + self._profile,
            "--window-size=%d,%d" % (width, height),
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--mute-audio",
            "about:blank",
        ]
        self._log = open(log_path, "wb")
        try:
            # close_fds=False keeps fds 3 and 4 made in arrange_fds; Python's own fds are not
            # inheritable, so nothing else leaks into the browser.
            self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                                             preexec_fn=arrange_fds, close_fds=False, start_new_session=True)
        except OSError as e:
            self._log.close()
            os.close(self._to_child)
            os.close(self._from_child)
            shutil.rmtree(self._profile, ignore_errors=True)
            raise BrowserError("cannot start %s: %s" % (executable, e))
        finally:
            os.close(to_child_read)
            os.close(from_child_write)
        try:
            version = self.call("Browser.getVersion", timeout=timeout)
        except BrowserError:
            self.close()
            raise
        self.version = version.get("product", "?")

    def log_tail(self, lines=30):
        try:
            with open(self._log_path, "rb") as f:
                return b"\n".join(f.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError:
            return ""

    def _send(self, message, deadline):
        data = json.dumps(message).encode() + b"\0"
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("the browser does not take commands (%s)" % message.get("method"))
            _, writable, _ = select.select([], [self._to_child], [], left)
            if writable:
                try:
                    data = data[os.write(self._to_child, data):]
                except OSError as e:
                    raise BrowserError("the browser went away: %s\n%s" % (e, self.log_tail()))

    def _receive(self, deadline):
        """The next message from the browser, or None at the deadline."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            readable, _, _ = select.select([self._from_child], [], [], left)
            if not readable:
                return None
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe (did it crash?)\n" + self.log_tail())
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=30):
        """Sends a command and waits for its reply, keeping the events that come meanwhile."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        deadline = time.monotonic() + timeout
        self._send(message, deadline)
        while True:
            reply = self._receive(deadline)
            if reply is None:
                raise BrowserError("no reply to %s within %d s" % (method, timeout))
            if "id" not in reply:
                self.events.append(reply)
            elif reply["id"] == self._next_id:
                if "error" in reply:
                    raise BrowserError("%s failed: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def wait_for_event(self, method, session=None, timeout=30, seen=0):
        """The first event `method` (of `session`) after the first `seen` events."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method and (session is None or event.get("sessionId") == session):
                    return event
            seen = len(self.events)
            message = self._receive(deadline)
            if message is None:
                raise BrowserError("no %s event within %d s" % (method, timeout))
            if "id" not in message:
                self.events.append(message)

    def close(self):
        if self._process.poll() is None:
            try:
                self.call("Browser.close", timeout=5)
            except BrowserError:
                pass
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        # Renderers and helpers live in the browser's session: none may outlive the test.
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """A tab of `browser`, its viewport fixed, recording script errors and network requests."""

    def __init__(self, browser):
        self.browser = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": browser.width, "height": browser.height, "deviceScaleFactor": 1, "mobile": False})

    def call(self, method, params=None, timeout=30):
        return self.browser.call(method, params, self.session, timeout)

    def navigate(self, url, timeout=30):
        seen = len(self.browser.events)
        result = self.call("Page.navigate", {"url": url}, timeout)
        if result.get("errorText"):
            raise BrowserError("cannot open %s: %s" % (url, result["errorText"]))
        self.browser.wait_for_event("Page.loadEventFired", self.session, timeout, seen)

    def evaluate(self, expression, timeout=30):
        """The value of a JavaScript expression (awaited if a promise); its exceptions raise."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError("%s: %s" % (expression[:80], details.get("exception", {}).get("description", details)))
        return result["result"].get("value")

    def settle(self):
        """Waits for two animation frames: what a click changed has been laid out."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")

    def click(self, selector):
        """A real left click (mouse events, as a user's) in the middle of the element."""
        point = self.evaluate("""(() => {
            const el = document.querySelector(%s);
            if (!el) return null;
            el.scrollIntoView({block: 'center', inline: 'center'});
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return {x: x, y: y, hits: hit !== null && (hit === el || el.contains(hit))};
        })()""" % json.dumps(selector))
        if point is None:
            raise BrowserError("nothing on the page matches %s" % selector)
        if not point["hits"]:
            raise BrowserError("%s is covered by another element" % selector)
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            event = {"type": kind, "x": point["x"], "y": point["y"]}
            if kind != "mouseMoved":
                event.update(button="left", buttons=1 if kind == "mousePressed" else 0, clickCount=1)
            self.call("Input.dispatchMouseEvent", event)
        self.settle()

    def problems(self, page_url):
        """Script errors, console errors and requests for anything but the page itself."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append("uncaught exception: %s" % details.get("exception", {}).get("description",
                                                                                          details.get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console.%s: %s" % (params["type"], [a.get("value", a.get("description"))
                                                                 for a in params.get("args", [])]))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append("browser log error: %s" % params["entry"].get("text"))
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if url != page_url and not url.startswith("about:"):
                    found.append("the page requested %s" % url)
        return found
