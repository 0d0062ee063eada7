"""The local web server of `swerl view`: the page, its assets, and `/api/<key>` page data.

The standard library's threading HTTP server: nothing to start but a socket, so the page is up
before a large run's files have been read. Loopback by default; a request whose Host header is not
the address served is refused (a page elsewhere cannot reach the viewer through DNS rebinding).
Only GET/HEAD; assets from a fixed list shipped in the package; every `/api` key is validated by
`RunSource.get`. Any unexpected error is a 500 with a generic message (the details go to the log).
"""

from __future__ import annotations

import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from swerl.log import get_logger
from swerl.view.source import RunSource, ViewError
from swerl.view.train_run import dumps

log = get_logger(__name__)
ASSETS = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html"}
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"
MAX_TARGET = 2048
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def asset(name: str) -> bytes:
    """A static file shipped in the package (`swerl/view/static/`)."""
    return resources.files("swerl.view").joinpath("static", name).read_bytes()


def _host_of(header: str) -> str:
    """`Host: name:port` -> name (`[::1]:8000` -> `[::1]`)."""
    if header.startswith("["):
        return header.split("]", 1)[0] + "]"
    return header.rsplit(":", 1)[0]


class Handler(BaseHTTPRequestHandler):
    source: RunSource
    hosts: tuple[str, ...]  # empty: any (bound to a non-loopback address on purpose)
    server_version = "swerl-view"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("view request", line=format % args)

    def _send(self, status: int, body: bytes, ctype: str, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _error(self, status: int, message: str, head: bool = False) -> None:
        self._send(status, dumps({"error": message, "status": status}), "application/json", head)

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def do_GET(self, head: bool = False) -> None:
        if self.hosts and _host_of(self.headers.get("Host") or "") not in self.hosts:
            return self._error(HTTPStatus.FORBIDDEN, "unexpected Host header", head)
        target = self.path
        if len(target) > MAX_TARGET or not target.startswith("/"):
            return self._error(HTTPStatus.BAD_REQUEST, "bad request target", head)
        path = target.split("#", 1)[0]
        if path in ("/", "/index.html"):
            return self._send(HTTPStatus.OK, asset("index.html"), "text/html", head)
        if path.startswith("/static/") and path[8:] in ASSETS:
            name = path[8:]
            return self._send(HTTPStatus.OK, asset(name), ASSETS[name], head)
        if path.startswith("/api/"):
            return self._api(path[5:], head)
        return self._error(HTTPStatus.NOT_FOUND, "not found", head)

    def _api(self, key: str, head: bool) -> None:
        try:
            body = dumps(self.source.get(key))
        except ViewError as exc:
            return self._error(exc.status, str(exc), head)
        except Exception as exc:  # a damaged store or file: say so without a traceback on the page
            log.warning("view page failed", key=key[:200], error=f"{type(exc).__name__}: {exc}")
            return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "could not read this page from the run's files "
                               "(see the terminal's log)", head)
        self._send(HTTPStatus.OK, body, "application/json", head)

    def _refuse(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "read-only: GET and HEAD only")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse


class ViewServer:
    """A started server in a background thread (`url`, `close()`); port 0 picks a free port."""

    def __init__(self, source: RunSource, host: str = "127.0.0.1", port: int = 0) -> None:
        hosts = (*LOOPBACK, f"[{host}]") if host in LOOPBACK else ()
        handler = type("BoundHandler", (Handler,), {"source": source, "hosts": hosts})
        server = type("Server", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6}) if ":" in host \
            else ThreadingHTTPServer
        self.httpd = server((host, port), handler)
        self.httpd.daemon_threads = True
        self.host, self.port = host, int(self.httpd.server_address[1])
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="swerl-view", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        h = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{h}:{self.port}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


__all__ = ["ViewServer", "asset"]
