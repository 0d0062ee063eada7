"""A recording gateway inside this process (a uvicorn thread on loopback), for `swerl data probe` and tests.

The probe must take the training path (harness -> gateway proxy -> engine) without asking the
user to start a gateway; the admin token is random and never leaves the process.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from swerl.gateway.client import GatewayClient


class LocalGateway:
    """`with LocalGateway(store, upstreams=[url]) as gw: gw.client ...`"""

    def __init__(self, store: Path, upstreams: list[str] | None = None, *, upstream_model: str | None = None,
                 admin_token: str | None = None, tokenizer: Any = None, **config: Any) -> None:
        self.store = Path(store)
        self.admin_token = admin_token or ("swr_admin_" + secrets.token_urlsafe(32))
        self.upstreams = list(upstreams or [])
        self.upstream_model = upstream_model
        self.tokenizer = tokenizer
        self.config = config
        self.server: Any = None
        self.gateway: Any = None
        self.client: GatewayClient | None = None

    def start(self) -> LocalGateway:
        from swerl.config import GatewaySettings
        from swerl.gateway.app import create_app
        from swerl.gateway.server import ServerThread
        from swerl.gateway.service import Gateway

        self.store.parent.mkdir(parents=True, exist_ok=True)
        self.gateway = Gateway(GatewaySettings(store=str(self.store), **self.config), admin_token=self.admin_token,
                               upstreams=self.upstreams, upstream_model=self.upstream_model, tokenizer=self.tokenizer)
        self.server = ServerThread(create_app(self.gateway)).start()
        self.client = GatewayClient(self.url, self.admin_token)
        return self

    @property
    def url(self) -> str:
        return self.server.url

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.server is not None:
            self.server.stop()

    def __enter__(self) -> LocalGateway:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
