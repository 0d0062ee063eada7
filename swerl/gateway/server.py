"""Run an ASGI app with uvicorn: in the foreground (`swerl gateway serve`) or in a background thread.
uvloop and httptools are used when installed (about 2x less CPU per request)."""

from __future__ import annotations

import asyncio
import importlib
import threading
import time
from typing import Any

import uvicorn


def _has(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def uvicorn_config(app: Any, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(app, host=host, port=port, loop="uvloop" if _has("uvloop") else "asyncio",
                          http="httptools" if _has("httptools") else "h11", log_level="warning", access_log=False,
                          backlog=4096, timeout_keep_alive=120, lifespan="on")


def serve(app: Any, host: str, port: int) -> None:
    uvicorn.Server(uvicorn_config(app, host, port)).run()


class ServerThread:
    """uvicorn in a daemon thread with its own event loop; `port` is known once `start()` returns."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        self.server = uvicorn.Server(uvicorn_config(app, host, port))
        self.server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        self.host = host
        self._thread = threading.Thread(target=self._run, daemon=True, name="uvicorn")
        self.loop: asyncio.AbstractEventLoop | None = None

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    def start(self, timeout: float = 30.0) -> ServerThread:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("server thread did not start")
            time.sleep(0.01)
        return self

    @property
    def port(self) -> int:
        return self.server.servers[0].sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=30)
