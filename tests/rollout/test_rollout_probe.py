"""`swerl data probe` end to end on the task pack, read back by `swerl data filter --probe-results`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN
from typer.testing import CliRunner

from swerl.cli import app
from swerl.rollout.probe import ProbeLog, ProbeTarget, run_probe
from swerl.rollout.schema import ProbeRecord, RolloutSettings
from swerl.rollout.tasks import TaskSource

cli = CliRunner()
SWAP = "swerl-taskpack__calc.op_swap_add"


def swerl(*args: str | Path) -> Any:
    res = cli.invoke(app, [str(a) for a in args])
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    assert res.exit_code == 0, res.output
    return res


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_probe_then_filter_end_to_end_and_resume(engines: Any, pack: Any, tmp_path: Path) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)  # fixes median_even; on op_swap_add it changes nothing
    results = tmp_path / "probe.jsonl"
    common = ["data", "probe", "--probe-results", results, "--endpoint", url, "--limit", "2",
              "--set", "rollout.harness=mini-swe-agent-textbased", "--set", "model.path=scripted",
              "--set", "rollout.max_tokens=256", "--set", "rollout.concurrency=2",
              "--trajectories", tmp_path / "traj"]
    res = swerl(*common, "--attempts", "2")
    assert "recorded now" in res.output
    lines = _lines(results)
    assert sorted((x["instance_id"], x["attempt"]) for x in lines) == sorted([(SWAP, 0), (SWAP, 1), (MEDIAN, 0), (MEDIAN, 1)])
    assert {x["instance_id"]: x["resolved"] for x in lines} == {SWAP: False, MEDIAN: True}
    # the gateway it started recorded every call, in a store next to the results
    assert (tmp_path / "probe.jsonl.gateway.sqlite").exists()
    assert len(list((tmp_path / "traj").glob("*.traj.json"))) == 4

    # resumable: a rerun with k=3 runs only the missing attempt of each task
    swerl(*common, "--attempts", "3")
    lines = _lines(results)
    assert len(lines) == 6 and sorted(x["attempt"] for x in lines[4:]) == [2, 2]

    # and `swerl data filter` reads exactly what the probe wrote
    out = tmp_path / "filtered"
    swerl("data", "filter", "--dataset", pack[0].root / "tasks.jsonl", "--out", out, "--probe-results", results,
          "--attempts", "3", "--inspect", "none", "--test-size", "0")
    report = json.loads((out / "report.json").read_text())
    assert report["kept"] == {"mixed": 0, "all_fail": 1}  # op_swap_add: 0/3 resolved
    assert report["dropped"]["too_easy"] == 1 and report["splits"]["train"] == 1
    # the other tasks were not probed (one of them is dropped earlier, for its empty problem statement)
    assert report["dropped"]["not_probed"] + report["dropped"]["empty_problem_statement"] == len(pack[0].rows) - 2
    dropped = {json.loads(x)["instance_id"]: json.loads(x)["reason"]
               for x in (out / "dropped.jsonl").read_text().splitlines()}
    assert dropped[MEDIAN] == "too_easy" and SWAP not in dropped


def test_torn_last_line_is_cut_and_direct_probe_appends(engines: Any, sandbox: Any, settings: RolloutSettings,
                                                        tmp_path: Path) -> None:
    results = tmp_path / "probe.jsonl"
    results.write_bytes(b'{"instance_id": "a", "attempt": 0, "resolved": true}\n{"instance_id": "a", "att')
    log = ProbeLog(results)
    assert log.done == {("a", 0)} and results.read_bytes().endswith(b"true}\n")

    _, url = engines.scripted(SOLVE_MEDIAN)
    source = TaskSource("taskpack")
    source.rows = [source.row(MEDIAN)]
    seen: list[tuple[int, int, ProbeRecord | None]] = []
    rep = run_probe(source, results=results, k=1, sandbox=sandbox, settings=settings,
                    target=ProbeTarget(endpoint=url + "/v1"), progress=lambda *a: seen.append(a))
    assert (rep.recorded, rep.resolved, rep.skipped, rep.infra_failed) == (1, 1, 0, [])
    assert _lines(results)[-1] == {"instance_id": MEDIAN, "attempt": 0, "resolved": True}
    assert seen[0] == (0, 1, None) and seen[-1][:2] == (1, 1)
