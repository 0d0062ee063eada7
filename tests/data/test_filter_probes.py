"""Stage 4: probe results (resumed probes, partial probes, bad lines) and the difficulty categories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swerl.data.difficulty import probe_category, sample_all_fail
from swerl.data.split import split_indices
from swerl.errors import DataError
from swerl.tasks.probes import read_probe_results


def write_probes(path: Path, lines: list[Any], mode: str = "w") -> Path:
    with path.open(mode) as fh:
        for rec in lines:
            fh.write((rec if isinstance(rec, str) else json.dumps(rec)) + "\n")
    return path


def test_last_line_wins_for_a_repeated_attempt(tmp_path: Path) -> None:
    path = write_probes(tmp_path / "p.jsonl", [
        {"instance_id": "a", "attempt": 0, "resolved": False},
        {"instance_id": "a", "attempt": 1, "resolved": True},
        "",
        {"instance_id": "a", "attempt": 0, "resolved": True},  # the resumed probe redid attempt 0
    ])
    assert read_probe_results(path) == {"a": {0: True, 1: True}}


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("{not json", "line 2: not JSON"),
        ("[1, 2]", "line 2: must be an object"),
        ('{"attempt": 0, "resolved": true}', "line 2: field instance_id"),
        ('{"instance_id": "b", "attempt": 1.5, "resolved": true}', "line 2 (instance 'b'): field attempt"),
        ('{"instance_id": "b", "attempt": true, "resolved": true}', "line 2 (instance 'b'): field attempt"),
        ('{"instance_id": "b", "attempt": 0, "resolved": "yes"}', "line 2 (instance 'b'): field resolved"),
        ('{"instance_id": "b", "attempt": 0}', "line 2 (instance 'b'): field resolved"),
    ],
)
def test_bad_line_names_its_number_and_field(tmp_path: Path, line: str, needle: str) -> None:
    path = write_probes(tmp_path / "p.jsonl", [{"instance_id": "a", "attempt": 0, "resolved": True}, line])
    with pytest.raises(DataError) as exc:
        read_probe_results(path)
    assert "--probe-results" in str(exc.value) and needle in str(exc.value)


def test_unreadable_probe_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"--probe-results .*cannot read"):
        read_probe_results(tmp_path / "absent.jsonl")


@pytest.mark.parametrize(
    ("attempts", "k", "category"),
    [
        (None, 4, "not_probed"),
        ({0: True, 1: True, 2: True}, 4, "not_probed"),
        ({0: True, 1: True, 2: True, 3: True}, 4, "too_easy"),
        ({0: True, 1: False, 2: True, 3: True}, 4, "mixed"),
        ({0: False, 1: False, 2: False, 3: False}, 4, "all_fail"),
        ({0: False, 1: False, 2: False, 3: False, 4: True}, 4, "all_fail"),  # the first k attempts decide
        ({"r0": False, "r1": True}, 2, "mixed"),
        ({0: True}, 1, "too_easy"),
    ],
)
def test_probe_category(attempts: dict[Any, bool] | None, k: int, category: str) -> None:
    assert probe_category(attempts, k) == category


def test_all_fail_sample_is_seeded_sized_and_order_free() -> None:
    ids = [f"t{i}" for i in range(50)]
    a = sample_all_fail(ids, 10, seed=1)
    assert len(a) == 10 and a <= set(ids)
    assert sample_all_fail(list(reversed(ids)), 10, seed=1) == a
    assert sample_all_fail(ids, 10, seed=2) != a
    assert sample_all_fail(ids, 100, seed=1) == set(ids)
    assert sample_all_fail(ids, 0, seed=1) == set()


def test_samples_are_stable_as_the_set_grows() -> None:
    """A resumed probe adds tasks: an id in the old sample leaves it only if a newcomer outranks it."""
    old = [f"t{i}" for i in range(40)]
    new = old + [f"n{i}" for i in range(10)]
    for seed in range(5):
        before, after = sample_all_fail(old, 8, seed), sample_all_fail(new, 8, seed)
        assert after & set(old) <= before
        newcomers = len(after - set(old))
        assert len(before - after) == newcomers


def test_split_is_seeded_order_free_and_in_input_order() -> None:
    ids = [f"t{i:02d}" for i in range(30)]
    train, test = split_indices(ids, 5, seed=3)
    assert len(test) == 5 and sorted(train + test) == list(range(30))
    assert train == sorted(train) and test == sorted(test)
    rev = list(reversed(ids))
    _, test_rev = split_indices(rev, 5, seed=3)
    assert {rev[i] for i in test_rev} == {ids[i] for i in test}
    assert split_indices(ids, 5, seed=4)[1] != test
    with pytest.raises(DataError, match="--test-size 31: only 30 rows are kept"):
        split_indices(ids, 31, seed=0)
