"""`swerl train assemble` end to end, as a user runs it (a real process, real Qwen token ids)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE, TraceConfig, make_rollout_events

from swerl.train.assembly import assemble
from swerl.train.schema import Sample


def swerl(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SWERL_CACHE_DIR": str(cache.parent), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "swerl.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def _write(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def test_assemble_prints_stats_and_writes_samples(qwen_tok: Any, tok_cache: Path, tmp_path: Path) -> None:
    cfg = TraceConfig(turns_min=3, turns_max=3, thinking=True, obs_lines_max=5, task_paragraphs=1)
    events = []
    for r in range(3):
        events += make_rollout_events(qwen_tok, rollout_id=f"r{r}", group_id="g", seed=r, config=cfg, reward=1.0,
                                      chat_template=QWEN3_THINK_DROPPING_TEMPLATE if r == 2 else None)
    src = _write(tmp_path / "events.jsonl", events)
    out = tmp_path / "samples.jsonl"
    res = swerl("train", "assemble", "--events", str(src), "--tokenizer", "qwen2.5", "--out", str(out), cache=tok_cache)
    assert res.returncode == 0, res.stderr
    text = res.stdout
    assert "sample assembly (best_effort)" in text
    # r0, r1 merge into one sample each; r2's template drops <think> -> 3 samples, 2 think_dropped failures
    lines = {ln.split("│")[1].strip(): ln.split("│")[2].strip() for ln in text.splitlines() if ln.count("│") >= 3}
    assert lines["rollouts"] == "3" and lines["samples"] == "5"
    assert lines["merge failures: think_dropped"] == "2" and lines["merge failures: retokenize_drift"] == "0"
    assert lines["single-sample rollouts"] == "66.7%" and lines["samples per rollout (N: rollouts)"] == "1: 2, 3: 1"
    samples = [Sample.model_validate(json.loads(line)) for line in out.read_text().splitlines() if line.strip()]
    assert len(samples) == 5 and [s.rollout_id for s in samples] == ["r0", "r1", "r2", "r2", "r2"]
    first = [e for e in events if e["rollout_id"] == "r0" and e["kind"] == "model_request"][-1]
    assert samples[0].input_ids.tolist() == first["prompt_ids"] + first["response_ids"]
    in_process, _ = assemble(events)
    for got, want in zip(samples, in_process, strict=True):  # the JSONL round trip is exact
        assert np.array_equal(got.input_ids, want.input_ids) and np.array_equal(got.loss_mask, want.loss_mask)
        assert np.array_equal(got.rollout_logprobs, want.rollout_logprobs)
        assert (got.sample_index, got.reward, got.policy_versions) == (want.sample_index, want.reward,
                                                                        want.policy_versions)

    per_call = swerl("train", "assemble", "--events", str(src), "--mode", "per_call", cache=tok_cache)
    assert per_call.returncode == 0 and "sample assembly (per_call)" in per_call.stdout


def test_bad_lines_name_the_line_and_field(tok_cache: Path, tmp_path: Path) -> None:
    good = {"kind": "model_request", "rollout_id": "r", "group_id": "g", "seq": 0, "prompt_ids": [1, 2],
            "response_ids": [3], "response_logprobs": [-0.5]}
    bad = _write(tmp_path / "bad.jsonl", [good, {**good, "seq": 1, "response_logprobs": ["x"]}])
    res = swerl("train", "assemble", "--events", str(bad), cache=tok_cache)
    assert res.returncode == 2 and "line 2" in res.stderr and "response_logprobs" in res.stderr
    assert "Traceback" not in res.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(good) + "\n\n{not json\n")
    res = swerl("train", "assemble", "--events", str(broken), cache=tok_cache)
    assert res.returncode == 2 and "line 3: invalid JSON" in res.stderr
    res = swerl("train", "assemble", "--events", str(tmp_path / "missing.jsonl"), cache=tok_cache)
    assert res.returncode == 2 and "no such file" in res.stderr
    res = swerl("train", "assemble", "--events", str(bad), "--mode", "stitch", cache=tok_cache)
    assert res.returncode == 2 and "--mode 'stitch'" in res.stderr
