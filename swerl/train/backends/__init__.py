"""Training backends behind one interface: `torch` (built in, one process) and `verl` (Ray workers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from swerl.train.schema import Sample


@runtime_checkable
class TrainingBackend(Protocol):
    """What the trainer loop (issue 6) calls; the verl backend (issue 8) implements the same."""

    def update(self, samples: Sequence[Sample], advantages: Sequence[float] | None = None, *,
               update_index: int | None = None) -> dict[str, float]:
        """One optimizer step on `samples` (whole rollouts). `advantages`: one per sample, or None to let
        a critic compute them (SAO). `update_index`: how many loop updates came before this one (SAO's
        critic warm-up counts updates; None = count optimizer steps). Returns metrics, with
        `policy/updated` 0.0 when the policy did not change (SAO warm-up, or a zero gradient:
        `policy/steps_skipped`), and `mismatch/*` (docs/algorithms.md sec. 4) whenever the policy loss ran."""
        ...

    def compute_logprobs(self, samples: Sequence[Sample]) -> list[Any]:
        """Log-probs of each sample's tokens under the current weights, aligned like `rollout_logprobs` (0 off
        the loss mask): pi_old when `algorithm.recompute_old_logprobs` is on (docs/algorithms.md sec. 4)."""
        ...

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume exactly (weights, optimizer states, step counters)."""
        ...

    def load_state_dict(self, state: dict[str, Any]) -> None: ...

    def policy_weights(self) -> dict[str, Any]:
        """The policy's parameters by name, for syncing an inference engine."""
        ...


__all__ = ["TrainingBackend"]
