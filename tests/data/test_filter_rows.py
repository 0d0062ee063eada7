"""Normalisation, bad rows and the static stages (1-3) on rows built in the real SWE-smith schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pytest
from filter_helpers import make_row, write_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from swerl.data import filters
from swerl.data.inventory import ImageUnavailable
from swerl.data.params import FilterParams
from swerl.data.pipeline import FilterOutcome, filter_dataset
from swerl.errors import DataError
from swerl.tasks.load import load_rows


def is_empty_statement(problem_statement: str | None) -> bool:
    """Stage 1's row rule: None, "" or whitespace only."""
    return problem_statement is None or not problem_statement.strip()


def branch_reason(instance_id: str, image_name: str, inventory: dict[str, frozenset[str] | None]) -> str | None:
    """Stage 2's row rule: `image_unavailable` if the image could not be inspected (None), `missing_branch` if
    absent."""
    branches = inventory[image_name]
    if branches is None:
        return "image_unavailable"
    return None if instance_id in branches else "missing_branch"


class DictInventory:
    """A `BranchInventory` from a dict; images absent from it cannot be inspected."""

    def __init__(self, images: dict[str, set[str]]) -> None:
        self.images = images
        self.calls: list[str] = []

    def branches(self, image_name: str) -> set[str]:
        self.calls.append(image_name)
        if image_name not in self.images:
            raise ImageUnavailable(f"no {image_name}")
        return self.images[image_name]


def all_branches(rows: list[dict[str, Any]]) -> DictInventory:
    inv: dict[str, set[str]] = {}
    for r in rows:
        if isinstance(r["image_name"], str) and isinstance(r["instance_id"], str):
            inv.setdefault(r["image_name"], set()).add(r["instance_id"])
    return DictInventory(inv)


def run(rows: list[dict[str, Any]], tmp_path: Path, inventory: Any = None, **params: Any) -> FilterOutcome:
    p = FilterParams(out=tmp_path / "out", test_size=params.pop("test_size", 0), **params)
    ds = datasets.Dataset.from_list(rows)
    return filter_dataset(ds, p, inventory=inventory if inventory is not None else all_branches(rows))


def reasons(outcome: FilterOutcome) -> dict[str, str]:
    return {iid: reason for _, iid, reason in outcome.dropped}


def as_json_strings(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "FAIL_TO_PASS": json.dumps(row["FAIL_TO_PASS"]), "PASS_TO_PASS": json.dumps(row["PASS_TO_PASS"])}


# --- normalisation


@pytest.mark.parametrize("form", ["lists", "json_strings"])
def test_test_lists_come_out_as_lists_either_way(tmp_path: Path, form: str) -> None:
    rows = [make_row(i) for i in range(4)]
    given_rows = rows if form == "lists" else [as_json_strings(r) for r in rows]
    out = run(given_rows, tmp_path)
    assert out.train.features["FAIL_TO_PASS"] == datasets.List(datasets.Value("string"))
    assert [r["PASS_TO_PASS"] for r in out.train] == [r["PASS_TO_PASS"] for r in rows]
    assert out.train.column_names == list(rows[0])  # original columns, original order, no helpers


def test_a_jsonl_mixing_lists_and_json_strings_is_normalised(tmp_path: Path) -> None:
    rows = [make_row(0), as_json_strings(make_row(1)), make_row(2, FAIL_TO_PASS="[]", PASS_TO_PASS="")]
    ds = load_rows(str(write_jsonl(tmp_path / "mixed.jsonl", rows)), cache_dir=tmp_path / "hf")
    out = filter_dataset(ds, FilterParams(out=tmp_path / "o", test_size=0), inventory=all_branches(rows))
    got = {r["instance_id"]: (r["FAIL_TO_PASS"], r["PASS_TO_PASS"]) for r in out.train}
    assert got[rows[1]["instance_id"]] == (make_row(1)["FAIL_TO_PASS"], make_row(1)["PASS_TO_PASS"])
    assert got[rows[2]["instance_id"]] == ([], [])


# --- malformed rows: every kind, in list form (arrow screening) and JSON-string form (Python parsing)

BAD_CASES = [
    ("f2p_not_json", {"FAIL_TO_PASS": "[tests/test_m.py::x"}, "FAIL_TO_PASS", "json"),
    ("f2p_json_object", {"FAIL_TO_PASS": '{"a": 1}'}, "FAIL_TO_PASS", "json"),
    ("p2p_null", {"PASS_TO_PASS": None}, "PASS_TO_PASS", "both"),
    ("p2p_null_item", {"PASS_TO_PASS": ["tests/t.py::a", None]}, "PASS_TO_PASS", "lists"),
    ("image_null", {"image_name": None}, "image_name", "both"),
    ("image_blank", {"image_name": "  "}, "image_name", "both"),
]


# (a JSON-string column cannot hold a null test id, a list column cannot hold invalid JSON)
BAD_PARAMS = [pytest.param(change, field, form, id=f"{case}-{form}")
              for case, change, field, forms in BAD_CASES for form in ("lists", "json") if forms in (form, "both")]


@pytest.mark.parametrize(("change", "field", "form"), BAD_PARAMS)
def test_bad_row_errors_name_row_and_field_or_are_skipped(
    tmp_path: Path, change: dict[str, Any], field: str, form: str
) -> None:
    good = [make_row(i) for i in range(3)]
    bad = {**make_row(9), **change}
    rows = [*good[:2], bad, good[2]]
    if form == "json":
        rows = [{**r, **{k: json.dumps(r[k]) if isinstance(r[k], list) else r[k]
                         for k in ("FAIL_TO_PASS", "PASS_TO_PASS")}} for r in rows]
    with pytest.raises(DataError) as exc:
        run(rows, tmp_path)
    msg = str(exc.value)
    assert bad["instance_id"] in msg and field in msg and "--on-bad-row skip" in msg

    out = run(rows, tmp_path, on_bad_row="skip")
    assert reasons(out) == {bad["instance_id"]: "bad_row"}
    assert out.report(FilterParams(out=tmp_path, on_bad_row="skip")).dropped["bad_row"] == 1
    assert len(out.train) == 3


@pytest.mark.parametrize("iid", ["", "   "])
def test_blank_instance_id_is_a_bad_row(tmp_path: Path, iid: str) -> None:
    rows = [make_row(0), make_row(1, instance_id=iid)]
    with pytest.raises(DataError, match="field instance_id"):
        run(rows, tmp_path)
    out = run(rows, tmp_path, on_bad_row="skip")
    assert [(r, i) for r, i, _ in out.dropped] == [(1, iid)]


def test_duplicate_instance_id_is_a_bad_row_naming_the_first(tmp_path: Path) -> None:
    rows = [make_row(0), make_row(1), make_row(0)]
    with pytest.raises(DataError, match=rf"row '{rows[0]['instance_id']}': field instance_id duplicates row 0"):
        run(rows, tmp_path)
    out = run(rows, tmp_path, on_bad_row="skip")
    assert [(r, reason) for r, _, reason in out.dropped] == [(2, "bad_row")]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.lists(st.one_of(st.none(), st.text(max_size=3)), max_size=4)),
                          st.one_of(st.none(), st.lists(st.text(max_size=3), max_size=4)),
                          st.sampled_from(["a", "", " ", None])), min_size=1, max_size=8))
def test_arrow_screening_agrees_with_python_parsing(cases: list[tuple[Any, Any, Any]]) -> None:
    iids = [f"id{i}" if c[2] != "" else c[2] for i, c in enumerate(cases)]
    images = ["img" if c[2] is not None else None for c in cases]
    table = pa.table({
        "instance_id": pa.array(iids, pa.string()), "image_name": pa.array(images, pa.string()),
        "problem_statement": pa.array([c[2] for c in cases], pa.string()),
        "FAIL_TO_PASS": pa.array([c[0] for c in cases], pa.list_(pa.string())),
        "PASS_TO_PASS": pa.array([c[1] for c in cases], pa.list_(pa.string())),
    })
    idx = list(range(100, 100 + len(cases)))
    fast = filters.screen_arrow_batch(table, idx).to_pydict()
    slow = filters.normalise_batch(iids, images, [c[2] for c in cases], [c[0] for c in cases],
                                   [c[1] for c in cases], idx)
    assert fast[filters.BAD] == slow[filters.BAD]
    assert fast[filters.ROW] == slow[filters.ROW] == idx
    good = [i for i, b in enumerate(slow[filters.BAD]) if not b]
    assert [fast[filters.N_TESTS][i] for i in good] == [slow[filters.N_TESTS][i] for i in good]


# --- stage 1: empty problem statement


def test_empty_statement_none_empty_and_whitespace_are_dropped(tmp_path: Path) -> None:
    statements = [None, "", "   ", "\n\t \r\n", "x", " fix me "]
    rows = [make_row(i, problem_statement=s) for i, s in enumerate(statements)]
    out = run(rows, tmp_path)
    assert reasons(out) == {rows[i]["instance_id"]: "empty_problem_statement" for i in range(4)}
    assert sorted(out.train["instance_id"]) == [rows[4]["instance_id"], rows[5]["instance_id"]]


# --- stage 2: branches


def test_missing_branch_and_uninspectable_image(tmp_path: Path) -> None:
    rows = [make_row(0), make_row(1), make_row(2, repo="other__lib.ffff000"), make_row(3, problem_statement="")]
    inv = DictInventory({rows[0]["image_name"]: {rows[0]["instance_id"], "main"}})
    out = run(rows, tmp_path, inventory=inv)
    assert reasons(out) == {
        rows[1]["instance_id"]: "missing_branch",
        rows[2]["instance_id"]: "image_unavailable",
        rows[3]["instance_id"]: "empty_problem_statement",  # stage 1 first: its image is not even asked
    }
    assert sorted(inv.calls) == sorted({rows[0]["image_name"], rows[2]["image_name"]})  # once per image


def test_stage2_runs_before_stage3(tmp_path: Path) -> None:
    rows = [make_row(0, PASS_TO_PASS=[f"t{i}" for i in range(500)])]
    out = run(rows, tmp_path, inventory=DictInventory({rows[0]["image_name"]: set()}))
    assert reasons(out) == {rows[0]["instance_id"]: "missing_branch"}


# --- stage 3: too many tests


@pytest.mark.parametrize("form", ["lists", "json"])
def test_exactly_max_tests_is_kept_one_more_is_dropped(tmp_path: Path, form: str) -> None:
    def row(n: int, total: int) -> dict[str, Any]:
        r = make_row(n, FAIL_TO_PASS=["tests/t.py::f"], PASS_TO_PASS=[f"tests/t.py::p{i}" for i in range(total - 1)])
        return r if form == "lists" else as_json_strings(r)

    rows = [row(0, 199), row(1, 200), row(2, 201), row(3, 1000)]
    out = run(rows, tmp_path)
    assert reasons(out) == {rows[2]["instance_id"]: "too_many_tests", rows[3]["instance_id"]: "too_many_tests"}
    assert len(out.train) == 2

    out = run(rows, tmp_path, max_tests=199)
    assert len(out.train) == 1


def test_every_row_is_accounted_for(tmp_path: Path) -> None:
    rows = [make_row(i, problem_statement="" if i % 3 == 0 else "s",
                     PASS_TO_PASS=["t"] * (250 if i % 5 == 0 else 1)) for i in range(30)]
    out = run(rows, tmp_path, test_size=5)
    kept = set(out.train["instance_id"]) | set(out.test["instance_id"])
    dropped = {iid for _, iid, _ in out.dropped}
    assert not kept & dropped
    assert kept | dropped == {r["instance_id"] for r in rows}
    assert [r for r, _, _ in out.dropped] == sorted(r for r, _, _ in out.dropped)  # input order


def test_reserved_helper_column_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="_row are reserved"):
        run([make_row(0, _row=5)], tmp_path)


def test_a_selected_dataset_with_an_index_mapping_is_accepted(tmp_path: Path) -> None:
    rows = [make_row(i) for i in range(6)]
    ds = datasets.Dataset.from_list(rows).select([5, 3, 1])
    out = filter_dataset(ds, FilterParams(out=tmp_path, test_size=0), inventory=all_branches(rows))
    assert out.train["instance_id"] == [rows[i]["instance_id"] for i in (5, 3, 1)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["i1", "i2", "i3", "x\x00y"]), st.sampled_from(["img:a", "img:b", "img:c"]),
                       st.one_of(st.none(), st.text(alphabet=" \t\n\r\x0b\x0c\x1c\u3000\u2028\xa0ab", max_size=4)),
                       st.integers(0, 400)), min_size=1, max_size=12),
    st.dictionaries(st.sampled_from(["img:a", "img:b", "img:c"]),
                    st.one_of(st.none(), st.frozensets(st.sampled_from(["i1", "i2", "i3", "main"]))), min_size=3),
    st.integers(0, 400),
)
def test_vectorised_stages_agree_with_the_row_rules(
    cases: list[tuple[str, str, str | None, int]], inventory: dict[str, frozenset[str] | None], max_tests: int
) -> None:
    iids, images, statements, n_tests = (list(c) for c in zip(*cases, strict=True))
    batch = pa.table({"instance_id": pa.array(iids, pa.string()), "image_name": pa.array(images, pa.string()),
                      "problem_statement": pa.array(statements, pa.string()),
                      filters.N_TESTS: pa.array(n_tests, pa.int64())})

    def col(t: pa.Table) -> list[str | None]:
        return t.column(filters.REASON).to_pylist()

    assert col(filters.stage1_batch(batch)) == [
        "empty_problem_statement" if is_empty_statement(s) else None for s in statements]
    keys, down = filters.inventory_keys(inventory)
    assert col(filters.stage2_batch(batch, keys, down)) == [
        branch_reason(i, img, inventory) for i, img in zip(iids, images, strict=True)]
    assert col(filters.stage3_batch(batch, max_tests)) == [
        "too_many_tests" if n > max_tests else None for n in n_tests]
