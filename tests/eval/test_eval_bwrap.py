"""End to end on bwrap: mini-swe-agent (DeterministicModel) -> preds.jsonl -> swebench's eval script and parser.

Four SWE-bench-schema instances: a fix that resolves, a wrong fix, no change (empty
patch) and a run that sleeps past its time budget. Then: a rerun resumes without
running or grading anything again; --grade-only grades the predictions under a new run
id; --redo reruns; --attempts reports pass@k.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import EMPTY, RESOLVES, TIMEOUT, WRONG, options

from swerl.errors import SwerlError
from swerl.eval.runner import run_eval


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def first_run(sb_pack: Path, bwrap_settings: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("run") / "run"
    rep = run_eval(options(out, sb_pack, [RESOLVES, WRONG, EMPTY, TIMEOUT], workers=2, backend="bwrap",
                           sandbox=bwrap_settings))
    return out, rep


def test_outcomes_preds_and_report(first_run: tuple[Path, Any]) -> None:
    out, rep = first_run
    outcome = {x.instance_id: (x.outcome, x.exit_status) for x in rep.instances}
    assert outcome == {RESOLVES: ("resolved", "Submitted"), WRONG: ("unresolved", "Submitted"),
                       EMPTY: ("empty_patch", "Submitted"), TIMEOUT: ("empty_patch", "TimeExceeded")}
    assert rep.counts == {"resolved": 1, "unresolved": 1, "empty_patch": 2, "error": 0, "infra_failure": 0}
    assert rep.resolved_pct == 25.0 and rep.exit_status == {"Submitted": 3, "TimeExceeded": 1}
    assert {r.repo: (r.instances, r.resolved) for r in rep.per_repo} == {"swerl-taskpack/calc": (1, 1),
                                                                       "swerl-taskpack/textkit": (3, 0)}
    assert rep.mean_steps == 2.0
    # preds.jsonl: exactly the official keys, one line per instance, the host-side patch
    preds = {p["instance_id"]: p for p in _lines(out / "preds.jsonl")}
    assert set(preds) == {RESOLVES, WRONG, EMPTY, TIMEOUT}
    assert all(set(p) == {"instance_id", "model_name_or_path", "model_patch"} for p in preds.values())
    assert "+    return (ordered[mid - 1] + ordered[mid]) / 2" in preds[RESOLVES]["model_patch"]
    assert "len(candidate) < width - 1:" in preds[WRONG]["model_patch"]
    assert preds[EMPTY]["model_patch"] == "" and preds[TIMEOUT]["model_patch"] == ""
    # graded by swebench's eval script + get_logs_eval in fresh bwrap sandboxes; empty patches are not graded
    grades = {g["instance_id"]: g for g in _lines(out / "grades.jsonl")}
    assert grades[RESOLVES]["grader"] == "sandbox-bwrap" and grades[EMPTY]["grader"] == "none"
    assert grades[WRONG]["fail_to_pass"]["failure"] == ["tests/test_wrap.py::test_wrap_exact_width"]
    assert ">>>>> Start Test Output" in (out / grades[RESOLVES]["log"]).read_text()
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["run_id"] == rep.run_id and manifest["model"]["name"] == "deterministic"
    assert json.loads((out / "report.json").read_text())["counts"] == rep.counts
    traj = json.loads((out / "trajs" / RESOLVES / "attempt0.traj.json").read_text())
    assert traj["info"]["exit_status"] == "Submitted"


def test_rerun_resumes_without_rerunning_or_regrading(first_run: tuple[Path, Any], sb_pack: Path,
                                                     bwrap_settings: Any) -> None:
    out, rep = first_run
    agent_lines, grade_lines = len(_lines(out / "agent.jsonl")), len(_lines(out / "grades.jsonl"))
    again = run_eval(options(out, sb_pack, [RESOLVES, WRONG, EMPTY, TIMEOUT], backend="bwrap", sandbox=bwrap_settings))
    assert again.run_id == rep.run_id and again.counts == rep.counts
    assert len(_lines(out / "agent.jsonl")) == agent_lines and len(_lines(out / "grades.jsonl")) == grade_lines
    # a different model in the same run dir is refused, not mixed in
    with pytest.raises(SwerlError, match=r"holds a different run.*model: 'deterministic' .run dir. vs 'other'"):
        run_eval(options(out, sb_pack, [RESOLVES], model_name="other", backend="bwrap", sandbox=bwrap_settings))


def test_grade_only_uses_a_new_run_id(first_run: tuple[Path, Any], sb_pack: Path, bwrap_settings: Any,
                                      tmp_path: Path) -> None:
    out, rep = first_run
    preds = tmp_path / "preds.jsonl"
    rows = _lines(out / "preds.jsonl")
    broken = {"instance_id": RESOLVES, "model_name_or_path": "x",
              "model_patch": "diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n"}
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows if r["instance_id"] != RESOLVES))
    graded = run_eval(options(tmp_path / "graded", sb_pack, None, grade_only=preds, backend="bwrap",
                              sandbox=bwrap_settings))
    assert graded.run_id != rep.run_id
    assert {x.instance_id: x.outcome for x in graded.instances} == {WRONG: "unresolved", EMPTY: "empty_patch",
                                                                    TIMEOUT: "empty_patch"}
    assert not (tmp_path / "graded" / "agent.jsonl").exists()  # no agent ran
    assert all(g["run_id"] == graded.run_id for g in _lines(tmp_path / "graded" / "grades.jsonl"))
    # a patch that does not apply is swebench's "error" bucket
    preds.write_text(json.dumps(broken) + "\n")
    bad = run_eval(options(tmp_path / "broken", sb_pack, None, grade_only=preds, backend="bwrap",
                           sandbox=bwrap_settings))
    assert bad.counts["error"] == 1 and bad.instances[0].error == "patch did not apply"
    preds.write_text(json.dumps({**broken, "instance_id": "swerl-taskpack__calc-nope"}) + "\n")
    with pytest.raises(SwerlError, match=r"instance id\(s\) not in --dataset.*swerl-taskpack__calc-nope"):
        run_eval(options(tmp_path / "unknown", sb_pack, None, grade_only=preds, backend="bwrap",
                         sandbox=bwrap_settings))


def test_attempts_and_redo(sb_pack: Path, bwrap_settings: Any, tmp_path: Path) -> None:
    out = tmp_path / "k"
    rep = run_eval(options(out, sb_pack, [RESOLVES, EMPTY], attempts=2, workers=2, backend="bwrap",
                           sandbox=bwrap_settings))
    assert rep.pass_at_k == {"pass@1": 50.0, "pass@2": 50.0}
    assert len(_lines(out / "preds.attempt1.jsonl")) == 2
    assert len(_lines(out / "agent.jsonl")) == 4
    rep2 = run_eval(options(out, sb_pack, [RESOLVES], attempts=2, redo=True, backend="bwrap", sandbox=bwrap_settings))
    agents = _lines(out / "agent.jsonl")
    assert sum(a["instance_id"] == RESOLVES for a in agents) == 4 and len(agents) == 6  # only RESOLVES ran again
    assert [p["instance_id"] for p in _lines(out / "preds.jsonl")].count(RESOLVES) == 1
    assert rep2.counts["resolved"] == 1 and rep2.total == 1


def test_swesmith_rows_run_only_then_graded_with_the_profile(bwrap_settings: Any, tmp_path: Path) -> None:
    """SWE-smith rows (the bundled pack, as `swerl data filter` writes them): --run-only writes predictions and
    grades nothing; the next run grades them with the swesmith profile without running the agent again."""
    out = tmp_path / "smith"
    ids = ["swerl-taskpack__calc.median_even", "swerl-taskpack__textkit.wrap_off_by_one"]
    rep = run_eval(options(out, "taskpack", ids, run_only=True, backend="bwrap", sandbox=bwrap_settings))
    assert rep.counts["pending"] == 2 and rep.counts["resolved"] == 0
    assert not (out / "grades.jsonl").exists() and len(_lines(out / "preds.jsonl")) == 2
    rep = run_eval(options(out, "taskpack", ids, backend="bwrap", sandbox=bwrap_settings))
    assert {x.instance_id: x.outcome for x in rep.instances} == {ids[0]: "resolved", ids[1]: "unresolved"}
    assert "pending" not in rep.counts and len(_lines(out / "agent.jsonl")) == 2
    assert {g["grader"] for g in _lines(out / "grades.jsonl")} == {"sandbox-bwrap"}


def test_filter_test_split_graded_with_gold_patches(bwrap_settings: Any, tmp_path: Path) -> None:
    """`swerl data filter`'s test split (SWE-smith rows, save_to_disk dir) through --grade-only: gold resolves."""
    from swerl.data.params import FilterParams
    from swerl.data.pipeline import run_filter
    from swerl.sandbox.tasks import load_taskpack

    pack, _ = load_taskpack()
    run_filter(FilterParams(dataset=str(pack.root / "tasks.jsonl"), inspect="local", repos=str(pack.root / "repos"),
                            test_size=3, out=str(tmp_path / "filtered")))
    rows = {r.instance_id: r for r in pack.rows}
    import datasets

    test_ids = list(datasets.load_from_disk(str(tmp_path / "filtered" / "test"))["instance_id"])
    preds = tmp_path / "gold.jsonl"
    preds.write_text("".join(json.dumps({"instance_id": i, "model_name_or_path": "gold",
                                         "model_patch": pack.gold_patch(rows[i])}) + "\n" for i in test_ids))
    rep = run_eval(options(tmp_path / "run", tmp_path / "filtered" / "test", None, grade_only=preds,
                           backend="bwrap", sandbox=bwrap_settings))
    assert rep.total == 3 and rep.counts["resolved"] == 3, rep.instances
    assert json.loads((tmp_path / "run" / "run.json").read_text())["model"]["kind"] == "predictions"


def test_infra_failures_are_retried_and_never_predictions(sb_pack: Path, sb_rows: list[dict[str, Any]],
                                                          bwrap_settings: Any, tmp_path: Path) -> None:
    """A sandbox that cannot start (the base commit is not in the repository) is infrastructure: retried,
    recorded, no prediction written, and run again on the next resume."""
    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    broken = {**row, "base_commit": "0" * 40, "repo_dir": str((sb_pack.parent / row["repo_dir"]).resolve())}
    data = tmp_path / "broken.jsonl"
    data.write_text(json.dumps(broken) + "\n")
    out = tmp_path / "run"
    rep = run_eval(options(out, data, [RESOLVES], infra_retries=1, backend="bwrap", sandbox=bwrap_settings))
    assert rep.counts["infra_failure"] == 1 and rep.resolved_pct == 0
    assert "SandboxError" in (rep.instances[0].error or "") and "0000000" in (rep.instances[0].error or "")
    agents = _lines(out / "agent.jsonl")
    assert [a["error_kind"] for a in agents] == ["infra", "infra"]  # first try + one retry
    assert not (out / "preds.jsonl").exists()
    run_eval(options(out, data, [RESOLVES], infra_retries=0, backend="bwrap", sandbox=bwrap_settings))
    assert len(_lines(out / "agent.jsonl")) == 3  # resumed: tried again
