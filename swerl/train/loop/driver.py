"""A local rollout pool: runs declared rollouts with a harness in worker threads.

This is the controller's job in its simplest form (one machine, threads); it speaks to
the gateway only through `GatewayClient`, so the state machine there stays the truth:

    queued ──► running ──► succeeded | failed_agent          (+ reward event)
                  └──────► failed_infra ──► queued (new attempt, new token) ... up to max_attempts

Every call below is idempotent on the gateway side, so a retried HTTP request is harmless.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from swerl.gateway.client import GatewayClient, GatewayError
from swerl.log import get_logger
from swerl.train.loop.harness import Cancelled, Harness, InfraError, RolloutContext

log = get_logger(__name__)


@dataclass
class RolloutSpec:
    """A declared rollout, as the trainer tracks it (kept in checkpoints while unconsumed)."""

    rollout_id: str
    group_id: str
    task: dict[str, Any]
    split: str = "train"
    temperature: float = 1.0
    declared_version: int = 0
    seed: int = 0  # sampling seed of this rollout (not derived from its id: ids differ after --resume)
    infra_errors: list[str] = field(default_factory=list)


class LocalDriver:
    """`launch(spec, token)` queues a rollout; `concurrency` daemon worker threads run them in order.

    Daemon threads, not a ThreadPoolExecutor: a rollout stuck in a slow sandbox command must
    not keep the process alive after the trainer has stopped.
    """

    def __init__(self, client: GatewayClient, harness: Harness, *, concurrency: int, max_attempts: int,
                 max_tokens: int, max_steps: int,
                 on_infra_error: Callable[[str, str], None] | None = None,
                 on_success: Callable[[str], None] | None = None) -> None:
        self.client = client
        self.harness = harness
        self.max_attempts = max_attempts
        self.max_tokens, self.max_steps = max_tokens, max_steps
        self.on_infra_error, self.on_success = on_infra_error, on_success
        self.stop_event = threading.Event()
        self._queue: queue.Queue[tuple[RolloutSpec, str, int] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._running = 0
        self._outstanding = 0
        self._idle = threading.Condition(self._lock)
        self._workers = [threading.Thread(target=self._work, name=f"rollout-{i}", daemon=True)
                         for i in range(concurrency)]
        for w in self._workers:
            w.start()

    @property
    def running(self) -> int:
        """Rollouts whose harness is executing right now (not waiting for a worker)."""
        return self._running

    @property
    def outstanding(self) -> int:
        """Launched and not finished (queued for a worker or running)."""
        return self._outstanding

    def launch(self, spec: RolloutSpec, token: str, attempt: int = 1) -> None:
        """Queue a rollout whose current attempt (1 for a fresh one) is `attempt`."""
        with self._lock:
            self._outstanding += 1
        self._queue.put((spec, token, attempt))

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            spec, token, attempt = item
            try:
                self._attempts(spec, token, attempt)
            except Exception as exc:  # never lose a worker thread silently
                if self.stop_event.is_set():
                    log.debug("rollout ended by shutdown", rollout=spec.rollout_id, error=repr(exc))
                else:
                    log.error("rollout driver error", rollout=spec.rollout_id, error=repr(exc), exc_info=exc)
            finally:
                with self._lock:
                    self._outstanding -= 1
                    self._idle.notify_all()

    def _attempts(self, spec: RolloutSpec, token: str, attempt: int) -> None:
        c = self.client
        token = token or c.rotate_token(spec.rollout_id)  # the creating answer was lost: issue a new one
        while True:
            if self.stop_event.is_set():
                self._fail(spec, attempt, "trainer stopping")
                return
            c.set_state(spec.rollout_id, "running", attempt=attempt)
            ctx = RolloutContext(rollout_id=spec.rollout_id, group_id=spec.group_id, attempt=attempt,
                                 base_url=c.proxy_base_url(spec.rollout_id), api_key=token, task=spec.task,
                                 split=spec.split, temperature=spec.temperature, max_tokens=self.max_tokens,
                                 max_steps=self.max_steps, seed=spec.seed, stop=self.stop_event)
            with self._lock:
                self._running += 1
            try:
                result = self.harness.run(ctx)
            except Cancelled as exc:
                self._fail(spec, attempt, str(exc))
                return
            except Exception as exc:  # InfraError, or a harness bug: either way not the agent's fault
                reason = str(exc) if isinstance(exc, InfraError) else f"harness error: {exc!r}"
                spec.infra_errors.append(reason)
                if self.on_infra_error is not None:
                    self.on_infra_error(spec.rollout_id, reason)
                log.warning("rollout infra failure", rollout=spec.rollout_id, attempt=attempt, reason=reason[:300])
                self._fail(spec, attempt, reason)
                if attempt >= self.max_attempts or self.stop_event.is_set():
                    return
                c.set_state(spec.rollout_id, "queued")
                attempt += 1
                token = c.rotate_token(spec.rollout_id)
                continue
            finally:
                with self._lock:
                    self._running -= 1
            c.add_reward(spec.rollout_id, result.reward, attempt=attempt, data=result.data)
            c.set_state(spec.rollout_id, result.state, attempt=attempt)
            if self.on_success is not None:
                self.on_success(spec.rollout_id)
            return

    def _fail(self, spec: RolloutSpec, attempt: int, reason: str) -> None:
        try:
            state = self.client.rollout(spec.rollout_id)["state"]
            if state == "queued":
                self.client.set_state(spec.rollout_id, "failed_infra", reason=reason[:500])
            elif state == "running":
                self.client.set_state(spec.rollout_id, "failed_infra", attempt=attempt, reason=reason[:500])
        except GatewayError as exc:
            log.warning("could not mark rollout failed", rollout=spec.rollout_id, error=str(exc))

    def stop(self, timeout_s: float = 30.0) -> None:
        """Stop launching; running harnesses end at their next turn boundary (`Cancelled`).

        Waits up to `timeout_s` for them (their final state goes to the gateway); workers still
        busy after that are daemon threads and die with the process.
        """
        self.stop_event.set()
        while True:  # drop what never started
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self._fail(item[0], item[2], "trainer stopping")
                with self._lock:
                    self._outstanding -= 1
        for _ in self._workers:
            self._queue.put(None)
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while self._outstanding > 0 and time.monotonic() < deadline:
                self._idle.wait(timeout=max(0.0, deadline - time.monotonic()))


__all__ = ["LocalDriver", "RolloutSpec"]
