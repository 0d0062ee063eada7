"""The run directory's files: predictions files in and out, crash-cut lines, per-run grading keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swerl.errors import SwerlError
from swerl.eval.schema import GradeRecord, PredRow
from swerl.eval.store import RunStore, patch_sha, read_predictions


def test_read_predictions_jsonl_and_preds_json(tmp_path: Path) -> None:
    rows = [{"instance_id": "a__b-1", "model_name_or_path": "m", "model_patch": "diff"},
            {"instance_id": "a__b-2", "model_name_or_path": "m", "model_patch": None, "extra": 1}]
    jl = tmp_path / "preds.jsonl"
    jl.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    got = read_predictions(jl)
    assert [(p.instance_id, p.model_patch) for p in got] == [("a__b-1", "diff"), ("a__b-2", None)]
    # mini-swe-agent's preds.json: {instance_id: prediction}
    pj = tmp_path / "preds.json"
    pj.write_text(json.dumps({r["instance_id"]: r for r in rows}))
    assert [p.instance_id for p in read_predictions(pj)] == ["a__b-1", "a__b-2"]


@pytest.mark.parametrize(("content", "suffix", "message"), [
    ('{"instance_id": "x", "model_patch": ""}\n{"instance_id": \n', ".jsonl", "line 2 is not valid JSON"),
    ('{"instance_id": "x", "model_patch": ""}\n["x"]\n', ".jsonl", "line 2 is not a JSON object"),
    ('{"model_patch": "d"}\n', ".jsonl", "line 1 has no 'instance_id'"),
    ('{"instance_id": "x"}\n', ".jsonl", "line 1 has no 'model_patch'"),
    ('{"instance_id": "x", "model_patch": 3}\n', ".jsonl", "line 1: model_patch must be a string"),
    ('{"instance_id": "", "model_patch": ""}\n', ".jsonl", "line 1: instance_id must be a non-empty string"),
    ('{"instance_id": "x", "model_patch": ""}\n\n{"instance_id": "x", "model_patch": "d"}\n', ".jsonl",
     "line 3: instance_id 'x' already appeared at line 1"),
    ("", ".jsonl", "no predictions"),
    ('{"x": ', ".json", "not valid JSON"),
    ('"just a string"', ".json", "must be a list"),
])
def test_malformed_predictions_are_named(tmp_path: Path, content: str, suffix: str, message: str) -> None:
    f = tmp_path / f"preds{suffix}"
    f.write_text(content)
    with pytest.raises(SwerlError, match=message) as err:
        read_predictions(f)
    assert f"--grade-only '{f}'" in str(err.value)


def test_missing_predictions_file(tmp_path: Path) -> None:
    with pytest.raises(SwerlError, match="no such file"):
        read_predictions(tmp_path / "nope.jsonl")


def test_appends_survive_a_cut_line_and_last_wins(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    store.open()
    store.add_pred(0, PredRow(instance_id="a", model_name_or_path="m", model_patch="1"))
    store.add_pred(1, PredRow(instance_id="a", model_name_or_path="m", model_patch="other attempt"))
    with open(tmp_path / "run" / "preds.jsonl", "a") as fh:  # a crash in the middle of a line
        fh.write('{"instance_id": "b", "model_na')
    store.open()  # the next run repairs it before appending
    store.add_pred(0, PredRow(instance_id="a", model_name_or_path="m", model_patch="2"))
    lines = (tmp_path / "run" / "preds.jsonl").read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line) for line in lines)
    assert store.preds(0)["a"].model_patch == "2" and "b" not in store.preds(0)
    assert store.preds(1)["a"].model_patch == "other attempt"
    store.drop_preds(0, {"a"})
    assert store.preds(0) == {}


def test_a_lone_surrogate_in_a_prediction_is_stored_and_read_back(tmp_path: Path) -> None:
    """R42s-A1: a `model_patch` holding a lone surrogate (valid JSON; what bytes that are not UTF-8 decode to with
    surrogateescape) crashed the whole `--grade-only` run before any instance was graded."""
    store = RunStore(tmp_path / "run")
    store.open()
    odd = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-caf\udce9\n+cafe\n"
    store.add_pred(0, PredRow(instance_id="a", model_name_or_path="m", model_patch=odd))
    store.add_pred(0, PredRow(instance_id="b", model_name_or_path="m", model_patch="plain"))
    assert store.preds(0)["a"].model_patch == odd and store.preds(0)["b"].model_patch == "plain"
    assert patch_sha(odd) != patch_sha(odd.replace("\udce9", "?"))


def test_grades_are_keyed_by_run_and_patch(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    store.open()
    for run in ("run-1", "run-2"):
        store.add_grade(GradeRecord(run_id=run, instance_id="a", attempt=0, patch_sha=patch_sha("p"), grader="g",
                                    outcome="resolved" if run == "run-1" else "unresolved"))
    assert store.grades("run-1")[("a", 0, patch_sha("p"))].outcome == "resolved"
    assert store.grades("run-2")[("a", 0, patch_sha("p"))].outcome == "unresolved"
    assert ("a", 0, patch_sha("another patch")) not in store.grades("run-1")
    assert store.grades("run-3") == {}
