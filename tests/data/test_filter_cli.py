"""`swerl data filter` end to end: outputs and report, every reason, probes and resuming, determinism, atomicity."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest
from filter_helpers import make_row, write_branches, write_jsonl
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import DataError

runner = CliRunner()


def swerl_filter(*args: str | Path) -> Any:
    res = runner.invoke(app, ["data", "filter", *map(str, args)])
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    assert res.exit_code == 0, res.output
    return res


def read_dropped(out: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in (out / "dropped.jsonl").read_text().splitlines()]


def all_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def static_case(tmp_path: Path) -> dict[str, Any]:
    """12 rows hitting every static reason once or more, plus a malformed row."""
    rows = [make_row(i) for i in range(12)]
    rows[1]["problem_statement"] = "  \n"
    rows[2]["problem_statement"] = None
    rows[3]["PASS_TO_PASS"] = [f"tests/t.py::p{i}" for i in range(200)]  # 201 tests
    rows[4]["PASS_TO_PASS"] = [f"tests/t.py::p{i}" for i in range(199)]  # exactly 200: kept
    rows[6] = make_row(6, repo="gone__lib.0000000")  # its image is not in the inventory
    rows[7]["FAIL_TO_PASS"] = None  # malformed
    rows = [{**r, "FAIL_TO_PASS": json.dumps(r["FAIL_TO_PASS"]) if r["FAIL_TO_PASS"] is not None else None,
             "PASS_TO_PASS": json.dumps(r["PASS_TO_PASS"])} for r in rows]  # SWE-bench-style JSON strings
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    branches = write_branches(tmp_path / "branches.json", rows, missing=[rows[5]["instance_id"]],
                              unavailable=[rows[6]["image_name"]])
    return {"rows": rows, "data": data, "branches": branches, "tmp": tmp_path}


def test_report_dropped_and_splits_exactly(static_case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    rows, out = static_case["rows"], static_case["tmp"] / "out"
    hf_cache = static_case["tmp"].parent / f"{static_case['tmp'].name}-hf-cache"
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", hf_cache)
    res = swerl_filter("--dataset", static_case["data"], "--branches", static_case["branches"], "--out", out,
                       "--test-size", "2", "--on-bad-row", "skip", "--cache-dir", static_case["tmp"] / "c")
    assert "kept: static" in res.output and "split: test" in res.output  # the summary table

    report = json.loads((out / "report.json").read_text())
    assert report == {
        "input": 12,
        "dropped": {"bad_row": 1, "empty_problem_statement": 2, "image_unavailable": 1, "missing_branch": 1,
                    "too_many_tests": 1},
        "kept": {"static": 6},
        "splits": {"train": 4, "test": 2},
        "params": {"dataset": str(static_case["data"]), "split": "train", "max_tests": 200, "attempts": 4,
                   "all_fail_keep": 1000, "test_size": 2, "seed": 0, "on_bad_row": "skip",
                   "branches": str(static_case["branches"]), "inspect": "none", "repos": None,
                   "probe_results": None},
    }
    assert read_dropped(out) == [
        {"instance_id": rows[1]["instance_id"], "reason": "empty_problem_statement"},
        {"instance_id": rows[2]["instance_id"], "reason": "empty_problem_statement"},
        {"instance_id": rows[3]["instance_id"], "reason": "too_many_tests"},
        {"instance_id": rows[5]["instance_id"], "reason": "missing_branch"},
        {"instance_id": rows[6]["instance_id"], "reason": "image_unavailable"},
        {"instance_id": rows[7]["instance_id"], "reason": "bad_row"},
    ]
    train, test = datasets.load_from_disk(str(out / "train")), datasets.load_from_disk(str(out / "test"))
    kept = {r["instance_id"] for r in rows[:12]} - {d["instance_id"] for d in read_dropped(out)}
    assert set(train["instance_id"]) | set(test["instance_id"]) == kept
    assert len(test) == 2 and not set(train["instance_id"]) & set(test["instance_id"])
    assert pq.read_table(out / "train.parquet").to_pylist() == train.to_list()
    assert pq.read_table(out / "test.parquet").to_pylist() == test.to_list()
    row4 = next(r for r in [*train, *test] if r["instance_id"] == rows[4]["instance_id"])
    assert len(row4["FAIL_TO_PASS"]) + len(row4["PASS_TO_PASS"]) == 200  # lists now, boundary kept
    assert sorted(os.listdir(static_case["tmp"])) == ["branches.json", "out", "rows.jsonl"]  # no temp, no cache
    assert not hf_cache.exists()  # the input's arrow copy went to the run's work dir, now removed


def test_bad_row_default_is_an_error_and_exit_2(static_case: dict[str, Any]) -> None:
    out = static_case["tmp"] / "out"
    res = subprocess.run(
        [sys.executable, "-m", "swerl.cli", "data", "filter", "--dataset", str(static_case["data"]),
         "--branches", str(static_case["branches"]), "--out", str(out), "--test-size", "2"],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "400"}, timeout=120,
    )
    assert res.returncode == 2, res.stderr
    assert static_case["rows"][7]["instance_id"] in res.stderr and "FAIL_TO_PASS" in res.stderr
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_same_inputs_and_seed_give_byte_identical_outputs(static_case: dict[str, Any]) -> None:
    t = static_case["tmp"]
    common = ["--dataset", static_case["data"], "--branches", static_case["branches"], "--test-size", "3",
              "--on-bad-row", "skip", "--seed", "7"]
    swerl_filter(*common, "--out", t / "a")
    swerl_filter(*common, "--out", t / "b", "--num-proc", "2")
    a, b = all_files(t / "a"), all_files(t / "b")
    assert set(a) >= {"train/state.json", "train/dataset_info.json", "test.parquet", "report.json"}
    assert a == b
    swerl_filter(*common[:-1], "8", "--out", t / "c")
    assert all_files(t / "c")["test.parquet"] != a["test.parquet"]  # the seed decides the split


def test_test_size_larger_than_kept_is_an_error(static_case: dict[str, Any]) -> None:
    with pytest.raises(DataError, match=r"--test-size 50: only 6 rows are kept"):
        swerl_filter("--dataset", static_case["data"], "--branches", static_case["branches"], "--on-bad-row",
                     "skip", "--out", static_case["tmp"] / "out", "--test-size", "50")


def test_inspect_none_skips_stage_2(static_case: dict[str, Any]) -> None:
    out = static_case["tmp"] / "out"
    swerl_filter("--dataset", static_case["data"], "--inspect", "none", "--on-bad-row", "skip", "--out", out,
                 "--test-size", "0")
    report = json.loads((out / "report.json").read_text())
    assert report["dropped"]["missing_branch"] == report["dropped"]["image_unavailable"] == 0
    assert report["kept"] == {"static": 8} and report["splits"] == {"train": 8, "test": 0}
    assert report["params"]["inspect"] == "none"
    assert len(datasets.load_from_disk(str(out / "test"))) == 0


# --- atomic output


def test_refuses_to_replace_a_foreign_directory(static_case: dict[str, Any]) -> None:
    out = static_case["tmp"] / "mine"
    out.mkdir()
    (out / "precious.txt").write_text("keep")
    with pytest.raises(DataError, match=r"--out .*not a previous `swerl data filter` output"):
        swerl_filter("--dataset", static_case["data"], "--inspect", "none", "--on-bad-row", "skip",
                     "--out", out, "--test-size", "0")
    assert (out / "precious.txt").read_text() == "keep"


def test_a_failed_write_leaves_the_previous_output_intact(static_case: dict[str, Any],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    t, out = static_case["tmp"], static_case["tmp"] / "out"
    args = ["--dataset", static_case["data"], "--inspect", "none", "--on-bad-row", "skip", "--out", out]
    swerl_filter(*args, "--test-size", "1")
    before = all_files(out)

    def boom(self: datasets.Dataset, *a: Any, **k: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(datasets.Dataset, "to_parquet", boom)
    with pytest.raises(OSError, match="disk full"):
        swerl_filter(*args, "--test-size", "2")
    assert all_files(out) == before
    assert not [p for p in os.listdir(t) if p.startswith(".out.")]  # temp dir cleaned up

    monkeypatch.undo()
    swerl_filter(*args, "--test-size", "2")  # a previous output is replaced as a whole
    assert json.loads((out / "report.json").read_text())["splits"]["test"] == 2
    assert not [p for p in os.listdir(t) if p.startswith(".out.")]


# --- stage 4 and resuming a probe


def test_probe_categories_sampling_and_resuming_not_probed(tmp_path: Path) -> None:
    rows = [make_row(i) for i in range(12)]
    rows[11]["problem_statement"] = ""  # dropped at stage 1, never needs probing
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    branches = write_branches(tmp_path / "branches.json", rows)
    ids = [r["instance_id"] for r in rows]
    outcomes = {0: [True] * 4, 1: [True, False, True, True], 2: [False, False, False, True]}
    outcomes.update({i: [False] * 4 for i in range(3, 8)})  # 5 all-fail tasks
    outcomes[8] = [False, False, False]  # partial: 3 of 4 attempts so far
    # 9: no attempts yet; 10: one attempt recorded twice (a resumed probe), still partial
    probes = tmp_path / "probes.jsonl"
    lines = [{"instance_id": ids[i], "attempt": a, "resolved": ok} for i, res in outcomes.items()
             for a, ok in enumerate(res)]
    lines += [{"instance_id": ids[10], "attempt": 0, "resolved": True}] * 2
    lines.append({"instance_id": "not-in-the-dataset", "attempt": 0, "resolved": True})
    probes.write_text("".join(json.dumps(rec) + "\n" for rec in lines))

    out = tmp_path / "out"
    args = ["--dataset", data, "--branches", branches, "--probe-results", probes, "--all-fail-keep", "2",
            "--test-size", "1", "--out", out]
    swerl_filter(*args)
    report = json.loads((out / "report.json").read_text())
    assert report["dropped"] == {"empty_problem_statement": 1, "image_unavailable": 0, "missing_branch": 0,
                                 "too_many_tests": 0, "not_probed": 3, "too_easy": 1, "all_fail_unsampled": 3}
    assert report["kept"] == {"mixed": 2, "all_fail": 2}
    assert report["splits"] == {"train": 3, "test": 1}
    dropped = {d["instance_id"]: d["reason"] for d in read_dropped(out)}
    assert [i for i in ids if dropped.get(i) == "not_probed"] == [ids[8], ids[9], ids[10]]
    assert dropped[ids[0]] == "too_easy"
    sampled = {i for i in ids[3:8] if i not in dropped}
    assert len(sampled) == 2

    # The probe resumes: it reads the not_probed ids from dropped.jsonl and appends their attempts.
    todo = [d["instance_id"] for d in read_dropped(out) if d["reason"] == "not_probed"]
    with probes.open("a") as fh:
        for iid in todo:
            for a in range(4):
                fh.write(json.dumps({"instance_id": iid, "attempt": a, "resolved": a == 3}) + "\n")
    swerl_filter(*args)  # same --out: the previous output is replaced
    report = json.loads((out / "report.json").read_text())
    assert report["dropped"]["not_probed"] == 0
    assert report["kept"] == {"mixed": 2 + 3, "all_fail": 2}
    kept = set(datasets.load_from_disk(str(out / "train"))["instance_id"]) | set(
        datasets.load_from_disk(str(out / "test"))["instance_id"])
    assert set(todo) <= kept and {i for i in ids[3:8] if i in kept} == sampled  # the sample is stable
