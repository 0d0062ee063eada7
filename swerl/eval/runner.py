"""`run_eval`: agent over instances -> preds.jsonl -> official-harness grading -> report.json, resumable.

Each (instance, attempt) without a prediction in the run dir (or with `redo`) is one rollout of
the rollout room's `Runner` - the attempt state machine and bounded infra retries of training -
on the `--gateway` ledger (every call recorded) or one kept in this process; its harness
(`EvalHarness`) appends the AgentRecord, then the prediction the moment the patch exists, then
grades it unless `run_only`. The run id is made once per RUN_DIR and keys every grading record
and harness log, so a report never reads another run's grading.
"""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl import __version__
from swerl.errors import SwerlError
from swerl.eval.dataset import EvalInstance, load_instances, parse_instance_ids, select
from swerl.eval.options import EvalOptions
from swerl.eval.schema import AgentRecord, EvalReport, GradeRecord, ModelSpec, PredRow, RunManifest
from swerl.eval.store import RunStore, patch_sha, read_predictions, write_json_atomic
from swerl.log import get_logger

if TYPE_CHECKING:
    from swerl.gateway.client import GatewayClient
    from swerl.rollout.ledger import DirectLedger
    from swerl.rollout.runner import Attempt, AttemptContext

log = get_logger(__name__)

# (instance_id, attempt, outcome, detail, finished so far, jobs): called as each (instance, attempt) finishes,
# from worker threads.
Progress = Callable[[str, int, str, str, int, int], None]


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

    def __init__(self, opts: EvalOptions, on_done: Progress | None = None) -> None:
        self.opts = opts
        self.on_done = on_done
        self.store = RunStore(opts.out)
        self._sandbox: Any = None
        self.served: Any = None
        self.ledger: GatewayClient | DirectLedger | None = None  # the Runner's (see _open_ledger)
        self.harness = EvalHarness(self)
        self._instances: dict[str, EvalInstance] = {}
        self._outcomes: dict[str, tuple[str, str]] = {}  # rollout id -> (outcome, detail) for the progress line
        self._cancel = threading.Event()
        self._count_lock = threading.Lock()
        self._jobs = self._finished = 0
        self._preds: dict[int, dict[str, PredRow]] = {}
        self._graded: dict[tuple[str, int, str], GradeRecord] = {}

    # ------------------------------------------------------------------ setup
    def _select(self) -> tuple[list[EvalInstance], list[PredRow] | None]:
        o = self.opts
        preds = read_predictions(o.grade_only) if o.grade_only else None
        instances = load_instances(o.data.dataset, o.data.split)
        if preds is not None:
            known = {i.instance_id for i in instances}
            unknown = [p.instance_id for p in preds if p.instance_id not in known]
            if unknown:
                raise SwerlError(f"--grade-only {str(o.grade_only)!r}: instance id(s) not in --dataset "
                                 f"{o.data.dataset!r}: {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}")
            have = {p.instance_id for p in preds}
            instances = [i for i in instances if i.instance_id in have]
        ids = parse_instance_ids(o.instances) if o.instances else None
        selected = select(instances, ids, o.data.limit)
        if not selected:
            raise SwerlError("no instances selected (check --instances / --limit / --grade-only)")
        return selected, preds

    def _manifest(self, selected: list[EvalInstance], model: ModelSpec, grader: str) -> RunManifest:
        o = self.opts
        old = self.store.manifest()
        if old is not None:
            mismatch = [f"{k}: {a!r} (run dir) vs {b!r} (now)" for k, a, b in (
                ("dataset", old.dataset, o.data.dataset), ("split", old.split, o.data.split),
                ("attempts", old.attempts, o.rollout.n_per_task), ("model", old.model.name, model.name),
                ("model kind", old.model.kind, model.kind)) if a != b]
            if mismatch:
                raise SwerlError(f"--out {o.out}: holds a different run ({'; '.join(mismatch)}); use a new --out")
            m = old.model_copy(update={"instance_ids": [i.instance_id for i in selected], "backend": self._backend_name(),
                                       "grader": grader, "repos": {i.instance_id: i.repo for i in selected}})
        else:
            m = RunManifest(run_id=f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}", created_at=time.time(),
                            swerl_version=__version__, model=model, dataset=o.data.dataset, split=o.data.split,
                            backend=self._backend_name(), grader=grader, attempts=o.rollout.n_per_task,
                            instance_ids=[i.instance_id for i in selected],
                            repos={i.instance_id: i.repo for i in selected}, agent_config=o.rollout.agent_config)
        self.store.write_manifest(m)
        return m

    def _backend_name(self) -> str:
        return str(getattr(self._sandbox, "name", self.opts.sandbox.backend))

    # ------------------------------------------------------------------ run
    def run(self) -> EvalReport:
        from swerl.eval.report import build_report
        from swerl.eval.setup import Graders, build_sandbox, check_backend, prepare_images

        o = self.opts
        selected, preds = self._select()
        self.store.open()
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
                                        max_tokens=o.rollout.max_tokens)
            model = self.served.spec
        try:
            manifest = self._manifest(selected, model.model_copy(update={"gateway": o.gateway.url}),
                                      Graders.label(o, self._sandbox))
            self.manifest, self.graders = manifest, Graders(o, self._sandbox, manifest.run_id, o.out)
            if preds is None:
                self._open_ledger(model)
            self._instances = {i.instance_id: i for i in selected}
            prepare_images(self._sandbox, selected)
            if preds is not None:
                self._import_preds(preds)
            if o.redo and preds is None:
                for a in range(o.rollout.n_per_task):
                    self.store.drop_preds(a, {i.instance_id for i in selected})
            self._execute(selected)
        finally:
            if self.served is not None:
                self.served.close()
            if self.ledger is not None:
                self.ledger.close()
        report = build_report(self.store, self.manifest)
        write_json_atomic(o.out / "report.json", report.model_dump(mode="json"))
        log.info("report written", out=str(o.out / "report.json"), resolved=report.counts.get("resolved"),
                 total=report.total)
        return report

    def _open_ledger(self, model: ModelSpec) -> None:
        """The Runner's ledger (`--gateway`: that gateway records every call; else this process) and the
        settings (endpoint, retries) every rollout of the run gets."""
        from swerl.rollout.ledger import DirectLedger
        from swerl.rollout.schema import HARNESS_AUTO, RolloutSettings, split_agent_config

        o, served = self.opts, self.served
        rollout, agent = split_agent_config(o.agent_config, o.rollout)  # the agent YAML's harness/step_limit win
        if rollout.harness == HARNESS_AUTO:
            rollout = rollout.model_copy(update={"harness": served.default_harness})
        self.settings = RolloutSettings(rollout=rollout, model=model.name, call_timeout_s=o.call_timeout_s,
                                        agent_config=agent, retry_delay_s=0.0)
        gw = o.gateway
        if not gw.url:
            self.ledger = DirectLedger(served.base_url, served.api_key)
            return
        from swerl.gateway.client import GatewayClient, GatewayError

        if gw.admin_token_file is None:
            raise SwerlError("--gateway needs --gateway-token-file (the gateway's admin token)")
        if not Path(gw.admin_token_file).is_file():
            raise SwerlError(f"--gateway-token-file {gw.admin_token_file!r}: no such file")
        self.ledger = client = GatewayClient(gw.url, Path(gw.admin_token_file).read_text().strip(), retry_for_s=30)
        try:
            client.status()
            if model.kind == "checkpoint":  # an engine this run started: the gateway must be able to reach it
                client.add_engine(served.base_url, model.name)
        except GatewayError as exc:
            raise SwerlError(f"--gateway {gw.url!r}: {exc}") from exc

    def _import_preds(self, preds: list[PredRow]) -> None:
        """--grade-only: the run dir keeps its own copy of the graded predictions (compare/report read it)."""
        have = self.store.preds(0)
        for p in preds:
            if p.instance_id not in have or have[p.instance_id].model_patch != p.model_patch:
                self.store.add_pred(0, p)

    def _execute(self, selected: list[EvalInstance]) -> None:
        """All (instance, attempt) jobs in a thread pool. Ctrl-C: nothing new starts (no instance, retry or
        grading); runs in flight finish their current step and are recorded, as after a kill, on resume."""
        self._preds = {a: self.store.preds(a) for a in range(self.opts.rollout.n_per_task)}
        self._graded = self.store.grades(self.manifest.run_id)
        jobs = [(inst, a) for a in range(self.opts.rollout.n_per_task) for inst in selected]
        self._jobs, self._finished = len(jobs), 0
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.opts.rollout.concurrency,
                                                     thread_name_prefix="eval")
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
        if pred is None:
            if not self.opts.grade_only:
                self._report_done(inst, attempt, *self._agent(inst, attempt))
            return
        if self.opts.run_only or self._cancel.is_set():
            outcome = "pending" if (pred.model_patch or "").strip() else "empty_patch"
        else:
            rec = self._grade(inst, attempt, pred)
            outcome = rec.outcome if rec else "pending"
        self._report_done(inst, attempt, outcome, "resumed")

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
    def _agent(self, inst: EvalInstance, attempt: int) -> tuple[str, str]:
        """One rollout of (instance, attempt) through the `Runner`: its outcome for the progress line, and a
        one-line detail. An infra failure after the retries leaves no prediction (run again on resume)."""
        from swerl.rollout.controller import declare
        from swerl.rollout.runner import Runner
        from swerl.rollout.schema import RolloutRequest

        if self._cancel.is_set():
            return "infra_failure", "stopped"
        rid = f"eval-{self.manifest.run_id[:12]}-{uuid.uuid4().hex[:12]}"  # fresh: a resumed run never collides
        declare(self.ledger, [RolloutRequest(
            rollout_id=rid, group_id=f"eval-{self.manifest.run_id}-{inst.instance_id}"[:128],
            instance_id=inst.instance_id, max_attempts=self.settings.rollout.max_infra_retries + 1,
            metadata={"eval_run_id": self.manifest.run_id, "eval_attempt": attempt})])
        runner = Runner(self.ledger, None, None, self.settings, harness=self.harness)
        runner.stop = self._cancel
        out = runner.run(rid)
        outcome, detail = self._outcomes.pop(rid, ("infra_failure", out.error or "not started"))
        return ("infra_failure" if out.state not in ("succeeded", "failed_agent") else outcome), detail

    def attempt(self, ctx: AttemptContext) -> Attempt:
        """`EvalHarness.run`: the agent, its AgentRecord and prediction, then (unless run-only) the grade."""
        from swerl.eval.setup import ensure_image
        from swerl.rollout.runner import Attempt, agent_runner
        from swerl.rollout.schema import AgentResult

        o, inst, attempt = self.opts, self._instances[ctx.instance_id], int(ctx.metadata["eval_attempt"])
        traj_rel = Path("trajs") / inst.instance_id / f"attempt{attempt}.traj.json"
        try:
            ensure_image(self._sandbox, inst, o.pull)
            res = agent_runner(self.settings.rollout.harness)(
                inst.task(), sandbox=self._sandbox, endpoint=ctx.endpoint, agent_config=self.settings.agent_config,
                output_path=o.out / traj_rel, held_s=ctx.held_s)
        except Exception as exc:  # image missing, gateway unreachable: this instance's infrastructure
            res = AgentResult(instance_id=inst.instance_id, exit_status=type(exc).__name__, error_kind="infra",
                              error=f"{type(exc).__name__}: {exc}")
        prompt, completion, cost = _usage(o.out / traj_rel)
        self.store.add_agent(AgentRecord(
            run_id=self.manifest.run_id, instance_id=inst.instance_id, attempt=attempt, repo=inst.repo,
            exit_status=res.exit_status, error_kind=res.error_kind, error=(res.error or None) and res.error[:2000],
            n_calls=res.n_calls, prompt_tokens=prompt, completion_tokens=completion, cost=cost,
            patch_sha=patch_sha(res.patch), patch_bytes=len(res.patch.encode("utf-8", "surrogateescape")), duration_s=res.duration_s,
            trajectory=str(traj_rel) if (o.out / traj_rel).exists() else None))
        detail = f"{res.exit_status}, {res.n_calls} steps" + (f": {res.error[:120]}" if res.error else "")
        self._outcomes[ctx.rollout_id] = ("infra_failure", detail)
        if res.error_kind == "infra":
            return Attempt(res, "failed_infra", error=res.error)
        pred = PredRow(instance_id=inst.instance_id, model_name_or_path=self.manifest.model.name,
                       model_patch=res.patch)
        self.store.add_pred(attempt, pred)
        rec = None if o.run_only or self._cancel.is_set() else self._grade(inst, attempt, pred)
        outcome = rec.outcome if rec else ("pending" if res.patch.strip() else "empty_patch")
        self._outcomes[ctx.rollout_id] = (outcome, detail)
        graded = rec is not None and rec.outcome not in ("infra_failure", "error")
        resolved = bool(rec and rec.resolved) if graded or not res.patch.strip() else None
        return Attempt(res, "succeeded" if res.submitted else "failed_agent",
                       reward=None if resolved is None else float(resolved), resolved=resolved,
                       error=None if res.submitted else (res.error or res.exit_status),
                       data={"exit_status": res.exit_status, "outcome": rec.outcome if rec else None,
                             "eval_run_id": self.manifest.run_id})

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
            for tries in range(self.opts.rollout.max_infra_retries + 1):
                if tries and self._cancel.is_set():
                    return None
                rec = grader.grade(inst, patch, attempt=attempt, model_name=pred.model_name_or_path, patch_sha=sha)
                if rec.outcome != "infra_failure":
                    break
                log.warning("grading infra failure", instance=inst.instance_id, tries=tries + 1, error=rec.error)
        self.store.add_grade(rec)
        return rec


class EvalHarness:
    """An eval (instance, attempt) as a harness the rollout `Runner` runs (`EvalRun.attempt`)."""

    name = "eval"

    def __init__(self, run: EvalRun) -> None:
        self._run = run

    def run(self, ctx: AttemptContext) -> Attempt:
        return self._run.attempt(ctx)

    def close(self) -> None:
        """Sandboxes and graders are the EvalRun's; nothing to close here."""


def run_eval(opts: EvalOptions, on_done: Progress | None = None) -> EvalReport:
    """Run (or resume, or grade-only) an evaluation into `opts.out`; returns the report (also report.json).
    `on_done` sees each (instance, attempt) as it finishes (the CLI prints a line)."""
    return EvalRun(opts, on_done).run()
