"""Gateway test fixtures: a fake engine and gateways served over real HTTP on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import ADMIN, GatewayHandle, start_gateway


@pytest.fixture
def fake() -> Iterator[FakeUpstream]:
    f = FakeUpstream(FakeConfig(prompt_len=40, response_len=8)).start_in_thread()
    yield f
    f.stop_thread()


@pytest.fixture
def gateway_factory(tmp_path: Path) -> Iterator[Any]:
    """Start gateways (config overrides as keywords); all are stopped at teardown."""
    started: list[GatewayHandle] = []

    def make(**kw: Any) -> GatewayHandle:
        kw.setdefault("store", str(tmp_path / f"gw{len(started)}.sqlite"))
        g = start_gateway(**kw)
        started.append(g)
        return g

    yield make
    for g in started:
        g.stop()


@pytest.fixture
def gw(gateway_factory: Any, fake: FakeUpstream) -> GatewayHandle:
    return gateway_factory(upstreams=[fake.url])


@pytest.fixture(scope="session")
def tiny_tok() -> Any:
    """The project's tiny BPE with the Qwen chat template (built once, then from the shared cache)."""
    from swerl.models import build_tiny_tokenizer

    return build_tiny_tokenizer()


@pytest.fixture(scope="session")
def tiny_model(tiny_tok: Any) -> Any:
    import torch

    from swerl.models import build_tiny_model

    torch.set_num_threads(1)
    return build_tiny_model(tiny_tok)


__all__ = ["ADMIN"]
