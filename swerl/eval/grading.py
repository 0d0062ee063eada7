"""Grading a prediction with the official harness code, in a fresh container, under a per-run cache key.

`OfficialDockerGrader` is swebench's own `run_instance` (what the leaderboard runs; SWE-bench
rows on docker); `SandboxGrader` is `Sandbox.grade` in a fresh pristine sandbox of any backend,
with swebench's or swesmith's log parsers (never swerl's). A prediction whose evaluation did not
complete is an `error`; a machinery failure is an `infra_failure`, graded again on resume. The
instance's harness log dir is deleted before grading, so the harness's "report.json exists,
reuse it" shortcut can never return another prediction's report.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from swerl.eval.dataset import EvalInstance
from swerl.eval.schema import GradeRecord


class Grader(Protocol):
    name: str

    def grade(self, inst: EvalInstance, patch: str, *, attempt: int, model_name: str, patch_sha: str) -> GradeRecord: ...


def harness_run_id(run_id: str, attempt: int) -> str:
    """The id the harness sees (container names, log dirs): unique per run and attempt."""
    return f"{run_id}_a{attempt}"


class SandboxGrader:
    """Grade in a fresh sandbox of any backend (`Sandbox.grade`)."""

    def __init__(self, sandbox: Any, run_id: str, run_dir: Path, timeout_s: float | None = None) -> None:
        self.sandbox = sandbox
        self.run_id = run_id
        self.run_dir = run_dir
        self.timeout_s = timeout_s
        self.name = f"sandbox-{getattr(sandbox, 'name', 'custom')}"

    def grade(self, inst: EvalInstance, patch: str, *, attempt: int, model_name: str, patch_sha: str) -> GradeRecord:
        from swerl.sandbox.grade import grade as sandbox_grade

        t0 = time.monotonic()
        base = dict(run_id=self.run_id, instance_id=inst.instance_id, attempt=attempt, patch_sha=patch_sha,
                    grader=self.name)
        log_rel = Path("logs") / harness_run_id(self.run_id, attempt) / f"{inst.instance_id}.log"
        try:
            if self.timeout_s is not None and hasattr(self.sandbox, "start_pristine"):
                res = sandbox_grade(self.sandbox, inst.task(), patch, timeout_s=self.timeout_s)
            else:
                res = self.sandbox.grade(inst.task(), patch)
        except Exception as exc:  # one prediction never aborts the run: the rollout runner's rule decides the kind
            from swerl.rollout.classify import classify_grading_exception

            kind = classify_grading_exception(exc)
            return GradeRecord(**base, outcome="infra_failure" if kind == "infra" else "error",
                               error=f"grading failed: {type(exc).__name__}: {exc}"[:1000],
                               duration_s=time.monotonic() - t0)
        if res.error_kind == "infra":  # the grading sandbox failed: graded again on resume
            return GradeRecord(**base, outcome="infra_failure", error=res.error, duration_s=time.monotonic() - t0)
        log_path = self.run_dir / log_rel
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text(res.log_tail)
        if res.resolved:
            outcome = "resolved"
        elif not res.patch_applied or res.timed_out or res.error_kind == "agent":
            outcome = "error"
        else:
            outcome = "unresolved"
        error = None
        if res.tampering:
            error = "tampering: " + "; ".join(res.tampering)[:500]
        elif not res.patch_applied:
            error = "patch did not apply"
        elif res.timed_out:
            error = "tests timed out"
        elif res.error:
            error = res.error
        return GradeRecord(**base, outcome=outcome, resolved=res.resolved, resolution=res.resolution,
                           patch_applied=res.patch_applied, fail_to_pass=res.fail_to_pass.model_dump(),
                           pass_to_pass=res.pass_to_pass.model_dump(), error=error, duration_s=time.monotonic() - t0,
                           log=str(log_rel))


_LOG_ROOT = threading.Condition()
_LOG_ROOT_STATE: dict[str, Any] = {"users": 0, "root": None, "saved": None}


@contextlib.contextmanager
def _harness_log_root(root: Path) -> Iterator[None]:
    """Point swebench's run-evaluation log root (a relative module constant, read when `run_instance` starts) at
    the run dir while any grading of this root is in flight; concurrent graders of another root wait."""
    import swebench.harness.run_evaluation as rev

    st = _LOG_ROOT_STATE
    with _LOG_ROOT:
        _LOG_ROOT.wait_for(lambda: st["users"] == 0 or st["root"] == root)
        if st["users"] == 0:
            st["saved"], st["root"] = rev.RUN_EVALUATION_LOG_DIR, root
            rev.RUN_EVALUATION_LOG_DIR = root
        st["users"] += 1
    try:
        yield
    finally:
        with _LOG_ROOT:
            st["users"] -= 1
            if st["users"] == 0:
                rev.RUN_EVALUATION_LOG_DIR, st["root"] = st["saved"], None
                _LOG_ROOT.notify_all()


class OfficialDockerGrader:
    """swebench's `run_instance` on the sandbox's docker engine (SWE-bench rows only)."""

    name = "official-docker"

    def __init__(self, client: Any, run_id: str, run_dir: Path, timeout_s: float = 1800.0) -> None:
        self.client = client
        self.run_id = run_id
        self.run_dir = run_dir
        self.timeout_s = timeout_s
        self.log_root = (run_dir / "logs").resolve()

    def grade(self, inst: EvalInstance, patch: str, *, attempt: int, model_name: str, patch_sha: str) -> GradeRecord:
        from swebench.harness.constants import APPLY_PATCH_FAIL, LOG_INSTANCE, LOG_REPORT, LOG_TEST_OUTPUT
        from swebench.harness.run_evaluation import run_instance
        from swebench.harness.test_spec.test_spec import make_test_spec

        t0 = time.monotonic()
        hid = harness_run_id(self.run_id, attempt)
        base = dict(run_id=self.run_id, instance_id=inst.instance_id, attempt=attempt, patch_sha=patch_sha,
                    grader=self.name)
        if inst.kind != "swebench":
            return GradeRecord(**base, outcome="infra_failure",
                               error="the official swebench grader only grades SWE-bench rows (use --grader sandbox)")
        try:
            spec = make_test_spec(inst.row.model_dump(mode="json"), namespace="swebench")
        except KeyError as exc:
            return GradeRecord(**base, outcome="infra_failure",
                               error=f"no swebench spec for repo {inst.repo!r} version {inst.row.model_extra.get('version')!r}: {exc}")
        pred = {"instance_id": inst.instance_id, "model_name_or_path": model_name, "model_patch": patch}
        inst_dir = self.log_root / hid / model_name.replace("/", "__") / inst.instance_id
        shutil.rmtree(inst_dir, ignore_errors=True)  # never the harness's cached report of an earlier grading
        with _harness_log_root(self.log_root):
            try:
                result = run_instance(spec, pred, False, False, self.client, hid, int(self.timeout_s))
            except Exception as exc:  # run_instance catches its own; anything here is the machinery
                return GradeRecord(**base, outcome="infra_failure", error=f"{type(exc).__name__}: {exc}",
                                   duration_s=time.monotonic() - t0)
        rel = str(inst_dir.relative_to(self.run_dir.resolve()))
        report_path = inst_dir / LOG_REPORT
        if result.get("completed") and report_path.exists():
            rep = json.loads(report_path.read_text())[inst.instance_id]
            tests = rep.get("tests_status", {})
            resolved = bool(rep.get("resolved"))
            return GradeRecord(**base, outcome="resolved" if resolved else "unresolved", resolved=resolved,
                               resolution="RESOLVED_FULL" if resolved else _resolution(tests),
                               patch_applied=bool(rep.get("patch_successfully_applied")),
                               fail_to_pass=tests.get("FAIL_TO_PASS", {}), pass_to_pass=tests.get("PASS_TO_PASS", {}),
                               duration_s=time.monotonic() - t0, log=rel)
        text = ""
        with contextlib.suppress(OSError):
            text = (inst_dir / LOG_INSTANCE).read_text(errors="replace")
        ran = (inst_dir / LOG_TEST_OUTPUT).exists()
        if APPLY_PATCH_FAIL in text:
            outcome, error = "error", "patch did not apply"
        elif "timed out" in text.lower() and ran:
            outcome, error = "error", "tests timed out"
        elif ran:
            outcome, error = "error", "evaluation did not complete"
        else:
            outcome, error = "infra_failure", (_last_error(text) or "the harness could not start the evaluation")
        return GradeRecord(**base, outcome=outcome, patch_applied=False if "apply" in error else None, error=error,
                           duration_s=time.monotonic() - t0, log=rel)


def _resolution(tests: dict[str, Any]) -> str:
    from swebench.harness.grading import get_resolution_status

    try:
        return get_resolution_status(tests)
    except Exception:
        return "RESOLVED_NO"


def _last_error(text: str) -> str:
    lines = [ln for ln in text.splitlines() if "Error" in ln or "error" in ln]
    return lines[-1].strip()[-300:] if lines else ""
