"""Terminus-2 (harbor's terminal agent, unchanged) on one task in one swerl sandbox: `run_terminus`.

Why Terminus-2 (docs/rollout.md, "Harness compatibility"): it is the harness harbor, SkyRL and
Terminal-Bench train and evaluate with, and it is built differently from mini-swe-agent: JSON
actions that are *keystrokes* into a tmux session (not one bash command per turn), a
double-confirmed `task_complete` instead of a submit command, and context summarisation by
sub-agents when the context runs out. It talks chat completions through litellm, so the
gateway's existing route records it.

harbor needs Python >= 3.12 (swerl's .venv is 3.11), so the agent runs in `.venv-harbor`
(`scripts/setup-harbor.sh`) as `terminus_worker.py`, whose harbor `Environment` forwards every
command here over two pipes; this process runs it in the sandbox (so bwrap's isolation, the
held-time-aware deadline and the patch collected on the host are the same as mini-swe-agent's).
The model calls go from the worker to the gateway's per-rollout proxy; the sandbox never sees
the token.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import select
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from swerl.atomic import write_text_atomic
from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.rollout.classify import classify_exception
from swerl.rollout.harness import harness_env
from swerl.rollout.held import HeldTime
from swerl.rollout.launchers import _die_with_parent
from swerl.rollout.redact import redact
from swerl.rollout.schema import AgentResult, ModelEndpoint
from swerl.rollout.tasks import as_sandbox_task
from swerl.sandbox.base import RolloutDeadline, Sandbox, SandboxHandle
from swerl.sandbox.schema import SandboxTask
from swerl.tasks.schema import TaskRow

log = get_logger(__name__)

HERE = Path(__file__).resolve().parent
WORKER = HERE / "terminus_worker.py"
CONFIG = HERE / "terminus-2.yaml"
ROOT = HERE.parents[1]
# What the worker reports as its exit status when harbor raised: the agent's own doing (trained as reward 0);
# every other exception (connection refused, 401 from a rotated token, 5xx) is infrastructure.
AGENT_EXITS = {"Submitted", "LimitsExceeded", "TimeExceeded", "ContextLengthExceededError",
               "OutputLengthExceededError", "AgentFault"}


def harbor_python() -> Path:
    """The interpreter with harbor installed: $SWERL_HARBOR_PYTHON, else `<repo>/.venv-harbor/bin/python`."""
    exe = Path(os.environ.get("SWERL_HARBOR_PYTHON") or ROOT / ".venv-harbor" / "bin" / "python")
    if not exe.is_file():
        raise ConfigError(f"rollout.harness terminus-2: no harbor interpreter at {exe} (run scripts/setup-harbor.sh, "
                          "or set SWERL_HARBOR_PYTHON)")
    return exe


def terminus_rootfs() -> Path:
    """The bwrap system tree for Terminus-2: swerl's debootstrap packages plus tmux (built once, cached)."""
    from swerl.sandbox.images import PACKAGES, ensure_rootfs

    return ensure_rootfs(packages=(*PACKAGES, "tmux"))


def terminus_settings(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """`terminus-2.yaml` beside this module with the recipe's `{terminus: {...}, instruction: ...}` on top."""
    base = yaml.safe_load(CONFIG.read_text())
    over = copy.deepcopy(overrides or {})
    base["terminus"] = {**base.get("terminus", {}), **(over.pop("terminus", None) or {})}
    unknown = set(over) - {"instruction"}
    if unknown:
        raise ConfigError(f"rollout.agent_config for terminus-2: unknown keys {sorted(unknown)} "
                          "(expected terminus:, instruction:)")
    return base | over


def worker_config(stask: SandboxTask, statement: str, endpoint: ModelEndpoint, settings: dict[str, Any],
                  logs_dir: Path) -> dict[str, Any]:
    """The first line the worker reads: endpoint, instruction and Terminus2's keyword arguments."""
    terminus = dict(settings["terminus"])
    return {"instruction": settings["instruction"].format(problem_statement=statement, workdir=stask.workdir),
            "model": endpoint.model, "api_base": endpoint.base_url, "api_key": endpoint.api_key.get_secret_value(),
            "temperature": endpoint.rollout.temperature, "max_tokens": endpoint.rollout.max_tokens,
            "timeout_s": endpoint.timeout_s,
            "max_turns": endpoint.rollout.max_steps, "logs_dir": str(logs_dir), "session_id": stask.instance_id,
            "terminus": terminus}


class Budget:
    """The rollout's time budget on the sandbox handle's deadline, moved by the time the gateway held the
    rollout's calls (a training pause is not the agent's time), checked before each command and while waiting.
    The worker forwards the held time its model answers reported (`held_s` on each request, `report`); the
    gateway is asked only when the budget looks spent (`swerl.rollout.held.HeldTime.extend`)."""

    def __init__(self, handle: SandboxHandle, held_s: HeldTime | Callable[[], float] | None) -> None:
        self.handle, self.held = handle, HeldTime.of(held_s)

    def report(self, req: dict[str, Any]) -> None:
        """The held seconds a worker request carries (the last `x-swerl-held-s` its model calls were answered with)."""
        if self.held is not None:
            self.held.report(req.get("held_s"))

    def check(self) -> None:
        """Raise `RolloutDeadline` once the budget is spent, held time excluded."""
        if self.held is not None:
            self.held.extend(self.handle)
        if self.handle.remaining_s <= 0:
            raise RolloutDeadline(f"sandbox {self.handle.id}: the rollout's time budget is used up")


class Worker:
    """The harbor process and its two pipes; `serve` answers its requests until it reports `done`."""

    def __init__(self, log_path: Path) -> None:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "SWERL_TERMINUS_REQ": str(req_w), "SWERL_TERMINUS_RESP": str(resp_r),
               "PYTHONUNBUFFERED": "1"}
        self.log_file = open(log_path, "ab")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen([str(harbor_python()), str(WORKER)], pass_fds=(req_w, resp_r), env=env,
                                     stdin=subprocess.DEVNULL, stdout=self.log_file, stderr=self.log_file,
                                     start_new_session=True, cwd=tempfile.gettempdir(),
                                     preexec_fn=_die_with_parent)  # only a prctl call: safe with threads
        os.close(req_w)
        os.close(resp_r)
        self.req = os.fdopen(req_r, "r")
        self.resp = os.fdopen(resp_w, "w", buffering=1)

    def send(self, msg: dict[str, Any]) -> None:
        self.resp.write(json.dumps(msg) + "\n")

    def next_request(self, tick: Callable[[], None] = lambda: None) -> dict[str, Any] | None:
        """The worker's next request; None once it exited without reporting (crashed, killed). `tick` runs
        every second of waiting (the time budget: the agent may spend it all in model calls, never running a
        command, e.g. Terminus-2 re-asks without end while every reply is cut at max_tokens)."""
        while True:
            ready, _, _ = select.select([self.req], [], [], 1.0)
            if ready or self.proc.poll() is not None:
                line = self.req.readline()
                return json.loads(line) if line else None
            tick()

    def close(self) -> None:
        """Kill the worker's process group if it is still running; close the pipes and the log."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, 9)
        self.proc.wait()
        for f in (self.req, self.resp, self.log_file):
            with contextlib.suppress(OSError):
                f.close()


def serve(worker: Worker, sandbox: Sandbox, handle: SandboxHandle, budget: Budget,
          command_timeout_s: float) -> dict[str, Any]:
    """Run the worker's commands in the sandbox until it reports its outcome. A sandbox exception (deadline, a
    broken sandbox) aborts the worker and propagates to `run_terminus`, which classifies it."""
    while True:
        req = worker.next_request(budget.check)
        if req is None:
            return {"exit_status": "WorkerExited", "error": f"terminus worker exited with {worker.proc.wait()} "
                                                           "without an outcome"}
        op = req.get("op")
        if op == "done":
            return dict(req.get("result") or {})
        try:
            budget.report(req)
            budget.check()
            if op == "exec":
                timeout = min(float(req.get("timeout") or command_timeout_s), command_timeout_s)
                res = sandbox.exec(handle, req["command"], timeout=timeout, cwd=req.get("cwd") or None)
                worker.send({"rc": res.returncode if not res.timed_out else 124, "output": res.output})
            elif op == "upload":
                sandbox.copy_in(handle, Path(req["src"]), req["dest"])
                worker.send({"rc": 0})
            elif op == "download":
                sandbox.copy_out(handle, req["src"], Path(req["dest"]))
                worker.send({"rc": 0})
            else:
                worker.send({"rc": 1, "output": f"unknown op {op!r}"})
        except BaseException:
            with contextlib.suppress(OSError):  # the worker may already be gone
                worker.send({"abort": True})
            raise


def run_terminus(task: TaskRow | SandboxTask, *, sandbox: Sandbox, endpoint: ModelEndpoint,
                 agent_config: dict[str, Any] | None = None, output_path: Path | None = None,
                 held_s: HeldTime | Callable[[], float] | None = None) -> AgentResult:
    """Terminus-2 on `task` in a fresh sandbox against `endpoint`; the same contract as `run_agent` (always stops
    the sandbox, never raises, `exit_status` Submitted when the agent confirmed `task_complete`). Its turn limit
    is `endpoint.rollout.max_steps` (the recipe's one default); `agent_config` is Terminus-2's own
    `{terminus, instruction}`."""
    t0 = time.monotonic()
    harness_env()  # litellm (classify) without a remote price-list fetch
    stask = as_sandbox_task(task)
    statement = task.problem_statement if isinstance(task, TaskRow) else stask.row.get("problem_statement")
    result = AgentResult(instance_id=stask.instance_id, exit_status="NotStarted")
    handle: SandboxHandle | None = None
    worker: Worker | None = None
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="swerl-terminus-") as tmp:
        try:
            settings = terminus_settings(agent_config)
            handle = sandbox.start(stask)
            worker = Worker(Path(tmp) / "worker.log")
            worker.send(worker_config(stask, str(statement or ""), endpoint, settings, Path(tmp) / "logs"))
            out = serve(worker, sandbox, handle, Budget(handle, held_s), float(sandbox.settings.command_timeout_s))
            _finish(result, out, sandbox, handle)
        except RolloutDeadline as exc:
            result.exit_status, result.error_kind, result.error = "TimeExceeded", "agent", str(exc)[:4000]
        except Exception as exc:  # classified, never raised: the caller records the outcome
            result.exit_status = type(exc).__name__
            result.error_kind = classify_exception(exc)
            result.error = f"{type(exc).__name__}: {exc}"[:4000]
            log.warning("terminus run failed", instance=stask.instance_id, kind=result.error_kind,
                        error=result.error[:300])
        finally:  # also on KeyboardInterrupt: neither the worker nor the sandbox outlives the run
            if worker is not None:
                worker.close()
                if result.error_kind == "infra" or result.exit_status == "WorkerExited":
                    result.error = f"{result.error or ''}\n{_tail(Path(tmp) / 'worker.log')}".strip()[-4000:]
            if handle is not None:
                sandbox.stop(handle)
            result.duration_s = time.monotonic() - t0
            if output_path is not None:
                result.trajectory_path = Path(output_path)
                save_trajectory(Path(output_path), out, result, [endpoint.api_key.get_secret_value()])
    log.info("terminus finished", instance=stask.instance_id, exit_status=result.exit_status,
             kind=result.error_kind, calls=result.n_calls, submitted=result.submitted,
             seconds=round(result.duration_s, 2))
    return result


def _finish(result: AgentResult, out: dict[str, Any], sandbox: Sandbox, handle: SandboxHandle) -> None:
    """The worker's outcome into `result`; on a confirmed `task_complete` the patch is taken from the host."""
    result.exit_status = str(out.get("exit_status") or "Unknown")
    result.n_calls = sum(1 for m in out.get("messages") or [] if m.get("role") == "assistant")
    if result.exit_status == "Submitted":
        patch = sandbox.extract_patch(handle)
        result.submitted = True
        result.patch, result.files, result.dropped = patch.patch, patch.files, patch.dropped
        return
    result.error_kind = "agent" if result.exit_status in AGENT_EXITS else "infra"
    result.error = str(out.get("error") or result.exit_status)[:4000]
    if out.get("traceback"):
        log.warning("terminus worker error", kind=result.error_kind, traceback=str(out["traceback"])[-1500:])


def _tail(path: Path, n: int = 2000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


def save_trajectory(path: Path, out: dict[str, Any], result: AgentResult, secrets: list[str]) -> None:
    """Terminus-2's main chat (what the model was sent, in order) + `info.swerl`, redacted, atomically."""
    data = {"trajectory_format": "terminus-2", "messages": out.get("messages") or [],
            "info": {"exit_status": result.exit_status, "n_episodes": out.get("n_episodes"),
                     "summarization_count": out.get("summarization_count"),
                     "swerl": result.model_dump(mode="json", exclude={"trajectory_path"})}}
    write_text_atomic(path, json.dumps(redact(data, secrets), indent=2, default=str))


__all__ = ["CONFIG", "WORKER", "Budget", "Worker", "harbor_python", "run_terminus", "serve", "terminus_rootfs",
           "terminus_settings", "worker_config"]
