"""`swerl train --recipe tiny-verl-vllm` in `.venv-verl-vllm`: verl's own vLLM replicas (vLLMReplica /
vLLMHttpServer on CPU vLLM 0.31) serve the loop's rollouts through the gateway, tool-calling mini-swe-agent runs on
the bundled tasks in bwrap, verl's FSDP2 actor updates on 2 gloo ranks, and after every update verl's
`CheckpointEngineManager.update_weights` (naive; verl's shared-memory bucket transfer) brings the replicas the new
policy, checked by the log-prob canary. Slow (8.3 min on 2 shared cores, ~5 min of it the warm start).

The model is the recipe's tiny architecture, warm-started (`verl_helpers.warm_start_tool_caller`) on the prompts the
harness sends, so that it writes valid bash tool calls in Qwen's JSON format: vLLM's `hermes` parser turns them into
`tool_calls`, and mini-swe-agent runs them in the sandbox (required below). Its commands and turn counts vary, and
DAPO's soft overlong penalty (`algorithm.overlong: penalty`, an algorithm setting) turns the different trajectory
lengths into different rewards, so the policy gradient is not zero and every update moves the weights (no tiny model
solves a bundled task: without it every advantage is 0 and verl skips the step).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from verl_helpers import warm_start_tool_caller

pytestmark = pytest.mark.slow

CANARY_TOLERANCE = 1e-3


def _recorded_exchanges(store: Path) -> list[tuple[dict, dict]]:
    """Every (request, chat completion) pair the gateway recorded, requests rebuilt from the store's delta records."""
    from swerl.gateway import sql

    with sqlite3.connect(store) as db:
        events = sql.list_events_global(db, 0, 1_000_000, ["model_request"], True)
    return [(e["request"], e["response"]) for e in events if e.get("request") and e.get("response")]


@pytest.mark.timeout(3600)
def test_tiny_verl_vllm_trains_with_verls_vllm_replicas(tmp_path: Path) -> None:
    t0 = time.monotonic()
    model = warm_start_tool_caller(tmp_path / "warm")
    warm_start_s = round(time.monotonic() - t0, 1)
    run = tmp_path / "tvv"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "MSWEA_SILENT_STARTUP": "1",
           "COLUMNS": "200", "SWERL_LOG_JSON": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "swerl.cli", "--log-level", "INFO", "train", "--recipe", "tiny-verl-vllm",
         "--out", str(run), "--set", f"model.path={model}", "--set", "algorithm.overlong=penalty",
         "--set", "algorithm.overlong_max_tokens=160", "--set", "algorithm.overlong_buffer=150"],
        capture_output=True, text=True, env=env, timeout=2400)
    log = proc.stdout + proc.stderr
    (tmp_path / "train.log").write_text(log)
    assert proc.returncode == 0, log[-5000:]
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    # verl's vLLM replicas were launched and served (verl's own server class and vLLM's engine)
    assert "vLLMHttpServer" in log and "CPUReloadWorkerExtension" in log
    # every update moved the policy, and the replicas got each new version through verl's sync
    assert all(r["policy/updated"] == 1.0 and r["policy/grad_norm"] > 0 for r in rows)
    assert [r["policy_version"] for r in rows] == [1, 2, 3]
    assert [r["engine/weights_version"] for r in rows] == [0.0, 1.0, 2.0]
    # the canary after every sync (the first one at start, then one per update): vLLM's log-probs = the actor's
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{") and '"msg"' in line]
    diffs = [r["max_abs_logprob_diff"] for r in records if r["msg"] == "verl_weight_sync_canary"]
    assert len(diffs) == 4 and all(0.0 <= d <= CANARY_TOLERANCE for d in diffs), diffs
    assert all(r["engine/canary_max_abs_logprob_diff"] <= CANARY_TOLERANCE for r in rows)
    # tool-calling mini-swe-agent through the gateway: every recorded request carried tools=[bash] and vLLM
    # (--enable-auto-tool-choice, hermes) answered it; vLLM's parser turned the model's calls into `tool_calls`,
    # and mini-swe-agent ran them (later requests carry the calls and their observations as `tool` messages)
    exchanges = _recorded_exchanges(run / "gateway.sqlite")
    assert exchanges and all(any(t["function"]["name"] == "bash" for t in q["tools"]) for q, _ in exchanges)
    assert all(a["model"] == "policy" and a["choices"] for _, a in exchanges)
    texts = [a["choices"][0]["message"].get("content") or "" for _, a in exchanges]
    calls = [c for _, a in exchanges for c in (a["choices"][0]["message"].get("tool_calls") or [])]
    commands = [json.loads(c["function"]["arguments"]).get("command") for c in calls]
    observed = {m.get("tool_call_id") for q, _ in exchanges for m in q["messages"] if m.get("role") == "tool"}
    summary = {"warm_start_s": warm_start_s, "responses": len(exchanges), "parsed_tool_calls": len(calls),
               "responses_with_tool_calls": sum(bool(a["choices"][0]["message"].get("tool_calls")) for _, a in exchanges),
               "unparsed_tool_call_text": sum("<tool_call>" in t for t in texts), "tool_observations_sent": len(observed),
               "commands": dict(Counter(map(str, commands))), "canary": diffs,
               "grad_norm": [r["policy/grad_norm"] for r in rows]}
    (tmp_path / "tool_calls.json").write_text(json.dumps(summary, indent=1))
    print("tiny-verl-vllm:", json.dumps(summary))  # the numbers docs/verl.md quotes (pytest -s)
    assert calls and all(c["function"]["name"] == "bash" for c in calls), summary
    assert all(isinstance(c, str) and c for c in commands), summary
    assert observed, summary
