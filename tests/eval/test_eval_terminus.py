"""`swerl eval swebench --harness terminus-2`: harbor's Terminus-2 (unchanged) on a SWE-bench-schema instance in
bwrap, its model an engine on loopback answering Terminus-2 JSON actions, graded by swebench's eval script in a
fresh sandbox — the same harness dispatch (`swerl.rollout.runner.agent_runner`) as train and probe."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import RESOLVES, options
from terminus_expert import ExpertEngine, action

from swerl.errors import SwerlError
from swerl.eval.runner import run_eval


def _answers(row: dict[str, Any]) -> list[str]:
    """The gold fix applied forward (a SWE-bench row's `patch` is the fix), then Terminus-2's double completion."""
    blob = base64.b64encode(row["patch"].encode()).decode()
    return [action(1, "A bug report.", "Apply the fix.", [f"echo {blob} | base64 -d | patch -p1\n"]),
            action(2, "The fix is applied.", "Mark the task complete.", [], complete=True),
            action(3, "Done.", "Confirm completion.", [], complete=True)]


def test_eval_runs_terminus_on_bwrap_and_grades_it(sb_pack: Path, sb_rows: list[dict[str, Any]],
                                                    tmp_path: Path) -> None:
    from swerl.gateway.server import ServerThread
    from swerl.models import build_tiny_tokenizer

    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    engine = ExpertEngine(build_tiny_tokenizer(), _answers(row))
    srv = ServerThread(engine.app()).start()
    try:
        out = tmp_path / "run"
        rep = run_eval(options(out, sb_pack, [RESOLVES], model=srv.url + "/v1", model_name="swerl-expert",
                               harness="terminus-2", agent_config={}, step_limit=8, max_tokens=4096,
                               rollout_timeout_s=180, backend="bwrap"))
    finally:
        srv.stop()
    assert (rep.counts["resolved"], rep.instances[0].exit_status) == (1, "Submitted")
    preds = [json.loads(line) for line in (out / "preds.jsonl").read_text().splitlines()]
    assert "+    return (ordered[mid - 1] + ordered[mid]) / 2" in preds[0]["model_patch"]
    agent = [json.loads(line) for line in (out / "agent.jsonl").read_text().splitlines()]
    assert agent[0]["n_calls"] == 3  # the three answers, each a recorded call


def test_terminus_on_docker_is_refused_before_any_work(sb_pack: Path, tmp_path: Path) -> None:
    with pytest.raises(SwerlError, match="--harness terminus-2: runs on --backend bwrap only"):
        run_eval(options(tmp_path / "run", sb_pack, [RESOLVES], harness="terminus-2", backend="docker"))
