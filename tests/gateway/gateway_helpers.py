"""Helpers for gateway tests: in-thread and subprocess gateways, admin/rollout clients."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from swerl.config import GatewaySettings
from swerl.gateway.app import create_app
from swerl.gateway.server import ServerThread
from swerl.gateway.service import Gateway

ADMIN = "test-admin-token-0123456789"
ROOT = Path(__file__).resolve().parents[2]
A = {"Authorization": f"Bearer {ADMIN}"}


@dataclass
class GatewayHandle:
    gw: Gateway
    server: ServerThread
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.server.url

    def admin(self, timeout: float = 30) -> httpx.Client:
        c = httpx.Client(base_url=self.url, headers=A, timeout=timeout)
        self.clients.append(c)
        return c

    def create(self, rid: str, **body: Any) -> str:
        """Create a running rollout; returns its token."""
        c = self.admin()
        r = c.post("/rollouts", json={"id": rid, **body})
        assert r.status_code == 201, r.text
        assert c.patch(f"/rollouts/{rid}", json={"state": "running"}).status_code == 200
        return r.json()["token"]

    def rollout_client(self, rid: str, token: str, timeout: float = 60) -> httpx.Client:
        c = httpx.Client(base_url=f"{self.url}/v1/rollouts/{rid}", headers={"Authorization": f"Bearer {token}"},
                         timeout=timeout)
        self.clients.append(c)
        return c

    def events(self, rid: str, **params: Any) -> list[dict]:
        r = self.admin().get(f"/rollouts/{rid}/events", params={"limit": 1000, **params})
        assert r.status_code == 200, r.text
        return r.json()["items"]

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self.server.stop()


def start_gateway(tokenizer: Any = None, **kw: Any) -> GatewayHandle:
    kw.setdefault("retry_backoff_s", 0.01)
    process = {k: kw.pop(k) for k in ("admin_token", "upstreams", "upstream_model") if k in kw}
    gw = Gateway(GatewaySettings(**kw), **{"admin_token": ADMIN, **process}, tokenizer=tokenizer)
    return GatewayHandle(gw, ServerThread(create_app(gw)).start())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class GatewayProcess:
    """`python -m swerl.gateway serve` as a subprocess, so a test can kill -9 it."""

    def __init__(self, store: Path, upstream: str, tmp: Path, port: int | None = None, sync: str = "full") -> None:
        self.store, self.upstream, self.sync = store, upstream, sync
        self.port = port or free_port()
        self.token_file = tmp / "admin.token"
        self.token_file.write_text(ADMIN)
        self.log = tmp / "gateway.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> GatewayProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "swerl.gateway", "serve", "--store", str(self.store), "--port", str(self.port),
                 "--admin-token-file", str(self.token_file), "--upstream", self.upstream, "--sync", self.sync],
                env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(600):  # bounded: up to ~60 s on a loaded machine
            if self.proc.poll() is not None:
                raise RuntimeError(f"gateway exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("gateway did not come up")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
