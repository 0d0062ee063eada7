"""Inference engines behind the gateway, all driven through one interface, `InferenceEngine`.

The training loop needs the same things from every engine: base URLs to register with the
gateway, `release()` before an update (vLLM sleeps), `load_weights(version)` after it, and
`close()`. `ServedEngine` serves a `TokenEngine` in-process on loopback (the embedded model,
weights synced from the trainer); `RemoteEngine` wraps OpenAI-compatible servers (vLLM) whose
lifecycle is its `owner`'s (the verl backend) or nobody's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from swerl.gateway.engines.openai_server import TokenEngine


@runtime_checkable
class InferenceEngine(Protocol):
    def urls(self) -> list[str]:
        """OpenAI base URLs (ending in /v1) for the gateway to forward to."""

    def release(self) -> None:
        """Before an update (the gateway has drained): free what the trainer needs (vLLM sleeps)."""

    def load_weights(self, version: int) -> None:
        """After an update: serve the policy of `version` from now on (awake again)."""

    def busy_seconds(self) -> tuple[float, int]:
        """Generation seconds and tokens so far (0, 0 when the engine does not tell)."""

    def close(self) -> None: ...


class ServedEngine:
    """A `TokenEngine` served over HTTP in a background thread; `weights()` gives the state dict to load."""

    def __init__(self, engine: TokenEngine, weights: Callable[[], dict[str, Any]] | None = None,
                 host: str = "127.0.0.1") -> None:
        from swerl.gateway.server import ServerThread

        self.engine = engine
        self.weights = weights
        self.server = ServerThread(engine.app(), host=host).start()

    def urls(self) -> list[str]:
        return [f"{self.server.url}/v1"]

    def release(self) -> None:
        """Nothing to free: the model stays in (CPU) memory and is idle once the gateway drained."""

    def load_weights(self, version: int) -> None:
        if self.weights is None:  # an engine without weights (a test's scripted one): only the version moves on
            self.engine.version = version
            return
        self.engine.load_weights(self.weights(), version=version)  # type: ignore[attr-defined]

    def busy_seconds(self) -> tuple[float, int]:
        return self.engine.busy_s, self.engine.tokens

    def close(self) -> None:
        self.server.stop()


class EngineOwner(Protocol):
    """Who runs remote engines (verl's backend and its vLLM replicas)."""

    def release_engine(self) -> None: ...

    def sync_weights(self, version: int) -> None: ...

    def shutdown(self) -> None: ...


@dataclass
class RemoteEngine:
    """OpenAI-compatible engines at `base_urls`; without an `owner` their lifecycle is someone else's."""

    base_urls: list[str]
    owner: EngineOwner | None = None
    version: int = field(default=0)
    vllm_metrics: bool = False  # vLLM servers exporting Prometheus metrics: busy time and tokens read from them
    _busy: Any = field(default=None, repr=False)

    def urls(self) -> list[str]:
        return list(self.base_urls)

    def release(self) -> None:
        if self.owner is not None:
            self.owner.release_engine()

    def load_weights(self, version: int) -> None:
        if self.owner is not None:
            self.owner.sync_weights(version)
        self.version = version

    def busy_seconds(self) -> tuple[float, int]:
        """vLLM's own counters (`vllm_metrics.BusyReader`: request-seconds, generated tokens); (0, 0) for
        engines that export none."""
        if not self.vllm_metrics:
            return 0.0, 0
        if self._busy is None:
            from swerl.gateway.engines.vllm_metrics import BusyReader

            self._busy = BusyReader(self.base_urls)
        return self._busy.read()

    def close(self) -> None:
        if self.owner is not None:
            self.owner.shutdown()


__all__ = ["EngineOwner", "InferenceEngine", "RemoteEngine", "ServedEngine"]
