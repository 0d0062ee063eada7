"""Resume after a kill: `swerl eval swebench` is SIGKILLed mid-run, rerun with the same --out, and finishes
without re-running any instance whose prediction was already written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from eval_helpers import EMPTY, RESOLVES, WRONG, deterministic_config, options

from swerl.eval.runner import run_eval


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def test_killed_run_resumes_where_it_stopped(sb_pack: Path, bwrap_settings: Any, tmp_path: Path) -> None:
    cfg = tmp_path / "agent.yaml"
    cfg.write_text(yaml.safe_dump(deterministic_config(pre_sleep=1.5)))  # ~2 s per instance
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "swerl.cli", "eval", "swebench", "--model", "http://127.0.0.1:9/v1",
            "--model-name", "deterministic", "--dataset", str(sb_pack), "--instances", f"{RESOLVES},{WRONG},{EMPTY}",
            "--backend", "bwrap", "--agent-config", str(cfg), "--out", str(out), "--workers", "1",
            "--instance-timeout", "120", "--infra-retries", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not _lines(out / "preds.jsonl"):
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            assert time.monotonic() < deadline, "no prediction written within 120 s"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # a hard crash: no cleanup code runs
        proc.wait(timeout=30)
    first = _lines(out / "preds.jsonl")
    assert len(first) < 3, "the run finished before it could be killed"
    done_before = {p["instance_id"] for p in first}
    run_id = json.loads((out / "run.json").read_text())["run_id"]

    # rerun (same --out): finishes the rest, never re-runs a finished instance, keeps the run id
    rep = run_eval(options(out, sb_pack, [RESOLVES, WRONG, EMPTY], backend="bwrap", sandbox=bwrap_settings))
    assert rep.run_id == run_id
    assert {x.instance_id: x.outcome for x in rep.instances} == {RESOLVES: "resolved", WRONG: "unresolved",
                                                                 EMPTY: "empty_patch"}
    agents = _lines(out / "agent.jsonl")
    for iid in done_before:
        assert sum(a["instance_id"] == iid for a in agents) == 1, f"{iid} was run again after resuming"
    preds = [p["instance_id"] for p in _lines(out / "preds.jsonl")]
    assert sorted(preds) == sorted({RESOLVES, WRONG, EMPTY})  # one prediction line per instance
    assert all(g["run_id"] == run_id for g in _lines(out / "grades.jsonl"))
