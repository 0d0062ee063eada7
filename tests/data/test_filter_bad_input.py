"""Bad input to `swerl data filter`, as a user meets it: one line naming file, line/row and field, exit 2.

Table-driven: every case runs the real console entry point (`swerl.cli.main`, the function
the `swerl` script calls) in-process, on real files, and checks the exit status, the one
error line, that no traceback is printed, and that nothing that looks like an output was
written. `--on-bad-row skip` cases check that the bad lines are dropped as `bad_row` and
the good rows are written unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
import pytest
from cli_helpers import run_swerl
from filter_helpers import make_row

GOOD = [make_row(i) for i in range(3)]




def lines(*rows: Any) -> str:
    """JSON lines; a `str` item is written as is (a broken line)."""
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def without(row: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != key}


def parquet_with_int_repo(path: Path) -> None:
    datasets.Dataset.from_list([{**r, "repo": i} for i, r in enumerate(GOOD)]).to_parquet(str(path))


@dataclass
class Case:
    name: str
    file: str  # input file name under tmp
    content: str | Callable[[Path], None]
    error: str | None  # regex the one error line must match (None: the run succeeds)
    args: list[str] = field(default_factory=list)
    skipped: int = 0  # with --on-bad-row skip: rows expected as bad_row


CASES = [
    Case("malformed JSON line", "rows.jsonl", lines(GOOD[0], '{"instance_id": "x", oops', GOOD[1]),
         r"--dataset rows\.jsonl:2: not valid JSON: Expecting property name enclosed in double quotes "
         r"\(column 22\) \(1 malformed row\(s\); --on-bad-row skip drops such rows as bad_row\)"),
    Case("malformed JSON line, skipped", "rows.jsonl", lines(GOOD[0], '{"instance_id": "x", oops', GOOD[1]),
         None, ["--on-bad-row", "skip"], skipped=1),
    Case("truncated last line", "rows.jsonl", lines(GOOD[0]) + '{"instance_id": "o__r.9"',
         r"--dataset rows\.jsonl:2: not valid JSON"),
    Case("not UTF-8", "rows.jsonl", lambda p: p.write_bytes(lines(GOOD[0]).encode() + b"\xff\xfe\n"),
         r"--dataset rows\.jsonl:2: not valid JSON: not UTF-8 text"),
    Case("empty file", "rows.jsonl", "", r"--dataset 'rows\.jsonl': no rows to use: the file is empty"),
    Case("blank lines only", "rows.jsonl", "\n  \n\n", r"--dataset 'rows\.jsonl': no rows to use: the file is empty"),
    Case("empty JSON array", "rows.json", "[]", r"--dataset 'rows\.json': no rows to use: the file is empty"),
    Case("object instead of string", "rows.jsonl", lines(GOOD[0], {**GOOD[1], "repo": {"a": 1}}),
         rf"--dataset rows\.jsonl:2: row '{GOOD[1]['instance_id']}': field repo must be a string, "
         r"got an object \{\"a\": 1\}"),
    Case("object instead of string, skipped", "rows.jsonl", lines(GOOD[0], {**GOOD[1], "repo": {"a": 1}}, GOOD[2]),
         None, ["--on-bad-row", "skip"], skipped=1),
    Case("number instead of string", "rows.jsonl", lines({**GOOD[0], "patch": 7}),
         r"rows\.jsonl:1: row '.*': field patch must be a string, got a number 7"),
    Case("field missing from one row", "rows.jsonl", lines(GOOD[0], without(GOOD[1], "problem_statement")),
         rf"--dataset rows\.jsonl:2: row '{GOOD[1]['instance_id']}': field problem_statement is missing"),
    Case("field missing from every row", "rows.jsonl", lines(*(without(r, "image_name") for r in GOOD)),
         r"--dataset 'rows\.jsonl': missing required column\(s\): image_name"),
    Case("row is a list", "rows.jsonl", lines(GOOD[0], [1, 2]),
         r"--dataset rows\.jsonl:2: a row must be a JSON object, got a list"),
    Case("test id that is not a string", "rows.jsonl", lines({**GOOD[0], "FAIL_TO_PASS": ["t", 3]}),
         r"rows\.jsonl:1: row '.*': field FAIL_TO_PASS must be a list of test-id strings"),
    Case("test list of the wrong type", "rows.jsonl", lines({**GOOD[0], "PASS_TO_PASS": {"t": 1}}),
         r"rows\.jsonl:1: row '.*': field PASS_TO_PASS must be a list of test ids \(or its JSON string\), "
         r"got an object"),
    Case("null test list (checked after loading)", "rows.jsonl", lines(GOOD[0], {**GOOD[1], "FAIL_TO_PASS": None}),
         rf"--dataset rows\.jsonl:2: row '{GOOD[1]['instance_id']}': field FAIL_TO_PASS is missing \(None\)"),
    Case("bad item of a JSON array", "rows.json", json.dumps([GOOD[0], {**GOOD[1], "repo": 5}], indent=1),
         r"--dataset rows\.json item 2: row '.*': field repo must be a string, got a number 5"),
    Case("broken JSON array", "rows.json", '[{"instance_id": "a"},\n  {"x": }]',
         r"--dataset rows\.json:2: not valid JSON: Expecting value"),
    Case("every row malformed, skipped", "rows.jsonl", lines("{", "[]"),
         r"--dataset 'rows\.jsonl': no rows to use: all 2 row\(s\) are malformed \(first: rows\.jsonl:1: "
         r"not valid JSON", ["--on-bad-row", "skip"]),
    Case("typed column of the wrong type", "rows.parquet", parquet_with_int_repo,
         r"--dataset 'rows\.parquet': column repo holds Value\('int64'\), expected strings"),
    Case("--out is a file", "rows.jsonl", lines(*GOOD),
         r"--out 'taken': exists and is not a directory", ["--out", "taken"]),
    Case("--out below a file", "rows.jsonl", lines(*GOOD),
         r"--out 'taken/run': cannot create its parent directory '.*/taken': File exists", ["--out", "taken/run"]),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_one_clear_line(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    src = tmp_path / case.file
    if callable(case.content):
        case.content(src)
    else:
        src.write_text(case.content)
    (tmp_path / "taken").write_text("a file where a directory is expected")
    args = ["data", "filter", "--dataset", case.file, "--inspect", "none", "--test-size", "0"]
    args += case.args if "--out" in case.args else [*case.args, "--out", "out"]
    code, out, err = run_swerl(args, monkeypatch, capsys)

    if case.error is None:
        assert code == 0, err
        report = json.loads((tmp_path / "out" / "report.json").read_text())
        assert report["dropped"]["bad_row"] == case.skipped
        n_lines = sum(1 for ln in src.read_text().splitlines() if ln.strip())
        assert report["input"] == n_lines
        dropped = [json.loads(x) for x in (tmp_path / "out" / "dropped.jsonl").read_text().splitlines()]
        assert sum(d["reason"] == "bad_row" for d in dropped) == case.skipped
        kept = datasets.load_from_disk(str(tmp_path / "out" / "train"))
        good = {r["instance_id"]: r for r in GOOD}
        assert len(kept) == report["splits"]["train"] > 0
        for row in kept:  # the good rows come out exactly as they went in (no type coercion)
            assert row["repo"] == good[row["instance_id"]]["repo"]
            assert row["FAIL_TO_PASS"] == good[row["instance_id"]]["FAIL_TO_PASS"]
        return

    assert code == 2, (out, err)
    assert "Traceback" not in err + out
    error_lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(error_lines) == 1, err
    assert re.search(case.error, error_lines[0]), error_lines[0]
    assert not (tmp_path / "out").exists()  # nothing that looks like a finished output
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no scratch left


def test_skipped_lines_keep_input_order_and_ids_in_dropped_jsonl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A skipped line that has an instance_id keeps it in dropped.jsonl, in input order among the other drops."""
    monkeypatch.chdir(tmp_path)
    rows = [GOOD[0], {**GOOD[1], "problem_statement": ""}, "{broken", {**GOOD[2], "repo": ["x"]}]
    (tmp_path / "rows.jsonl").write_text(lines(*rows))
    code, _, err = run_swerl(["data", "filter", "--dataset", "rows.jsonl", "--inspect", "none", "--test-size", "0",
                              "--on-bad-row", "skip", "--out", "out"], monkeypatch, capsys)
    assert code == 0, err
    dropped = [json.loads(x) for x in (tmp_path / "out" / "dropped.jsonl").read_text().splitlines()]
    assert dropped == [{"instance_id": GOOD[1]["instance_id"], "reason": "empty_problem_statement"},
                       {"instance_id": None, "reason": "bad_row"},
                       {"instance_id": GOOD[2]["instance_id"], "reason": "bad_row"}]
    assert "rows.jsonl:3" in err and "rows.jsonl:4" in err  # each skipped line is logged with its place
