"""`run_eval`: agent over instances -> preds.jsonl -> official-harness grading -> report.json, resumable.

Per (instance, attempt), in a pool of `workers` threads:

1. unless the run directory already has its prediction (resume; `redo` forces a rerun):
   run mini-swe-agent through `swerl.rollout.agent.run_agent` in a hardened sandbox of
   the instance's image, retrying infrastructure failures (`infra_retries`, the rollout
   room's `retrying_infra`: the same bounded policy as every rollout); append the
   AgentRecord, then the prediction line - the moment the patch exists;
2. unless `run_only`, or this run already graded this exact patch: grade it (an empty
   patch is not graded, as in swebench) and append the GradeRecord.

The run id is made once per RUN_DIR and keys every grading record and harness log, so
a report never reads another run's grading; a resumed run must match the manifest.
"""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from swerl import __version__
from swerl.errors import SwerlError
from swerl.eval.dataset import EvalInstance, load_instances, parse_instance_ids, select
from swerl.eval.options import EvalOptions
from swerl.eval.schema import AgentRecord, EvalReport, GradeRecord, ModelSpec, PredRow, RunManifest
from swerl.eval.store import RunStore, patch_sha, read_predictions
from swerl.log import get_logger

log = get_logger(__name__)

# (instance_id, attempt, outcome, detail, finished so far, jobs): called as each (instance, attempt) finishes,
# from worker threads.
Progress = Callable[[str, int, str, str, int, int], None]


def load_agent_config(path: str | None) -> dict[str, Any]:
    """`--agent-config FILE`: mini-swe-agent-shaped YAML merged over the swebench config (plus swerl's
    `harness` and `step_limit` keys, see swerl/rollout/agent.py)."""
    if not path:
        return {}
    p = Path(path).expanduser()
    if not p.is_file():
        raise SwerlError(f"--agent-config {path!r}: no such file")
    try:
        data = yaml.safe_load(p.read_text()) or {}
    except yaml.YAMLError as exc:
        raise SwerlError(f"--agent-config {path!r}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise SwerlError(f"--agent-config {path!r}: must be a mapping (agent:, model:, environment:, harness:)")
    return data


def _usage(traj: Path | None) -> tuple[int, int, float]:
    """Prompt/completion tokens and cost of a run, from its saved trajectory (litellm's usage per call)."""
    if traj is None or not traj.exists():
        return 0, 0, 0.0
    try:
        data = json.loads(traj.read_text())
    except (OSError, ValueError):
        return 0, 0, 0.0
    prompt = completion = 0
    for msg in data.get("messages") or []:
        resp = (msg.get("extra") or {}).get("response") if isinstance(msg, dict) else None
        usage = resp.get("usage") if isinstance(resp, dict) else None
        if isinstance(usage, dict):
            prompt += int(usage.get("prompt_tokens") or 0)
            completion += int(usage.get("completion_tokens") or 0)
    cost = float(((data.get("info") or {}).get("model_stats") or {}).get("instance_cost") or 0.0)
    return prompt, completion, cost


class EvalRun:
    """One `swerl eval swebench` invocation over a RUN_DIR (see the module docstring)."""

    def __init__(self, opts: EvalOptions, sandbox: Any = None, on_done: Progress | None = None) -> None:
        self.opts = opts
        self.on_done = on_done
        self.store = RunStore(opts.out)
        self._sandbox = sandbox
        self.served: Any = None
        self.recorder: Any = None
        self._gw_pending: dict[tuple[str, int], Any] = {}
        self._cancel = threading.Event()
        self._count_lock = threading.Lock()
        self._jobs = self._finished = 0
        self._preds: dict[int, dict[str, PredRow]] = {}
        self._graded: dict[tuple[str, int, str], GradeRecord] = {}

    # ------------------------------------------------------------------ setup
    def _select(self) -> tuple[list[EvalInstance], list[PredRow] | None]:
        o = self.opts
        preds = read_predictions(o.grade_only) if o.grade_only else None
        instances = load_instances(o.dataset, o.split)
        if preds is not None:
            known = {i.instance_id for i in instances}
            unknown = [p.instance_id for p in preds if p.instance_id not in known]
            if unknown:
                raise SwerlError(f"--grade-only {str(o.grade_only)!r}: instance id(s) not in --dataset {o.dataset!r}: "
                                 f"{', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}")
            have = {p.instance_id for p in preds}
            instances = [i for i in instances if i.instance_id in have]
        ids = parse_instance_ids(o.instances) if o.instances else None
        selected = select(instances, ids, o.limit)
        if not selected:
            raise SwerlError("no instances selected (check --instances / --limit / --grade-only)")
        return selected, preds

    def _manifest(self, selected: list[EvalInstance], model: ModelSpec, grader: str) -> RunManifest:
        o = self.opts
        old = self.store.manifest()
        if old is not None:
            mismatch = [f"{k}: {a!r} (run dir) vs {b!r} (now)" for k, a, b in (
                ("dataset", old.dataset, o.dataset), ("split", old.split, o.split),
                ("attempts", old.attempts, o.attempts), ("model", old.model.name, model.name),
                ("model kind", old.model.kind, model.kind)) if a != b]
            if mismatch:
                raise SwerlError(f"--out {o.out}: holds a different run ({'; '.join(mismatch)}); use a new --out")
            m = old.model_copy(update={"instance_ids": [i.instance_id for i in selected], "backend": self._backend_name(),
                                       "grader": grader, "repos": {i.instance_id: i.repo for i in selected}})
        else:
            m = RunManifest(run_id=f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}", created_at=time.time(),
                            swerl_version=__version__, model=model, dataset=o.dataset, split=o.split,
                            backend=self._backend_name(), grader=grader, attempts=o.attempts,
                            instance_ids=[i.instance_id for i in selected],
                            repos={i.instance_id: i.repo for i in selected}, agent_config=o.agent_config_path)
        self.store.write_manifest(m)
        return m

    def _backend_name(self) -> str:
        return str(getattr(self._sandbox, "name", self.opts.backend))

    # ------------------------------------------------------------------ run
    def run(self) -> EvalReport:
        from swerl.eval.report import build_report
        from swerl.eval.setup import Graders, build_sandbox, check_backend, prepare_images

        o = self.opts
        selected, preds = self._select()
        self.store.open()
        if self._sandbox is None:
            self._sandbox = build_sandbox(o, swebench_rows=all(i.kind == "swebench" for i in selected))
        check_backend(self._sandbox, selected)
        if preds is not None:
            names = sorted({p.model_name_or_path for p in preds})
            model = ModelSpec(kind="predictions", source=str(o.grade_only), name=names[0] if len(names) == 1 else
                              "+".join(names)[:200])
        else:
            if not o.model:
                raise SwerlError("--model is required (an endpoint URL or a checkpoint dir), unless --grade-only")
            from swerl.eval.model import resolve_model

            self.served = resolve_model(o.model, name=o.model_name, api_key_env=o.api_key_env, engine=o.engine,
                                        max_tokens=o.max_tokens)
            model = self.served.spec
        try:
            manifest = self._manifest(selected, model.model_copy(update={"gateway": o.gateway}),
                                      Graders.label(o, self._sandbox))
            self.manifest, self.graders = manifest, Graders(o, self._sandbox, manifest.run_id, o.out)
            if o.gateway and preds is None:
                from swerl.eval.gateway import GatewayRecorder

                if o.gateway_token_file is None:
                    raise SwerlError("--gateway needs --gateway-token-file (the gateway's admin token)")
                self.recorder = GatewayRecorder(o.gateway, o.gateway_token_file, manifest.run_id,
                                                upstream=self.served.base_url if model.kind == "checkpoint" else None,
                                                model_name=model.name)
            prepare_images(self._sandbox, selected)
            if preds is not None:
                self._import_preds(preds)
            if o.redo and preds is None:
                for a in range(o.attempts):
                    self.store.drop_preds(a, {i.instance_id for i in selected})
            self._execute(selected)
        finally:
            if self.served is not None:
                self.served.close()
            if self.recorder is not None:
                self.recorder.close()
        report = build_report(self.store, self.manifest)
        from swerl.eval.store import write_json_atomic

        write_json_atomic(o.out / "report.json", report.model_dump(mode="json"))
        log.info("report written", out=str(o.out / "report.json"), resolved=report.counts.get("resolved"),
                 total=report.total)
        return report

    def _import_preds(self, preds: list[PredRow]) -> None:
        """--grade-only: the run dir keeps its own copy of the graded predictions (compare/report read it)."""
        have = self.store.preds(0)
        for p in preds:
            if p.instance_id not in have or have[p.instance_id].model_patch != p.model_patch:
                self.store.add_pred(0, p)

    def _execute(self, selected: list[EvalInstance]) -> None:
        """All (instance, attempt) jobs in a thread pool. Ctrl-C: nothing new starts (no instance, retry or
        grading); runs in flight finish their current step and are recorded, as after a kill, on resume."""
        self._preds = {a: self.store.preds(a) for a in range(self.opts.attempts)}
        self._graded = self.store.grades(self.manifest.run_id)
        jobs = [(inst, a) for a in range(self.opts.attempts) for inst in selected]
        self._jobs, self._finished = len(jobs), 0
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.opts.workers, thread_name_prefix="eval")
        futures = [pool.submit(self._one, inst, a) for inst, a in jobs]
        try:
            for fut in concurrent.futures.as_completed(futures):
                fut.result()  # _one records its own failures; anything raised here is a bug worth surfacing
        except BaseException:
            self._cancel.set()
            log.warning("stopping: no new instance starts; in-flight runs finish their step (Ctrl-C again to abort)")
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)

    def _one(self, inst: EvalInstance, attempt: int) -> None:
        if self._cancel.is_set():
            return
        pred = self._preds[attempt].get(inst.instance_id)
        detail = "resumed"
        if pred is None:
            if self.opts.grade_only:
                return
            pred, detail = self._agent(inst, attempt)
            if pred is None:  # infra failure after retries (or stopping): recorded, run again on the next resume
                self._report_done(inst, attempt, "infra_failure", detail)
                return
        if self.opts.run_only or self._cancel.is_set():
            self._report_done(inst, attempt, "pending" if (pred.model_patch or "").strip() else "empty_patch", detail)
            return
        rec = self._grade(inst, attempt, pred)
        self._report_done(inst, attempt, rec.outcome if rec else "pending", detail)

    def _report_done(self, inst: EvalInstance, attempt: int, outcome: str, detail: str) -> None:
        with self._count_lock:
            self._finished += 1
            n = self._finished
        if self.on_done is not None:
            try:
                self.on_done(inst.instance_id, attempt, outcome, detail, n, self._jobs)
            except Exception as exc:  # a display problem must not fail the run
                log.warning("progress callback failed", error=str(exc))

    # ------------------------------------------------------------------ agent
    def _agent(self, inst: EvalInstance, attempt: int) -> tuple[PredRow | None, str]:
        """Run the agent (with infra retries); the prediction (None: infra failure) and a one-line detail."""
        from pydantic import SecretStr

        from swerl.eval.setup import ensure_image
        from swerl.rollout.agent import run_agent
        from swerl.rollout.runner import Attempt, retrying_infra
        from swerl.rollout.schema import AgentResult, ModelEndpoint

        o, served = self.opts, self.served
        cfg = {**o.agent_config}
        cfg.setdefault("harness", o.harness or served.default_harness)
        cfg.setdefault("step_limit", o.step_limit)
        traj_rel = Path("trajs") / inst.instance_id / f"attempt{attempt}.traj.json"
        detail = "not started"

        def one_try(tries: int) -> Attempt:
            nonlocal detail
            ro = None
            try:
                ro = self.recorder.begin(inst.instance_id, attempt) if self.recorder else None
                endpoint = ModelEndpoint(base_url=ro.base_url if ro else served.base_url,
                                         api_key=SecretStr(ro.token if ro else served.api_key), model=served.spec.name,
                                         temperature=o.temperature, max_tokens=o.max_tokens,
                                         timeout_s=o.call_timeout_s)
                ensure_image(self._sandbox, inst, o.pull)
                res = run_agent(inst.task(), sandbox=self._sandbox, endpoint=endpoint, agent_config=dict(cfg),
                                output_path=o.out / traj_rel)
            except Exception as exc:  # image missing, gateway unreachable: this instance's infrastructure
                res = AgentResult(instance_id=inst.instance_id, exit_status=type(exc).__name__, error_kind="infra",
                                  error=f"{type(exc).__name__}: {exc}")
            prompt, completion, cost = _usage(o.out / traj_rel)
            rec = AgentRecord(run_id=self.manifest.run_id, instance_id=inst.instance_id, attempt=attempt,
                              repo=inst.repo, exit_status=res.exit_status, error_kind=res.error_kind,
                              error=(res.error or None) and res.error[:2000], n_calls=res.n_calls,
                              prompt_tokens=prompt, completion_tokens=completion, cost=cost,
                              patch_sha=patch_sha(res.patch), patch_bytes=len(res.patch.encode()),
                              duration_s=res.duration_s,
                              trajectory=str(traj_rel) if (o.out / traj_rel).exists() else None)
            self.store.add_agent(rec)
            detail = f"{res.exit_status}, {res.n_calls} steps" + (f": {res.error[:120]}" if res.error else "")
            if res.error_kind == "infra":
                if ro is not None:
                    self.recorder.finish(ro, submitted=False, infra=True, resolved=None, reason=res.error)
                return Attempt(res, "failed_infra", error=res.error)
            if ro is not None:
                self._gw_pending[(inst.instance_id, attempt)] = (ro, res)
            return Attempt(res, "succeeded" if res.submitted else "failed_agent")

        att = retrying_infra(one_try, o.infra_retries, stop=self._cancel)
        if att is None:
            return None, "stopped"
        if att.state == "failed_infra" or att.agent is None:
            return None, detail
        res = att.agent
        pred = PredRow(instance_id=inst.instance_id, model_name_or_path=self.manifest.model.name,
                       model_patch=res.patch)
        self.store.add_pred(attempt, pred)
        if (inst.instance_id, attempt) in self._gw_pending and (o.run_only or not res.patch.strip()):
            self._finish_gateway(inst.instance_id, attempt, None)
        return pred, detail

    def _finish_gateway(self, iid: str, attempt: int, grade: GradeRecord | None) -> None:
        item = self._gw_pending.pop((iid, attempt), None)
        if item is None or self.recorder is None:
            return
        ro, res = item
        resolved = None if grade is None and self.opts.run_only else bool(grade and grade.resolved)
        data = {"exit_status": res.exit_status, "outcome": grade.outcome if grade else None,
                "eval_run_id": self.manifest.run_id}
        self.recorder.finish(ro, submitted=res.submitted, infra=False, resolved=resolved, data=data,
                             reason=res.error or res.exit_status)

    # ------------------------------------------------------------------ grading
    def _grade(self, inst: EvalInstance, attempt: int, pred: PredRow) -> GradeRecord | None:
        """Grade unless this run already graded this exact patch; the record (None: stopped before grading)."""
        patch = pred.model_patch or ""
        sha = patch_sha(patch)
        done = self._graded.get((inst.instance_id, attempt, sha))
        if done is not None and done.outcome != "infra_failure":
            return done
        if not patch.strip():
            rec = GradeRecord(run_id=self.manifest.run_id, instance_id=inst.instance_id, attempt=attempt,
                              patch_sha=sha, grader="none", outcome="empty_patch")
        else:
            grader = self.graders.for_instance(inst)
            for tries in range(self.opts.infra_retries + 1):
                if tries and self._cancel.is_set():
                    return None
                rec = grader.grade(inst, patch, attempt=attempt, model_name=pred.model_name_or_path, patch_sha=sha)
                if rec.outcome != "infra_failure":
                    break
                log.warning("grading infra failure", instance=inst.instance_id, tries=tries + 1, error=rec.error)
        self.store.add_grade(rec)
        self._finish_gateway(inst.instance_id, attempt, rec)
        return rec


def run_eval(opts: EvalOptions, sandbox: Any = None, on_done: Progress | None = None) -> EvalReport:
    """Run (or resume, or grade-only) an evaluation into `opts.out`; returns the report (also report.json).
    `on_done` sees each (instance, attempt) as it finishes (the CLI prints a line)."""
    return EvalRun(opts, sandbox, on_done).run()
