"""Loading and selecting instances: both row schemas, every file form, and errors that name the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import EMPTY, RESOLVES, bundled_task_count

from swerl.errors import DataError, SwerlError
from swerl.eval.dataset import load_instances, parse_instance_ids, select


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_swebench_rows_from_jsonl_json_and_parquet(sb_pack: Path, sb_rows: list[dict[str, Any]], tmp_path: Path) -> None:
    import datasets

    from_jsonl = load_instances(str(sb_pack))
    assert [i.instance_id for i in from_jsonl] == [r["instance_id"] for r in sb_rows]
    inst = next(i for i in from_jsonl if i.instance_id == RESOLVES)
    assert inst.kind == "swebench"
    assert inst.row.FAIL_TO_PASS == ["tests/test_stats.py::test_median_even"]  # JSON string -> list
    assert inst.repo_dir == (sb_pack.parent / "repos" / RESOLVES).resolve()
    task = inst.task()
    assert task.branch == inst.row.model_extra["base_commit"]  # SWE-bench rows: the base commit, not a branch
    assert task.image == "swebench/sweb.eval.x86_64.swerl-taskpack_1776_calc-median_even:latest"

    as_json = tmp_path / "rows.json"
    as_json.write_text(json.dumps(sb_rows))
    assert [i.instance_id for i in load_instances(str(as_json))] == [r["instance_id"] for r in sb_rows]

    # parquet via `datasets` (as from the hub): test lists stay JSON strings, repo_dir is resolved beside the file
    pq = sb_pack.parent / "rows.parquet"
    datasets.Dataset.from_list(sb_rows).to_parquet(str(pq))
    got = {i.instance_id: i for i in load_instances(str(pq))}
    assert got[RESOLVES].row.FAIL_TO_PASS == inst.row.FAIL_TO_PASS
    assert got[RESOLVES].repo_dir == inst.repo_dir


def test_swesmith_rows_and_the_bundled_pack(tmp_path: Path) -> None:
    pack = load_instances("taskpack")
    assert len(pack) == bundled_task_count() >= 10 and {i.kind for i in pack} == {"swesmith"}
    smith = next(i for i in pack if i.instance_id == "swerl-taskpack__calc.median_even")
    assert smith.task().branch == smith.instance_id and smith.repo_dir is not None
    # the same rows from a file (as `swerl data filter` writes them) find the bundled repos for bwrap
    f = _write_jsonl(tmp_path / "test.jsonl", [i.row.model_dump(mode="json") for i in pack[:2]])
    again = load_instances(str(f))
    assert [i.kind for i in again] == ["swesmith", "swesmith"]
    assert again[0].repo_dir == pack[0].repo_dir and again[0].test_cmd


def test_bad_datasets_name_the_problem(sb_rows: list[dict[str, Any]], tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"--dataset 'no-such-org/NoSuchBench'.*could not be loaded"):
        load_instances("no-such-org/NoSuchBench")  # hub offline in tests, and no such dataset anyway
    with pytest.raises(DataError, match=r"--dataset '\./missing\.jsonl': no such file"):
        load_instances("./missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(sb_rows[0]) + "\n{not json\n")
    with pytest.raises(DataError, match="line 2 is not valid JSON"):
        load_instances(str(bad))
    row = {k: v for k, v in sb_rows[0].items() if k != "test_patch"}  # a SWE-bench row without its test patch
    iid = sb_rows[0]["instance_id"]
    with pytest.raises(DataError, match=rf"row '{iid}' \(row 1 of .*\): missing field\(s\) test_patch for a swebench"):
        load_instances(str(_write_jsonl(tmp_path / "missing.jsonl", [row])))
    smith = {k: v for k, v in sb_rows[0].items() if k not in ("base_commit", "test_patch", "version", "repo_dir")}
    with pytest.raises(DataError, match="missing field\\(s\\) image_name for a swesmith row"):
        load_instances(str(_write_jsonl(tmp_path / "smith.jsonl", [smith])))
    broken = {**sb_rows[0], "FAIL_TO_PASS": "[not json"}
    with pytest.raises(DataError, match="FAIL_TO_PASS is not a JSON list"):
        load_instances(str(_write_jsonl(tmp_path / "f2p.jsonl", [broken])))
    with pytest.raises(DataError, match="appears twice"):
        load_instances(str(_write_jsonl(tmp_path / "dup.jsonl", [sb_rows[0], sb_rows[0]])))
    with pytest.raises(DataError, match="unsupported file type"):
        (tmp_path / "rows.csv").write_text("a,b\n")
        load_instances(str(tmp_path / "rows.csv"))


def test_select_instances_and_limit(sb_pack: Path, tmp_path: Path) -> None:
    insts = load_instances(str(sb_pack))
    ids = parse_instance_ids(f"{EMPTY}, {RESOLVES}")
    assert [i.instance_id for i in select(insts, ids)] == [RESOLVES, EMPTY]  # dataset order
    listing = tmp_path / "ids.txt"
    listing.write_text(f"# wanted\n{EMPTY}\n\n{RESOLVES}  # the easy one\n")
    assert parse_instance_ids(str(listing)) == [EMPTY, RESOLVES]
    assert len(select(insts, None, limit=3)) == 3
    with pytest.raises(SwerlError, match=r"unknown instance id\(s\) swerl-taskpack__calc-median_odd.*did you mean "
                                         r"swerl-taskpack__calc-median_even"):
        select(insts, ["swerl-taskpack__calc-median_odd"])
    with pytest.raises(SwerlError, match="no such file"):
        parse_instance_ids("lists/ids.txt")
