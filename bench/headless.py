"""Headless Chromium over the DevTools protocol: load a page, wait for it to render, read the DOM, collect
console errors and uncaught exceptions, take screenshots. Used by tests/view and bench/view_open.py.

Debian's `chromium` (scripts/setup.sh installs it), started with a fresh profile and no network
features; the protocol's websocket through `websocket-client`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--allow-file-access-from-files", "--remote-debugging-port=0",
         "--window-size=1400,900")


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if p := shutil.which(name):
            return p
    return None


class Browser:
    """One Chromium process with one page; `close()` ends it and removes its profile."""

    def __init__(self, timeout: float = 30.0) -> None:
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("chromium is not installed (scripts/setup.sh installs Debian's chromium package)")
        self.profile = tempfile.mkdtemp(prefix="swerl-chromium-")
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while not (port_file.is_file() and port_file.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = int(port_file.read_text().split("\n")[0])
        pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10).read())
        ws_url = next(p["webSocketDebuggerUrl"] for p in pages if p.get("type") == "page")
        self.ws = websocket.create_connection(ws_url, timeout=timeout, suppress_origin=True)
        self._id = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def eval(self, expr: str) -> Any:
        res = self.send("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"{expr[:80]}: {res['exceptionDetails'].get('text')}")
        return res.get("result", {}).get("value")

    def goto(self, url: str, view: str | None = None, timeout: float = 30.0) -> float:
        """Navigate and wait until the page rendered (`body[data-view]` is `view`, or anything but loading).
        Returns the seconds from navigation to rendered."""
        t0 = time.perf_counter()
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        want = f"=== {json.dumps(view)}" if view else "!== 'loading'"
        while time.monotonic() < deadline:
            try:
                if self.eval(f"document.readyState === 'complete' && !!document.body && "
                             f"document.body.dataset.view !== undefined && document.body.dataset.view {want}"):
                    return time.perf_counter() - t0
            except RuntimeError:
                pass  # the old document went away mid-evaluation
            time.sleep(0.02)
        raise TimeoutError(f"{url}: not rendered as {view or 'any view'} within {timeout} s "
                           f"(view: {self.eval('document.body && document.body.dataset.view')})")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors since the last call."""
        self.send("Runtime.evaluate", expression="0")  # flush events queued before now
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(f"exception: {d.get('text')} {d.get('exception', {}).get('description', '')}")
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        self.events.clear()
        return out

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        import base64

        params: dict[str, Any] = {"format": "png"}
        if full_page:
            h = min(int(self.eval("document.documentElement.scrollHeight")), 2400)
            params["clip"] = {"x": 0, "y": 0, "width": 1400, "height": h, "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", **params)["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            ws.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


__all__ = ["Browser", "chromium_path"]
