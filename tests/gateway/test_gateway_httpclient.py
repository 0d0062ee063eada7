"""The pooled HTTP/1.1 client: keep-alive reuse, chunked bodies, stale connections, failures."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from swerl.gateway.httpclient import HttpPool, TransportError, TransportTimeout


async def _server(handler: Any) -> tuple[asyncio.AbstractServer, int]:
    srv = await asyncio.start_server(handler, "127.0.0.1", 0)
    return srv, srv.sockets[0].getsockname()[1]


async def _read_request(r: asyncio.StreamReader) -> bytes:
    head = await r.readuntil(b"\r\n\r\n")
    n = next((int(ln.split(b":")[1]) for ln in head.split(b"\r\n") if ln.lower().startswith(b"content-length")), 0)
    return await r.readexactly(n)


def test_keep_alive_reuse_and_chunked_bodies() -> None:
    conns = []

    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        conns.append(w)
        while True:
            try:
                body = await _read_request(r)
            except asyncio.IncompleteReadError:
                return
            if body == b"chunked":
                w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n")
            else:
                w.write(b"HTTP/1.1 201 Created\r\nContent-Length: %d\r\nX-Echo: yes\r\n\r\n%s" % (len(body), body))
            await w.drain()

    async def main() -> None:
        srv, port = await _server(handler)
        pool = HttpPool(f"http://127.0.0.1:{port}/v1")
        for i in range(5):
            r = await pool.request("POST", "/x", b"hello%d" % i)
            assert (r.status, r.body, r.headers["x-echo"]) == (201, b"hello%d" % i, "yes")
        assert (await pool.request("POST", "/x", b"chunked")).body == b"abcde"
        s = await pool.stream("POST", "/x", b"chunked")
        assert [p async for p in s.iter_bytes()] == [b"abc", b"de"]
        await s.aclose()
        assert (await pool.request("POST", "/x", b"after")).body == b"after"
        assert len(conns) == 1  # one connection, reused throughout
        await pool.aclose()
        srv.close()

    asyncio.run(main())


def test_a_connection_closed_while_idle_is_replaced_transparently() -> None:
    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        body = await _read_request(r)
        w.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await w.drain()
        w.close()  # the server drops keep-alive connections after one request

    async def main() -> None:
        srv, port = await _server(handler)
        pool = HttpPool(f"http://127.0.0.1:{port}")
        for i in range(4):
            assert (await pool.request("POST", "/", b"%d" % i)).body == b"%d" % i
        srv.close()

    asyncio.run(main())


def test_refused_and_timed_out() -> None:
    async def silent(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await asyncio.sleep(5)

    async def main() -> None:
        srv, port = await _server(silent)
        with pytest.raises(TransportTimeout):
            await HttpPool(f"http://127.0.0.1:{port}", read_timeout=0.2).request("POST", "/", b"x")
        srv.close()
        await srv.wait_closed()
        with pytest.raises(TransportError):
            await HttpPool(f"http://127.0.0.1:{port}").request("POST", "/", b"x")
        with pytest.raises(ValueError):
            HttpPool("ftp://x")

    asyncio.run(main())
