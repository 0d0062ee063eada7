"""The filter on the bundled task pack, inspecting its real git repositories (what `make demo` runs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets
from filter_helpers import git
from typer.testing import CliRunner

from swerl.cli import app
from swerl.tasks.taskpack import materialize

runner = CliRunner()


def test_filter_the_task_pack_with_local_inspection(tmp_path: Path) -> None:
    pack = materialize(tmp_path / "pack")
    rows = pack.rows
    empty = [r.instance_id for r in rows if not (r.problem_statement or "").strip()]
    assert len(empty) == 1

    out = tmp_path / "out"
    res = runner.invoke(app, ["data", "filter", "--dataset", str(tmp_path / "pack" / "tasks.jsonl"),
                              "--inspect", "local", "--repos", str(tmp_path / "pack" / "repos"),
                              "--test-size", "2", "--out", str(out), "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "report.json").read_text())
    n = len(rows)
    assert report["input"] == n
    assert report["dropped"] == {"empty_problem_statement": 1, "image_unavailable": 0, "missing_branch": 0,
                                 "too_many_tests": 0}
    assert report["kept"] == {"static": n - 1} and report["splits"] == {"train": n - 3, "test": 2}
    assert [json.loads(x) for x in (out / "dropped.jsonl").read_text().splitlines()] == [
        {"instance_id": empty[0], "reason": "empty_problem_statement"}]
    train = datasets.load_from_disk(str(out / "train"))
    assert {r["instance_id"] for r in train} | set(datasets.load_from_disk(str(out / "test"))["instance_id"]) == {
        r.instance_id for r in rows} - set(empty)

    # A branch deleted from one repo and a repo that is gone: seen by a fresh inspection.
    kept = [r for r in rows if r.instance_id not in empty]
    victim = kept[0]
    git(pack.repo_dir(victim), "branch", "-D", victim.instance_id)
    gone = next(r for r in kept if r.image_name != victim.image_name)
    shutil.rmtree(pack.repo_dir(gone))
    n_gone = sum(r.image_name == gone.image_name for r in kept)
    res = runner.invoke(app, ["data", "filter", "--dataset", str(tmp_path / "pack" / "tasks.jsonl"),
                              "--repos", str(tmp_path / "pack" / "repos"), "--test-size", "1",
                              "--out", str(out), "--cache-dir", str(tmp_path / "cache2")])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "report.json").read_text())
    assert report["dropped"]["missing_branch"] == 1
    assert report["dropped"]["image_unavailable"] == n_gone
    assert report["params"]["inspect"] == "local"
