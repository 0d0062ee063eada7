"""`swerl eval ...` on the command line: bad input gives one clear line naming the flag (exit 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from eval_helpers import RESOLVES
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import SwerlError

runner = CliRunner()
BASE = ["eval", "swebench", "--model", "http://127.0.0.1:9/v1", "--model-name", "m", "--backend", "bwrap"]


def _err(args: list[str]) -> str:
    res = runner.invoke(app, args)
    assert isinstance(res.exception, SwerlError), (res.exception, res.output)
    return str(res.exception)


def test_bad_input_names_the_flag(sb_pack: Path, tmp_path: Path) -> None:
    out = ["--out", str(tmp_path / "run")]
    assert "--dataset 'nobody/NoSuchBench'" in _err([*BASE, *out, "--dataset", "nobody/NoSuchBench"])
    assert "unknown instance id(s) swerl-taskpack__calc-nope" in _err(
        [*BASE, *out, "--dataset", str(sb_pack), "--instances", "swerl-taskpack__calc-nope"])
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"instance_id": RESOLVES, "model_patch": ""}) + "\n{oops\n")
    msg = _err([*BASE, *out, "--dataset", str(sb_pack), "--grade-only", str(preds)])
    assert msg.startswith(f"--grade-only '{preds}': line 2 is not valid JSON")
    assert "exclude each other" in _err([*BASE, *out, "--grade-only", str(preds), "--run-only"])
    assert "--model './nowhere'" in _err(["eval", "swebench", "--model", "./nowhere", "--backend", "bwrap",
                                          "--dataset", str(sb_pack), "--instances", RESOLVES, *out])
    bad_cfg = tmp_path / "agent.yaml"
    bad_cfg.write_text("- just\n- a list\n")
    assert "--agent-config" in _err([*BASE, *out, "--agent-config", str(bad_cfg)])
    assert not (tmp_path / "run" / "preds.jsonl").exists()


def test_cli_exits_2_with_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "swerl.cli", *BASE, "--dataset", "./missing.jsonl", "--out",
                           str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "error:" in proc.stderr and "--dataset './missing.jsonl': no such file" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    from swerl.eval.schema import EvalReport, InstanceAttempt

    dirs = []
    for name, resolved in (("before", {"o__a-1"}), ("after", {"o__a-1", "o__a-2"})):
        d = tmp_path / name
        d.mkdir()
        rep = EvalReport(run_id=name, model="m", dataset="d", split="test", total=3, counts={}, resolved_pct=0,
                         resolved_ids=[], per_repo=[], mean_steps=0, mean_tokens=0, mean_cost=0, exit_status={},
                         attempts=1, instances=[InstanceAttempt(instance_id=i, attempt=0, repo="o/a",
                                                                outcome="resolved" if i in resolved else "unresolved")
                                                for i in ("o__a-1", "o__a-2", "o__a-3")])
        (d / "report.json").write_text(rep.model_dump_json())
        dirs.append(d)
    return dirs[0], dirs[1]


def test_compare_command_writes_json_and_png(two_runs: tuple[Path, Path]) -> None:
    a, b = two_runs
    res = runner.invoke(app, ["eval", "compare", str(a), str(b), "--samples", "500"])
    assert res.exit_code == 0, res.output
    dest = b / "compare-vs-before"
    rep = json.loads((dest / "compare.json").read_text())
    assert rep["gained"] == [{"instance_id": "o__a-2", "repo": "o/a", "a": False, "b": True}] and rep["lost"] == []
    assert (dest / "compare.png").read_bytes()[:4] == b"\x89PNG"
    assert "+33.3 pts" in res.output


def test_report_command_needs_a_run_dir(tmp_path: Path) -> None:
    assert "no run.json" in _err(["eval", "report", str(tmp_path)])
