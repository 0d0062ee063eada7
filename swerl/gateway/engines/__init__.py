"""Inference engines behind the gateway, all driven through one interface, `InferenceEngine`.

The training loop needs the same things from every engine: base URLs to register with the
gateway, `release()` before an update (vLLM sleeps), `load_weights(version)` after it, and
`close()`. `embedded.ServedEngine` serves a `TokenEngine` in-process on loopback (the embedded model,
weights synced from the trainer); `RemoteEngine` wraps OpenAI-compatible servers (vLLM) whose
lifecycle is its `owner`'s (the verl backend) or nobody's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


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


__all__ = ["EngineOwner", "InferenceEngine", "RemoteEngine"]
