"""The multi-seed pooling behind the swe-tiny claim: which policies count, over which tasks, and its interval."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from swe_learning_seeds import arms_of, table, two_way_bootstrap


def _eval(run: Path, name: str, outcomes: dict[str, bool]) -> None:
    d = run / name
    d.mkdir(parents=True)
    instances = [{"instance_id": t, "attempt": 0, "outcome": "resolved" if ok else "unresolved"}
                 for t, ok in outcomes.items()]
    instances.append({"instance_id": "a", "attempt": 1, "outcome": "unresolved"})  # a retry: attempt 0 counts
    (d / "report.json").write_text(json.dumps({"instances": instances}))


def test_arms_are_the_policies_every_run_has_and_tasks_the_ones_every_arm_has(tmp_path: Path) -> None:
    runs = [tmp_path / "s0", tmp_path / "s1"]
    for i, run in enumerate(runs):
        _eval(run, "eval-before", {"a": False, "b": False, "c": True})
        _eval(run, "eval-after", {"a": True, "b": bool(i), "c": True})
        _eval(run, "eval-sft-40ep", {"a": True, "b": True, "c": False})
        _eval(run, "eval-sft-20ep", {"a": False, "b": True})  # no "c": the pooled table drops it
    _eval(runs[0], "eval-sft-5ep", {"a": True, "b": True, "c": True})  # only one run has it: not an arm
    arms = arms_of(runs)
    assert list(arms) == ["sft", "rl", "sft-20ep", "sft-40ep"]
    tasks, m = table(runs, arms)
    assert tasks == ["a", "b"]
    assert m["rl"].tolist() == [[1, 0], [1, 1]] and m["sft"].shape == (2, 2)


def test_two_way_bootstrap_interval() -> None:
    same = np.ones((3, 10))
    assert two_way_bootstrap(same, samples=200) == (100.0, 100.0, 100.0)
    rng = np.random.default_rng(1)
    diff = rng.choice([-1.0, 0.0, 1.0], size=(3, 32), p=[0.2, 0.5, 0.3])
    mean, low, high = two_way_bootstrap(diff, samples=2000)
    assert low < mean < high and mean == 100 * diff.mean()
    # one seed that disagrees widens the interval over seeds x tasks beyond the tasks-only one
    split = np.vstack([np.ones(32), np.ones(32), -np.ones(32)])
    _, low_s, high_s = two_way_bootstrap(split, samples=2000)
    assert low_s < 0 < high_s
