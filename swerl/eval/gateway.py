"""Optional: send an evaluation's model calls through a swerl gateway, so they are recorded for analysis.

Each agent execution is one gateway rollout (fresh id, so a resumed or retried run
never collides with a finished one; `metadata` names the eval run, instance and
attempt; `group_id` = `eval-<run_id>-<instance_id>`). The harness talks to that
rollout's proxy with the rollout's own token; this process writes the reward (1.0 if
resolved) and the final state (`succeeded`, `failed_agent`, `failed_infra`) once the
prediction is graded, exactly as training rollouts are recorded.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.log import get_logger

log = get_logger(__name__)


@dataclass
class GatewayRollout:
    rollout_id: str
    attempt: int
    base_url: str
    token: str


class GatewayRecorder:
    def __init__(self, url: str, admin_token_file: Path, run_id: str, *, upstream: str | None = None,
                 model_name: str | None = None) -> None:
        from swerl.gateway.client import GatewayClient, GatewayError

        if not admin_token_file.is_file():
            raise SwerlError(f"--gateway-token-file {str(admin_token_file)!r}: no such file")
        self.client = GatewayClient(url, admin_token_file.read_text().strip(), retry_for_s=30)
        self.url = url.rstrip("/")
        self.run_id = run_id
        try:
            self.client.status()
            if upstream:  # an engine this run started: the gateway must be able to reach it
                self.client.add_engine(upstream, model_name)
        except GatewayError as exc:
            raise SwerlError(f"--gateway {url!r}: {exc}") from exc

    def begin(self, instance_id: str, attempt: int) -> GatewayRollout:
        rid = f"eval-{self.run_id[:12]}-{uuid.uuid4().hex[:12]}"
        r = self.client.create_rollout(rid, group_id=f"eval-{self.run_id}-{instance_id}"[:128], max_attempts=1,
                                       metadata={"eval_run_id": self.run_id, "instance_id": instance_id,
                                                 "attempt": attempt})
        token = r.get("token") or self.client.rotate_token(rid)
        self.client.set_state(rid, "running", attempt=r["attempt"])
        return GatewayRollout(rid, int(r["attempt"]), self.client.proxy_base_url(rid), token)

    def finish(self, ro: GatewayRollout, *, submitted: bool, infra: bool, resolved: bool | None,
               data: dict[str, Any] | None = None, reason: str | None = None) -> None:
        """Reward (when graded) and final state; a gateway hiccup here is logged, never fails the evaluation."""
        try:
            if infra:
                self.client.set_state(ro.rollout_id, "failed_infra", attempt=ro.attempt, reason=(reason or "")[:3900])
                return
            if resolved is not None:
                self.client.add_reward(ro.rollout_id, 1.0 if resolved else 0.0, attempt=ro.attempt, data=data)
            self.client.set_state(ro.rollout_id, "succeeded" if submitted else "failed_agent", attempt=ro.attempt,
                                  reason=None if submitted else (reason or "")[:3900] or None)
        except Exception as exc:
            log.warning("gateway record failed", rollout=ro.rollout_id, error=str(exc))

    def close(self) -> None:
        self.client.close()
