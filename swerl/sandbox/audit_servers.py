"""Loopback stand-ins for the outside world (GitHub, a PEP 503 index with one wheel, a DNS resolver answering
127.0.0.1), on the host's 127.0.0.1 only. A sandbox has its own network namespace: any request they record
from inside is an escape."""

from __future__ import annotations

import base64
import hashlib
import io
import socketserver
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

LOOPBACK = "127.0.0.1"
PACKAGE = "swerl-canary-pkg"
WHEEL = "swerl_canary_pkg-0.1-py3-none-any.whl"


def _wheel(token: str) -> bytes:
    """A minimal valid wheel whose module carries the canary token."""
    files = {
        "swerl_canary_pkg/__init__.py": f"TOKEN = {token!r}\n",
        "swerl_canary_pkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: swerl-canary-pkg\nVersion: 0.1\n",
        "swerl_canary_pkg-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: swerl\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append("swerl_canary_pkg-0.1.dist-info/RECORD,,")
    files["swerl_canary_pkg-0.1.dist-info/RECORD"] = "\n".join(record) + "\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


@dataclass
class Hits:
    http: list[str] = field(default_factory=list)
    index: list[str] = field(default_factory=list)
    dns: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def clear(self) -> None:
        with self.lock:
            self.http.clear()
            self.index.clear()
            self.dns.clear()

    def total(self) -> int:
        with self.lock:
            return len(self.http) + len(self.index) + len(self.dns)


def _handler(kind: str, hits: Hits, routes: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with hits.lock:
                getattr(hits, kind).append(self.path)
            ctype, body = routes.get(self.path.split("?", 1)[0], routes.get("*", ("text/plain", b"not found")))
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    return Handler


class _DNS(socketserver.BaseRequestHandler):
    hits: Hits

    def handle(self) -> None:
        data, sock = self.request
        if len(data) < 12:
            return
        # question name (labels) for the record, then answer: same id, QR=1, one A record 127.0.0.1
        i, labels = 12, []
        while i < len(data) and data[i]:
            labels.append(data[i + 1 : i + 1 + data[i]].decode(errors="replace"))
            i += data[i] + 1
        with self.hits.lock:
            self.hits.dns.append(".".join(labels))
        question = data[12 : i + 5]
        header = data[:2] + b"\x81\x80" + b"\x00\x01\x00\x01\x00\x00\x00\x00"
        answer = b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" + bytes([127, 0, 0, 1])
        sock.sendto(header + question + answer, self.client_address)


class LoopbackServers:
    """`with LoopbackServers(token) as s:` -> s.http_port, s.index_port, s.dns_port, s.hits."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.hits = Hits()
        self._servers: list[socketserver.BaseServer] = []
        self._threads: list[threading.Thread] = []

    def start(self) -> LoopbackServers:
        source = f"def answer():\n    return 42  # {self.token}\n".encode()
        gh = ThreadingHTTPServer((LOOPBACK, 0), _handler("http", self.hits, {"*": ("text/plain", source)}))
        wheel = _wheel(self.token)
        simple = f'<html><body><a href="/packages/{WHEEL}">{WHEEL}</a></body></html>'.encode()
        index = ThreadingHTTPServer((LOOPBACK, 0), _handler("index", self.hits, {
            "/simple/": ("text/html", f'<a href="/simple/{PACKAGE}/">{PACKAGE}</a>'.encode()),
            f"/simple/{PACKAGE}/": ("text/html", simple),
            f"/packages/{WHEEL}": ("application/octet-stream", wheel),
        }))
        dns_handler = type("DNSHandler", (_DNS,), {"hits": self.hits})
        dns = socketserver.ThreadingUDPServer((LOOPBACK, 0), dns_handler)
        for srv in (gh, index, dns):
            t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
            t.start()
            self._servers.append(srv)
            self._threads.append(t)
        self.http_port = gh.server_address[1]
        self.index_port = index.server_address[1]
        self.dns_port = dns.server_address[1]
        return self

    def stop(self) -> None:
        for srv in self._servers:
            srv.shutdown()
            srv.server_close()
        self._servers.clear()

    def __enter__(self) -> LoopbackServers:
        return self.start()

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
