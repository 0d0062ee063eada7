"""What the trainer needs from a harness: run one rollout against an OpenAI base URL, return a reward.

The harness is the agent program itself (mini-swe-agent, the toy), unchanged: it only
sees `base_url` + `api_key` (the gateway's per-rollout proxy and token). Failures are
classified here (ARCHITECTURE.md): an agent that fails gets `failed_agent` and reward 0
and is trained on; a broken environment (sandbox, engine, network to the gateway) raises
`InfraError`, and the rollout is retried as a new attempt, never trained as reward 0.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from swerl.errors import SwerlError


class InfraError(SwerlError):
    """The rollout could not run for reasons outside the agent's control (retried, not trained)."""


class Cancelled(InfraError):
    """The trainer is stopping; the rollout is abandoned (not retried)."""


@dataclass
class RolloutContext:
    """Everything one attempt of one rollout needs."""

    rollout_id: str
    group_id: str
    attempt: int
    base_url: str
    api_key: str
    task: dict[str, Any]
    split: Literal["train", "val"] = "train"
    temperature: float = 1.0
    max_tokens: int = 512
    max_steps: int = 30
    seed: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def check_stop(self) -> None:
        """Harnesses call this between turns so Ctrl-C ends rollouts at a turn boundary."""
        if self.stop.is_set():
            raise Cancelled(f"rollout {self.rollout_id}: trainer stopping")


@dataclass
class RolloutResult:
    """`state`: succeeded (finished; reward may still be 0) or failed_agent (the agent broke down).

    `data` goes into the reward event: grading details, hacking evidence (`dropped` test-file
    hunks, ...), whatever the report should be able to show later.
    """

    reward: float
    state: Literal["succeeded", "failed_agent"] = "succeeded"
    data: dict[str, Any] = field(default_factory=dict)


class Harness(Protocol):
    """One agent program. `run` is called from a worker thread, many at once."""

    name: str

    def run(self, ctx: RolloutContext) -> RolloutResult: ...

    def close(self) -> None: ...


__all__ = ["Cancelled", "Harness", "InfraError", "RolloutContext", "RolloutResult"]
