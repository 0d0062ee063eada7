"""`swerl train`: the collocated-async training loop (docs/algorithms.md secs. 3-6, 8), read top to bottom.

Rollouts keep running while completed ones accumulate; when a batch of whole groups is ready the
gateway pauses (drain), the engine releases memory, the backend updates, weights go to the engine
and the gateway resumes with the new policy version (docs/train.md walks the phases). A rollout
whose first call is more than `algorithm.staleness_limit` versions old is dropped and counted.
`train.mode: sync` declares one batch, waits for all of it, updates.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from swerl.config import Recipe
from swerl.errors import SwerlError
from swerl.gateway.client import GatewayError
from swerl.gateway.states import TRAINABLE
from swerl.log import get_logger
from swerl.rollout.controller import Controller, declare, plan
from swerl.rollout.launchers import ThreadLauncher
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutOutcome
from swerl.sandbox import owners
from swerl.sandbox.schema import SandboxSettings
from swerl.train.advantage import apply_overlong
from swerl.train.loop.book import RolloutBook
from swerl.train.loop.checkpoint import load_checkpoint, rng_state, save_checkpoint, set_rng_state
from swerl.train.loop.dynamic import DynamicSampler
from swerl.train.loop.hacking import CanaryTally, add_canaries, canary_outcome
from swerl.train.loop.metrics import MetricsWriter
from swerl.train.loop.phases import Phase, PhaseMachine
from swerl.train.loop.runtime import start_runtime
from swerl.train.loop.tasks import TaskSampler, build_harness
from swerl.train.loop.update import batch_metrics, build_batch, rl_update

log = get_logger(__name__)

CONTROLLER_GRACE_S = 300.0
"""Seconds past `sandbox.rollout_timeout_s` before the controller declares a running attempt dead."""


@dataclass
class Progress:
    """What the CLI's progress display shows."""

    phase: str
    step: int
    steps: int
    rollouts_done: int
    in_flight: int
    reward: float | None = None
    val_reward: float | None = None
    validating: bool = False


@dataclass
class LoopState:
    """The loop's own counters (checkpointed with the backend and RNG states)."""

    step: int = 0
    version: int = 0
    groups_declared: int = 0
    rollouts_done: int = 0
    stale_dropped: int = 0
    infra_failed: int = 0
    incarnation: int = 0
    started: float = field(default_factory=time.time)


@dataclass
class TrainResult:
    run_dir: Path
    steps: int
    stopped_early: bool
    last: dict[str, Any] = field(default_factory=dict)


class Trainer:
    """One run. `run()` trains until `train.steps` or `stop()`; everything it starts it also stops."""

    def __init__(self, recipe: Recipe, run_dir: Path, *, resume: bool = False,
                 on_progress: Callable[[Progress], None] | None = None) -> None:
        self.recipe, self.run_dir, self.resume = recipe, Path(run_dir), resume
        self.on_progress = on_progress
        self.stop_requested = threading.Event()
        self.st = LoopState()
        self.book = RolloutBook(max_attempts=recipe.rollout.max_infra_retries + 1)
        self.machine = PhaseMachine(on_change=lambda _p: self._progress())
        self.pending_line: dict[str, Any] | None = None  # an update's metrics waiting for its validation
        self.val_groups: list[str] = []
        self.last_line: dict[str, Any] = {}
        self.consecutive_infra = 0
        self.infra_attempts = 0  # attempts that failed on infrastructure since the last metrics line
        self.last_infra_error = ""
        self.stopping = False
        self.last_completion = time.monotonic()
        self.dropped_since_line = 0  # over-stale rollouts dropped since the last metrics line
        self.canaries = CanaryTally()  # canary rollouts since the last metrics line
        self.length_line: dict[str, float] = {}  # length/* (sec. 13) since the last metrics line
        a = recipe.algorithm
        extra = recipe.train.rollouts_per_step if a.dynamic_sampling_max_extra is None else a.dynamic_sampling_max_extra
        self.dynamic = DynamicSampler(recipe.train.rollouts_per_step, extra) if a.dynamic_sampling else None

    def stop(self) -> None:
        """Ask the loop to stop at the next safe point (between phases, never mid-update)."""
        self.stop_requested.set()

    def run(self) -> TrainResult:
        r, t = self.recipe, self.recipe.train
        self.run_dir.mkdir(parents=True, exist_ok=True)
        ckpt = load_checkpoint(self.run_dir) if self.resume else None
        r = self.recipe = with_run_label(r, self.run_dir)
        if ckpt is not None:  # before any backend exists: what a SIGKILLed incarnation of this run left
            reaped = owners.reap_run(SandboxSettings.from_recipe(r.sandbox))
            ckpt["loop"]["incarnation"] = next_incarnation(self.run_dir, ckpt)
            run_event(self.run_dir, "resume", step=int(ckpt["loop"]["step"]), run_label=r.sandbox.run_label,
                      incarnation=ckpt["loop"]["incarnation"], reaped=reaped)
        (self.run_dir / "recipe.yaml").write_text(yaml.safe_dump(r.model_dump(mode="json"), sort_keys=False))
        rt = start_runtime(r, self.run_dir)
        self.rt, self.client = rt, rt.client
        harness = None
        try:
            harness, settings, train_tasks, self.val_tasks = build_harness(r, rt.tokenizer, self.run_dir)
            mix = add_canaries(r, harness, train_tasks, self.val_tasks, self.run_dir)
            self.sampler = TaskSampler(train_tasks, t.seed, mix.train, r.data.canary_fraction)
            self.val_tasks = [*self.val_tasks, *mix.val]
            self._restore(ckpt)
            self.metrics = MetricsWriter(self.run_dir, tensorboard=t.tensorboard,
                                         resume_step=self.st.step if ckpt else None, recipe=r)
            self._start_controller(Runner(self.client, None, None, settings, self._observe, harness=harness))
            try:
                return self._loop()
            finally:
                self._shutdown()
                self.metrics.close()
        finally:
            if harness is not None:
                harness.close()
            rt.close()

    def _loop(self) -> TrainResult:
        """The phases (sec. 6) until the recipe's steps are done or a stop is asked: rollout, drain, update, sync,
        checkpoint; then the final validation and checkpoint."""
        r, t = self.recipe, self.recipe.train
        mode = t.mode
        last_ckpt = self.st.step
        self.engine_busy0 = self.rt.engine.busy_seconds()
        self.t_step = time.perf_counter()
        self.machine.go(Phase.ROLLOUT)
        while self.st.step < t.steps and not self.stop_requested.is_set():
            # ---- rollout phase: keep the controller fed, read the completion feed -----------------
            self._declare(mode)
            if self.book.poll(self.client, wait_s=0.2):
                self.last_completion = time.monotonic()
            self._finish_validation()
            self._check_health()
            self._progress()
            if not self._batch_ready(mode):
                continue
            if self.dynamic is not None and not self._refill_done():  # sec. 11: refill before the drain
                continue
            # ---- drain: stop admitting, finish in-flight calls, hold new ones (sec. 6) -----------
            self._drain(mode)
            self.machine.go(Phase.UPDATE)
            # ---- update: whole groups -> samples -> advantages -> optimizer step(s) --------------
            batch, dyn_line = self._take_batch()
            if not batch.samples:  # everything over-stale or empty: no step, keep collecting
                self._resume_without_step(mode, batch, dyn_line)
                continue
            line = {"step": self.st.step + 1, **batch_metrics(batch), **dyn_line, **self.length_line}
            self.length_line = {}
            for k, v in rl_update(self.rt.backend, batch, r, update_index=self.st.step).items():
                line["time/optimizer_s" if k == "time/update_s" else k] = v
            self.st.step += 1
            self.metrics.update(self.st.step, self.st.version, batch)  # what it trained on (swerl view)
            changed = line.get("policy/updated", 1.0) > 0  # SAO warm-up trains only the critic
            # ---- sync: weights into the engine, resume with the new policy version ---------------
            self.machine.go(Phase.SYNC)
            if changed:  # an update that left the policy as it was is not a new version (staleness)
                self.st.version += 1
                self.rt.engine.load_weights(self.st.version)
            self.client.resume(self.st.version)
            self.metrics.hacking(self.st.step, batch.hacking)
            self._finish_line(line, batch)
            if self.st.step % t.checkpoint_every == 0 or self.st.step == t.steps:
                self.machine.go(Phase.CHECKPOINT)
                self._save()
                last_ckpt = self.st.step
            self.machine.go(Phase.ROLLOUT)
        # ---- stopping: final validation (unless interrupted), final checkpoint, shut down --------
        self._drain_validation()
        if self.st.step > last_ckpt:
            self._save()
        self.machine.go(Phase.STOPPING)
        self._shutdown()
        self.machine.go(Phase.DONE)
        stopped_early = self.st.step < t.steps
        log.info("training finished", steps=self.st.step, stopped_early=stopped_early)
        return TrainResult(self.run_dir, self.st.step, stopped_early, self.last_line)

    def _drain(self, mode: str) -> None:
        """Collocated: the trainer needs the accelerator the engine holds, so calls are held and the engine
        released; a separate engine keeps serving through the update."""
        if mode == "collocated":
            self.machine.go(Phase.DRAIN)
            self.client.pause()
            self.rt.engine.release()  # vLLM: sleep; embedded: nothing to release

    def _take_batch(self) -> tuple[Any, dict[str, float]]:
        """The update's batch and its dynamic-sampling metrics (empty without dynamic sampling)."""
        dyn_line: dict[str, float] = {}
        if self.dynamic is not None:  # built (same policy version: no update since) and filtered above
            batch, dyn_line = self.dynamic.pop()
            self.st.rollouts_done += int(dyn_line["dynamic/dropped_rollouts"])
        else:
            groups = sorted(self.book.take(self.recipe.train.rollouts_per_step), key=lambda g: g.group_id)
            batch = self._build_batch(groups)
        return batch, dyn_line

    def _resume_without_step(self, mode: str, batch: Any, dyn_line: dict[str, float]) -> None:
        """Nothing to train on: the policy version stays, and the engine serves again as the drain left it."""
        log.warning("batch had nothing to train on", groups=len(batch.groups), stale=len(batch.dropped_stale),
                    **dyn_line)
        if mode == "collocated":  # the engine slept in the drain: wake it on the same version first,
            self.rt.engine.load_weights(self.st.version)  # or held calls reach a sleeping vLLM
        self.client.resume(self.st.version)
        self.machine.go(Phase.ROLLOUT)

    def _build_batch(self, groups: list[Any]) -> Any:
        """The update's batch; its groups leave the book, over-stale drops and canary outcomes are counted."""
        r = self.recipe
        batch = build_batch(self.client, groups, version=self.st.version, recipe=r, tokenizer=self.rt.tokenizer,
                            scan=r.rollout.harness != "toy")
        self.book.forget(groups)
        a = r.algorithm
        l_max = a.overlong_max_tokens or r.rollout.max_tokens * r.rollout.max_steps
        samples, rewards, masked, length = apply_overlong(batch.samples, batch.rewards, a.overlong, l_max,
                                                          a.overlong_buffer or max(1, l_max // 4),
                                                          batch.context_overflow, r.rollout.context_overflow)
        batch = replace(batch, samples=samples, rewards=rewards, overlong_masked=masked)  # sec. 13, eq. 24
        for k, v in length.items():  # summed over the builds of one update (dynamic sampling builds several)
            self.length_line[k] = max(self.length_line.get(k, 0.0), v) if k.endswith("_max") else \
                self.length_line.get(k, 0.0) + v
        for outcome in batch.canaries:
            self.canaries.add(outcome)
        self.st.stale_dropped += len(batch.dropped_stale)
        self.dropped_since_line += len(batch.dropped_stale)
        return batch

    def _refill_done(self) -> bool:
        """Dynamic sampling: take ready groups, build and filter them (eq. 22); True when the update may run.
        Building before the drain is safe: the policy version only changes at an update, so each rollout's
        staleness (sec. 6) is the same as it would be at the update."""
        assert self.dynamic is not None
        groups = sorted(self.book.take(self.dynamic.want()), key=lambda g: g.group_id)
        batch = self._build_batch(groups)
        return self.dynamic.add(batch, sum(len(g.trainable) for g in groups))

    def _wanted(self) -> int:
        """Rollouts the next update still needs (fewer while dynamic sampling is refilling)."""
        return self.dynamic.want() if self.dynamic is not None else self.recipe.train.rollouts_per_step

    def _declare(self, mode: str) -> None:
        """Collocated: keep about `rollout.concurrency` rollouts outstanding. Sync: one batch at a time."""
        r = self.recipe
        n = r.rollout.n_per_task
        if mode == "sync":
            if self.book.outstanding() or self.val_groups:
                return
            need = self._wanted() - self.book.ready_rollouts()
            for _ in range(max(0, math.ceil(need / n))):
                self._declare_group("train", self.sampler.next(), n, r.rollout.temperature)
            return
        while self.book.outstanding() + n <= max(r.rollout.concurrency, n):
            self._declare_group("train", self.sampler.next(), n, r.rollout.temperature)

    def _declare_group(self, split: str, task: str, n: int, temperature: float) -> str:
        """Declare `n` rollouts of `task` as one group; the controller (ours, or an external one) runs them.
        Ids: group `<t|v><incarnation>-<index>.<task>`, rollouts `<group>:<k>`; the sampling seed is in the
        metadata and does not depend on the ids (they differ after --resume)."""
        index = self.st.groups_declared
        self.st.groups_declared += 1
        reqs = plan([task], n, prefix=f"{'t' if split == 'train' else 'v'}{self.st.incarnation}-{index:07d}.",
                    max_attempts=self.book.max_attempts,
                    metadata={"split": split, "temperature": temperature, "declared_version": self.st.version})
        for k, req in enumerate(reqs):
            req.metadata["seed"] = hash_seed(self.recipe.train.seed, split, index, k)
        declare(self.client, reqs)
        self.book.add_group(reqs[0].group_id, split, reqs)
        self.controller.kick()
        return reqs[0].group_id

    def _batch_ready(self, mode: str) -> bool:
        if self.val_groups:  # validate one policy version: the next update waits for it
            return False
        if mode == "sync":
            return self.book.outstanding() == 0 and self.book.ready_rollouts() > 0
        return self.book.ready_rollouts() >= self._wanted()

    def _finish_line(self, line: dict[str, Any], batch: Any) -> None:
        t = self.recipe.train
        laps = self.machine.lap()
        now = time.perf_counter()
        step_s = now - self.t_step
        self.t_step = now
        busy, tokens = self.rt.engine.busy_seconds()
        busy_d, tokens_d = busy - self.engine_busy0[0], tokens - self.engine_busy0[1]
        self.engine_busy0 = (busy, tokens)
        self.st.rollouts_done += len(batch.rewards)
        failed = len(self.book.infra_failed)
        self.book.infra_failed.clear()
        self.st.infra_failed += failed
        work = busy_d + laps["update"] + laps["sync"]
        line |= {
            "policy_version": self.st.version,
            "time/step_s": step_s, "time/rollout_s": laps["rollout"], "time/drain_s": laps["drain"],
            "time/update_s": laps["update"], "time/sync_s": laps["sync"], "time/checkpoint_s": laps["checkpoint"],
            "time/wall_s": time.time() - self.st.started,
            "time/engine_busy_s": busy_d, "time/trainer_idle_frac": max(0.0, 1.0 - work / step_s) if step_s else 0.0,
            "throughput/tokens_per_s": tokens_d / step_s if step_s else 0.0,
            "throughput/train_tokens_per_s": line.get("batch/tokens", 0.0) / max(laps["update"], 1e-9),
            "rollouts/in_flight": float(self.book.outstanding()), "rollouts/done_total": float(self.st.rollouts_done),
            "rollouts/failed_infra": float(failed), "rollouts/infra_attempts": float(self.infra_attempts),
            "staleness/dropped_total": float(self.st.stale_dropped),
            "staleness/dropped": float(self.dropped_since_line),
        }
        line |= self.canaries.metrics()
        self.canaries = CanaryTally()
        self.dropped_since_line = 0
        self.infra_attempts = 0
        if t.val_every and (self.st.step % t.val_every == 0 or self.st.step == t.steps) and self.val_tasks:
            self.pending_line = line
            temp = self.recipe.rollout.val_temperature
            self.val_groups = [self._declare_group("val", task, 1, temp) for task in self.val_tasks]
        else:
            self._write(line)

    def _write(self, line: dict[str, Any]) -> None:
        self.metrics.write(line)
        self.last_line = line
        log.info("step", step=line["step"], reward=round(line["train/reward_mean"], 4),
                 val=line.get("val/reward_mean"))

    def _finish_validation(self) -> None:
        """When every validation rollout is done, add val/* to the waiting metrics line and write it."""
        if not self.val_groups:
            return
        groups = [self.book.groups[g] for g in self.val_groups]
        if not all(g.complete for g in groups):
            return
        rewards = []
        canaries = CanaryTally()  # canary rollouts: val/hacking/canary_*, not in the validation reward
        for g in groups:
            for rid in g.trainable:
                ev = self.client.events(rid, kinds=["reward"], include_json=True)
                if ev and (outcome := canary_outcome(ev[-1].get("data"))) is not None:
                    canaries.add(outcome)
                elif ev:
                    rewards.append(float(ev[-1]["reward"]))
        line = self.pending_line or {}
        line |= {"val/reward_mean": sum(rewards) / len(rewards) if rewards else 0.0,
                 "val/success_rate": sum(1 for x in rewards if x > 0) / len(rewards) if rewards else 0.0,
                 "val/rollouts": float(len(rewards)), "val/policy_version": float(self.st.version),
                 **canaries.metrics("val/")}
        self.book.forget(groups)
        self.val_groups, self.pending_line = [], None
        self._write(line)

    def _drain_validation(self) -> None:
        """At the end: wait for a pending validation (unless interrupted), so the last line has it."""
        while self.val_groups and not self.stop_requested.is_set():
            self.book.poll(self.client, wait_s=0.5)
            self._finish_validation()
            self._check_health()
        if self.pending_line is not None:  # interrupted: keep the training metrics
            self._write(self.pending_line)
            self.pending_line = None

    def _start_controller(self, runner: Runner) -> None:
        """The embedded default runs the controller in a thread of this process and each attempt in a
        thread (`ThreadLauncher`); with `rollout.controller: external`, `swerl rollout controller` (processes
        or Kubernetes Jobs) runs the same runner against the same gateway, and nothing starts here."""
        r = self.recipe
        self.runner = runner
        launcher = ThreadLauncher(runner.run_attempt)
        self.controller = Controller(self.client, launcher, concurrency=r.rollout.concurrency,
                                     deadline_s=r.sandbox.rollout_timeout_s, grace_s=CONTROLLER_GRACE_S,
                                     poll_s=0.5)
        launcher.on_finish = self.controller.kick
        self.controller_thread: threading.Thread | None = None
        if r.rollout.controller == "local":
            self.controller_thread = threading.Thread(target=self.controller.serve, name="controller", daemon=True)
            self.controller_thread.start()

    def _shutdown(self) -> None:
        """Stop the controller; release held calls first (an error may have left the gateway paused).
        Running attempts end at their next turn (toy) or run out (mini-swe-agent; waited for up to 30 s,
        their late writes are refused as stale); what they leave is failed on `--resume`."""
        if self.stopping:
            return
        self.stopping = True
        self.runner.stop.set()
        self.controller.stop()
        try:
            if self.client.status().get("paused"):
                self.client.resume(self.st.version)
        except GatewayError as exc:
            log.warning("could not resume the gateway while stopping", error=str(exc))
        if self.controller_thread is not None:
            self.controller_thread.join(timeout=30.0)
        deadline = time.monotonic() + 30.0
        while self.controller.launcher.active() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.controller.launcher.close()

    def _observe(self, out: RolloutOutcome) -> None:
        """Every attempt's outcome (worker threads): consecutive infra failures stop the run."""
        if out.state == "failed_infra":
            self.consecutive_infra += 1
            self.infra_attempts += 1
            self.last_infra_error = out.error or ""
        elif out.state in TRAINABLE:
            self.consecutive_infra = 0

    def _check_health(self) -> None:
        """Classified failures: too many infrastructure failures in a row, or nothing completing at all."""
        t = self.recipe.train
        if self.controller_thread is not None and not self.controller_thread.is_alive() and not self.stopping:
            raise SwerlError("the rollout controller thread died (see the log); no rollouts are being run")
        if self.consecutive_infra >= t.max_infra_failures:
            raise SwerlError(f"{self.consecutive_infra} infrastructure failures in a row (engine, sandbox or "
                             f"gateway); the last: {self.last_infra_error[:300]}")
        if self.book.outstanding("train") + self.book.outstanding("val") and \
                time.monotonic() - self.last_completion > t.stall_timeout_s:
            raise SwerlError(f"no rollout completed for {t.stall_timeout_s:.0f} s (train.stall_timeout_s)")

    def _save(self) -> None:
        state = {"backend": self.rt.backend.state_dict(), "rng": rng_state(), "loop": self.st.__dict__.copy(),
                 "sampler": self.sampler.state_dict(), "book": self.book.state_dict(),
                 "recipe": self.recipe.model_dump(mode="json")}
        save_checkpoint(self.run_dir, self.st.step, state)

    def _restore(self, ckpt: dict[str, Any] | None) -> None:
        """Fresh: seed everything. Resume: restore states, abandon the previous run's unfinished rollouts."""
        if ckpt is None:
            import random

            import numpy as np
            import torch

            random.seed(self.recipe.train.seed)
            np.random.seed(self.recipe.train.seed % (2**32))
            torch.manual_seed(self.recipe.train.seed)
            self._reset_gateway(0)
            return
        self.rt.backend.load_state_dict(ckpt["backend"])
        set_rng_state(ckpt["rng"])
        loop = dict(ckpt["loop"])
        self.st = LoopState(**{k: v for k, v in loop.items() if k in LoopState.__dataclass_fields__})
        # st.incarnation: numbered by `run` (next_incarnation) before the restore
        self.sampler.load_state_dict(ckpt["sampler"])
        self.book.load_state_dict(ckpt["book"])
        self.rt.engine.load_weights(self.st.version)
        self._reset_gateway(self.st.version)

    def _reset_gateway(self, version: int) -> None:
        """Unpause (a crashed run may have left it paused) and fail rollouts nobody will finish."""
        keep = set(self.book.specs)
        for ro in self.client.rollouts(states=["queued", "running"]):
            if ro.id in keep:
                continue
            try:
                self.client.set_state(ro.id, "failed_infra", reason="trainer restarted")
            except GatewayError as exc:
                log.warning("could not abandon rollout", rollout=ro.id, error=str(exc))
        status = self.client.status()
        self.client.resume(max(version, int(status.get("policy_version", 0))))

    def _progress(self) -> None:
        if self.on_progress is None:
            return
        self.on_progress(Progress(
            phase=self.machine.phase.value, step=self.st.step, steps=self.recipe.train.steps,
            rollouts_done=self.st.rollouts_done, in_flight=self.book.outstanding("train"),
            reward=self.last_line.get("train/reward_mean"), val_reward=self.last_line.get("val/reward_mean"),
            validating=bool(self.val_groups)))


def with_run_label(recipe: Recipe, run_dir: Path) -> Recipe:
    """The recipe with `sandbox.run_label` set (derived from the run dir unless given): saved in recipe.yaml, so
    every sandbox of every incarnation of the run (and an external controller's) carries the same label."""
    if recipe.sandbox.run_label:
        return recipe
    sandbox = recipe.sandbox.model_copy(update={"run_label": owners.run_label(run_dir)})
    return recipe.model_copy(update={"sandbox": sandbox})


def next_incarnation(run_dir: Path, ckpt: dict[str, Any]) -> int:
    """The resumed run's incarnation number: past the checkpoint's and past every earlier resume in events.jsonl.
    An incarnation killed before its first checkpoint left its rollout ids (`t<incarnation>-...`) in the gateway;
    numbering from the checkpoint alone would declare those ids again."""
    seen = [int(ckpt["loop"].get("incarnation", 0))]
    path = Path(run_dir) / "events.jsonl"
    if path.exists():
        for line in path.read_text().splitlines():
            with contextlib.suppress(ValueError, TypeError, KeyError):  # a torn last line of a killed write
                seen.append(int(json.loads(line)["incarnation"]))
    return max(seen) + 1


def run_event(run_dir: Path, event: str, **fields: Any) -> None:
    """One line in `RUN_DIR/events.jsonl`, the run's own lifecycle record (resumes and what they reaped), kept
    next to the metrics so what happened to a run is readable after its logs are gone."""
    line = {"time": round(time.time(), 3), "event": event, **fields}
    with (Path(run_dir) / "events.jsonl").open("a") as f:
        f.write(json.dumps(line) + "\n")
    log.info("run event", run_event=event, **fields)


def hash_seed(*parts: object) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:4], "little")


def train(recipe: Recipe, run_dir: Path, *, resume: bool = False,
          on_progress: Callable[[Progress], None] | None = None) -> TrainResult:
    """Run training to completion (or until stopped); see `Trainer`."""
    return Trainer(recipe, run_dir, resume=resume, on_progress=on_progress).run()


__all__ = ["LoopState", "Progress", "TrainResult", "Trainer", "train"]
