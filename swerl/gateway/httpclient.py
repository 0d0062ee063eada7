"""A small pooled HTTP/1.1 client on asyncio streams.

Why not httpx: its per-request overhead (~0.5 ms of Python) alone would cap a one-core gateway
below the throughput goal. This does only what an OpenAI-compatible engine needs: keep-alive
requests, Content-Length or chunked (SSE) bodies, timeouts, and a retry of a request that failed
on a *reused* idle connection before any response byte arrived (the server had closed it).
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit


class TransportError(Exception):
    """The request could not be completed: connect failure, reset, protocol error."""


class TransportTimeout(TransportError):
    """Connect or read took longer than its limit."""


@dataclass(slots=True)
class HttpResponse:
    status: int
    headers: dict[str, str]
    body: bytes = b""


@dataclass(slots=True)
class _Conn:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    reused: bool = False

    def usable(self) -> bool:
        return not (self.reader.at_eof() or self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


@dataclass(slots=True)
class StreamingResponse:
    """An open response whose body is read incrementally (chunked SSE from an engine)."""

    status: int
    headers: dict[str, str]
    _pool: HttpPool
    _conn: _Conn
    _remaining: int | None = None  # Content-Length left; None: chunked or read-to-EOF
    _done: bool = field(default=False)

    @property
    def _chunked(self) -> bool:
        return self.headers.get("transfer-encoding", "").lower() == "chunked"

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        """Yield body pieces as they arrive; each read is bounded by the pool's read timeout."""
        reader = self._conn.reader
        chunked = self._chunked
        try:
            while True:
                async with asyncio.timeout(self._pool.read_timeout):
                    if chunked:
                        size_line = await reader.readuntil(b"\r\n")
                        size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
                        if size == 0:
                            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                                pass
                            self._done = True
                            return
                        data = await reader.readexactly(size + 2)
                        yield data[:-2]
                    elif self._remaining is not None:
                        data = await self.read()
                        if data:
                            yield data
                        return
                    else:
                        data = await reader.read(65536)
                        if not data:
                            return  # read-to-EOF body: complete, but the connection is spent
                        yield data
        except TimeoutError as exc:
            raise TransportTimeout("read timed out") from exc
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            raise TransportError(f"stream broke: {exc!r}") from exc

    async def read(self) -> bytes:
        """The whole body; a known length is one read (the hot path: an engine's JSON answer)."""
        if self._remaining is None:
            return b"".join([p async for p in self.iter_bytes()])
        try:
            async with asyncio.timeout(self._pool.read_timeout):
                data = await self._conn.reader.readexactly(self._remaining)
        except TimeoutError as exc:
            raise TransportTimeout("body read timed out") from exc
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            raise TransportError(f"body read failed: {exc!r}") from exc
        self._remaining = 0
        self._done = True
        return data

    async def aclose(self) -> None:
        """Return the connection to the pool only if the body was read to its delimited end."""
        keep = self._done and self.headers.get("connection", "").lower() != "close"
        self._pool._release(self._conn, reusable=keep)


def _parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise TransportError(f"bad status line {lines[0][:80]!r}")
    status = int(parts[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers


class HttpPool:
    """Keep-alive connections to one origin (scheme://host:port), bounded in number."""

    def __init__(self, base_url: str, *, max_connections: int = 1024, connect_timeout: float = 5.0,
                 read_timeout: float = 600.0) -> None:
        u = urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"unsupported URL {base_url!r}: need http(s)://host[:port]")
        self.host = u.hostname
        self.port = u.port or (443 if u.scheme == "https" else 80)
        self.prefix = u.path.rstrip("/")
        self._ssl = ssl.create_default_context() if u.scheme == "https" else None
        self._host_header = f"{self.host}:{self.port}".encode()
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self._idle: deque[_Conn] = deque()
        self._slots = asyncio.Semaphore(max_connections)

    async def _open(self) -> _Conn:
        try:
            async with asyncio.timeout(self.connect_timeout):
                reader, writer = await asyncio.open_connection(self.host, self.port, ssl=self._ssl,
                                                               limit=1 << 20)
        except TimeoutError as exc:
            raise TransportTimeout(f"connect to {self.host}:{self.port} timed out") from exc
        except OSError as exc:
            raise TransportError(f"connect to {self.host}:{self.port} failed: {exc}") from exc
        return _Conn(reader, writer)

    async def _acquire(self) -> _Conn:
        await self._slots.acquire()
        while self._idle:
            conn = self._idle.pop()
            if conn.usable():
                conn.reused = True
                return conn
            conn.close()
        try:
            return await self._open()
        except BaseException:
            self._slots.release()
            raise

    def _release(self, conn: _Conn, reusable: bool) -> None:
        if reusable and conn.usable():
            self._idle.append(conn)
        else:
            conn.close()
        self._slots.release()

    def _head(self, method: str, path: str, body: bytes, headers: dict[str, str] | None) -> bytes:
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items()) if headers else ""
        return (b"%s %s%s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n%s\r\n"
                % (method.encode(), self.prefix.encode(), path.encode(), self._host_header, len(body),
                   extra.encode("latin-1")))

    async def _start(self, method: str, path: str, body: bytes,
                     headers: dict[str, str] | None) -> tuple[_Conn, int, dict[str, str]]:
        data = self._head(method, path, body, headers) + body
        for _ in range(3):
            conn = await self._acquire()
            try:
                conn.writer.write(data)
                async with asyncio.timeout(self.read_timeout):
                    status, hdrs = _parse_head(await conn.reader.readuntil(b"\r\n\r\n"))
                return conn, status, hdrs
            except TimeoutError as exc:
                self._release(conn, reusable=False)
                raise TransportTimeout("no response head within read timeout") from exc
            except (OSError, asyncio.IncompleteReadError) as exc:
                self._release(conn, reusable=False)
                # A reused idle connection the server had already closed: it never saw the request.
                if conn.reused and (not isinstance(exc, asyncio.IncompleteReadError) or not exc.partial):
                    continue
                raise TransportError(f"request failed: {exc!r}") from exc
            except (asyncio.LimitOverrunError, ValueError, TransportError) as exc:
                self._release(conn, reusable=False)
                raise TransportError(f"bad response: {exc!r}") from exc
            except BaseException:
                self._release(conn, reusable=False)
                raise
        raise TransportError("connection kept closing before a response")

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> HttpResponse:
        """One request, body read fully; raises TransportError/TransportTimeout on transport trouble."""
        resp = await self.stream(method, path, body, headers)
        try:
            data = await resp.read()
        finally:
            await resp.aclose()
        return HttpResponse(resp.status, resp.headers, data)

    async def stream(self, method: str, path: str, body: bytes = b"",
                     headers: dict[str, str] | None = None) -> StreamingResponse:
        """Start a request and return once the response head arrived; caller must `aclose()` it."""
        conn, status, hdrs = await self._start(method, path, body, headers)
        remaining = None
        if "content-length" in hdrs and hdrs.get("transfer-encoding", "").lower() != "chunked":
            try:
                remaining = int(hdrs["content-length"])
            except ValueError:
                self._release(conn, reusable=False)
                raise TransportError("bad content-length") from None
        return StreamingResponse(status, hdrs, self, conn, remaining)

    async def aclose(self) -> None:
        while self._idle:
            self._idle.pop().close()
