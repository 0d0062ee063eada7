"""Run directories for `swerl view` tests and benchmarks, written with the real writers.

`make_train_run`: a gateway store (swerl.gateway.sql) of generated mini-swe-agent-like rollouts
(`synthetic_traces`: real tokenizer and chat template, drift and context edits so rollouts split),
then for each update what the trainer writes: the update's batch rebuilt with the trainer's fetch and
assembly, advantages (`compute_advantages`), `MetricsWriter.update/write/hacking`. It plants secrets, an
infrastructure failure retried as attempt 2, a hacking hit, a trajectory and a validation rollout.
`make_eval_run`: an eval run dir from the eval room's own record models, report and compare.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import orjson
import yaml
from synthetic_traces import TraceConfig, make_rollout_events

from swerl.config import load_recipe
from swerl.gateway import sql
from swerl.tokens import TokenBatch
from swerl.train.advantage import compute_advantages
from swerl.train.assembly import assemble
from swerl.train.loop.hacking import BlockedHack
from swerl.train.loop.metrics import MetricsWriter
from swerl.train.loop.update import Batch, batch_metrics

SECRET = "sk-viewtest0123456789abcdefSECRET"
"""Planted in requests, metadata and trajectories: no page may show it."""
TRACES = TraceConfig(turns_min=3, turns_max=4, drift_prob=0.5, context_edit_prob=0.4, obs_lines_max=6,
                     task_paragraphs=1)


def open_store(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    sql.init(conn, str(path))
    return conn


def add_rollout(conn: sqlite3.Connection, rid: str, group: str, *, state: str = "succeeded", attempt: int = 1,
                metadata: dict[str, Any] | None = None) -> None:
    now = time.time()
    sql.insert_rollout(conn, {"id": rid, "group_id": group, "state": state, "attempt": attempt, "max_attempts": 3,
                              "token_hash": rid.encode(), "engine": "e0", "metadata": orjson.dumps(metadata or {}),
                              "created": now, "updated": now})


def add_event(conn: sqlite3.Connection, **fields: Any) -> tuple[int, int]:
    fields.pop("seq", None)
    if "value" in fields:
        fields["reward"] = fields.pop("value")
    return sql.insert_event(conn, sql.event_row(**fields))


def _calls(conn: sqlite3.Connection, rid: str, group: str, seed: int, tok: Any, attempt: int) -> float:
    """Generated calls + reward + final status of one attempt; returns the reward."""
    reward = float(seed % 3 == 0)
    events = make_rollout_events(tok, rollout_id=rid, group_id=group, seed=seed, config=TRACES, reward=reward)
    msgs: list[dict[str, str]] = [{"role": "system", "content": "You are a helpful assistant."}]
    add_event(conn, rollout_id=rid, group_id=group, attempt=attempt, kind="status", state="running",
              data={"from": "queued", "reason": "claimed by controller"}, created=time.time())
    for k, e in enumerate(events):
        if e["kind"] == "reward":
            data = {"reward": reward, "exit_status": "Submitted", "submitted": True, "resolved": reward > 0,
                    "fail_to_pass": {"success": ["t1"] if reward else [], "failure": [] if reward else ["t1"]}}
            add_event(conn, rollout_id=rid, group_id=group, attempt=attempt, kind="reward", reward=reward, data=data,
                      created=time.time())
            continue
        msgs.append({"role": "user", "content": f"observation {k}: Authorization: Bearer {SECRET}"})
        t = time.time()
        add_event(conn, rollout_id=rid, group_id=group, attempt=attempt, kind="model_request", mode="chat",
                  policy_version=0, prompt_ids=e["prompt_ids"], response_ids=e["response_ids"],
                  response_logprobs=e["response_logprobs"], finish_reason="stop", http_status=200,
                  request={"model": "tiny", "api_key": SECRET, "messages": list(msgs)},
                  response={"choices": [{"message": {"role": "assistant", "content": f"reply {k}"}}]},
                  t_arrival=t, t_start=t + 0.25, t_end=t + 1.0, created=t + 1.0)
        msgs.append({"role": "assistant", "content": f"reply {k}"})
    add_event(conn, rollout_id=rid, group_id=group, attempt=attempt, kind="status", state="succeeded",
              data={"from": "running"}, created=time.time())
    return reward


def write_recipe(root: Path) -> None:
    recipe = load_recipe("tiny").model_dump(mode="json")
    (root / "recipe.yaml").write_text(yaml.safe_dump(recipe, sort_keys=False))


def make_train_run(root: Path, tokenizer: Any, *, updates: int = 2, groups: int = 2, n: int = 2) -> dict[str, Any]:
    """A finished training run of `updates` updates; returns what tests check against (ids, samples)."""
    root.mkdir(parents=True, exist_ok=True)
    write_recipe(root)
    conn = open_store(root / "gateway.sqlite")
    writer = MetricsWriter(root, tensorboard=False)
    out: dict[str, Any] = {"updates": {}, "infra": None, "hacked": None, "val": "v0-0000000.task-v:0"}
    seed = 0
    for step in range(1, updates + 1):
        ids_by_group = []
        for g in range(groups):
            group = f"t0-{step:03d}{g}.task-{step}-{g}"
            ids_by_group.append([f"{group}:{k}" for k in range(n)])
            for rid in ids_by_group[-1]:
                seed += 1
                retried = out["infra"] is None
                add_rollout(conn, rid, group, attempt=2 if retried else 1,
                            metadata={"instance_id": f"task-{step}-{g}", "split": "train", "api_token": SECRET})
                if retried:  # attempt 1 failed on infrastructure, attempt 2 is the one trained
                    add_event(conn, rollout_id=rid, group_id=group, attempt=1, kind="status", state="failed_infra",
                              data={"from": "running", "reason": "sandbox start failed"}, created=time.time())
                    out["infra"] = rid
                _calls(conn, rid, group, seed, tokenizer, 2 if retried else 1)
        out["updates"][step] = _record_update(conn, writer, step, ids_by_group, tokenizer, out)
    add_rollout(conn, out["val"], "v0-0000000.task-v", metadata={"split": "val"})
    _calls(conn, out["val"], "v0-0000000.task-v", 999, tokenizer, 1)
    writer.close()
    conn.close()
    _trajectory(root, out["infra"], 2)
    return out


def _record_update(conn: sqlite3.Connection, writer: MetricsWriter, step: int, groups: list[list[str]], tok: Any,
                   out: dict[str, Any]) -> dict[str, Any]:
    ids = [r for g in groups for r in g]
    batch = TokenBatch.from_bytes(sql.token_batch(conn, ids, ["model_request", "reward"], True, "none"))
    samples, stats = assemble(batch, tokenizer=tok, rollouts=ids)
    adv = compute_advantages(samples, estimator="grpo", level="rollout", std_normalize=False)
    rewards = {s.rollout_id: float(s.reward or 0.0) for s in samples}
    hits = [] if out["hacked"] else [BlockedHack("git", ids[0], "git log", f"git is disabled in this sandbox (swerl) {SECRET}")]
    out["hacked"] = out["hacked"] or ids[0]
    b = Batch(samples, groups, rewards, stats, [0] * len(ids), [], [], hits, [], dict.fromkeys(ids, 0),
              {(s.rollout_id, s.sample_index): a for s, a in zip(samples, adv, strict=True)})
    writer.update(step, step - 1, b)
    writer.hacking(step, hits)
    writer.write({"step": step, "policy_version": step, **batch_metrics(b), "policy/entropy": 1.0 / step,
                  "time/rollout_s": 1.0, "time/update_s": 0.5})
    return {"samples": samples, "stats": stats, "advantages": adv}


def _trajectory(root: Path, rid: str, attempt: int) -> None:
    d = root / "trajectories"
    d.mkdir(exist_ok=True)
    traj = {"info": {"exit_status": "Submitted", "swerl": {"patch": "diff --git a/x.py b/x.py\n+fixed\n"},
                     "config": {"model": {"api_key": SECRET}}},
            "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": f"task {SECRET}"},
                         {"role": "assistant", "content": "THOUGHT: fix it"}, {"role": "exit", "content": "done"}]}
    (d / f"{rid}.attempt{attempt}.traj.json").write_text(json.dumps(traj))


def make_eval_run(root: Path, resolved: set[str], instances: tuple[str, ...] = ("calc__add-1", "calc__neg-2", "text__cut-3")
                  ) -> None:
    """An eval run dir: manifest, agent records, predictions, grades with a harness log, trajectories, report."""
    from swerl.eval.report import build_report
    from swerl.eval.schema import AgentRecord, GradeRecord, ModelSpec, PredRow, RunManifest
    from swerl.eval.store import RunStore, patch_sha, write_json_atomic

    store = RunStore(root)
    run_id = f"20260101-000000-{abs(hash(root.name)) % 16**8:08x}"
    m = RunManifest(run_id=run_id, created_at=time.time(), swerl_version="0.1.0", dataset="taskpack", split="test",
                    model=ModelSpec(kind="endpoint", source="http://127.0.0.1:1/v1", name="tiny"), backend="bwrap",
                    grader="sandbox", attempts=1, instance_ids=list(instances),
                    repos={i: i.split("__")[0] for i in instances})
    store.write_manifest(m)
    store.open()
    for iid in instances:
        patch = f"diff --git a/{iid}.py b/{iid}.py\n+fix  # key {SECRET}\n"
        traj = Path("trajs") / iid / "attempt0.traj.json"
        (root / traj).parent.mkdir(parents=True, exist_ok=True)
        (root / traj).write_text(json.dumps({"messages": [{"role": "user", "content": f"fix {iid}"},
                                                          {"role": "assistant", "content": "THOUGHT: done"}]}))
        log = Path("logs") / f"{run_id}_a0" / iid / "test_output.txt"
        (root / log).parent.mkdir(parents=True, exist_ok=True)
        (root / log).write_text(f"PASSED test_{iid}\n" if iid in resolved else f"FAILED test_{iid}\n")
        store.add_agent(AgentRecord(run_id=run_id, instance_id=iid, attempt=0, repo=m.repos[iid], exit_status="Submitted",
                                    n_calls=3, patch_sha=patch_sha(patch), patch_bytes=len(patch), trajectory=str(traj)))
        store.add_pred(0, PredRow(instance_id=iid, model_name_or_path="tiny", model_patch=patch))
        ok = iid in resolved
        store.add_grade(GradeRecord(run_id=run_id, instance_id=iid, attempt=0, patch_sha=patch_sha(patch),
                                    grader="sandbox-bwrap", outcome="resolved" if ok else "unresolved", resolved=ok,
                                    resolution="RESOLVED_FULL" if ok else "RESOLVED_NO", log=str(log.parent)))
    write_json_atomic(root / "report.json", build_report(store, m).model_dump(mode="json"))


def make_eval_pair(base: Path) -> tuple[Path, Path]:
    """Two eval runs over the same instances (B resolves one more) and `swerl eval compare`'s output in B."""
    from swerl.eval.compare import compare
    from swerl.eval.store import write_json_atomic

    a, b = base / "eval-before", base / "eval-after"
    make_eval_run(a, {"calc__add-1"})
    make_eval_run(b, {"calc__add-1", "calc__neg-2"})
    dest = b / f"compare-vs-{a.name}"
    dest.mkdir(parents=True, exist_ok=True)
    write_json_atomic(dest / "compare.json", compare(a, b, samples=200).model_dump(mode="json"))
    return a, b


__all__ = ["SECRET", "TRACES", "add_event", "add_rollout", "make_eval_pair", "make_eval_run", "make_train_run", "open_store", "write_recipe"]
