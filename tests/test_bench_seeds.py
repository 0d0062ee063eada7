"""The multi-seed pooling behind the swe-tiny claim: which policies count, over which tasks, and its interval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from swe_learning_seeds import arms_of, table, two_way_bootstrap

from swerl.eval.schema import EvalReport, InstanceAttempt


def _eval(run: Path, name: str, outcomes: dict[str, bool]) -> None:
    d = run / name
    d.mkdir(parents=True)
    instances = [InstanceAttempt(instance_id=t, attempt=0, repo="r", outcome="resolved" if ok else "unresolved")
                 for t, ok in outcomes.items()]
    instances.append(InstanceAttempt(instance_id="a", attempt=1, repo="r", outcome="unresolved"))  # attempt 0 counts
    report = EvalReport(run_id=name, model="m", dataset="d", split="test", total=len(outcomes), counts={},
                        resolved_pct=0.0, resolved_ids=[], per_repo=[], mean_steps=0, mean_tokens=0, mean_cost=0,
                        exit_status={}, attempts=2, instances=instances)
    (d / "report.json").write_text(report.model_dump_json())


def test_arms_are_the_policies_every_run_has_and_tasks_the_ones_every_arm_has(tmp_path: Path) -> None:
    runs = [tmp_path / "s0", tmp_path / "s1"]
    for i, run in enumerate(runs):
        _eval(run, "eval-before", {"a": False, "b": False, "c": True})
        _eval(run, "eval-after", {"a": True, "b": bool(i), "c": True})
        _eval(run, "eval-sft-40ep", {"a": True, "b": True, "c": False})
        _eval(run, "eval-sft-20ep", {"a": False, "b": True})  # no "c": the pooled table drops it
    _eval(runs[0], "eval-sft-5ep", {"a": True, "b": True, "c": True})  # only one run has it: not an arm
    _eval(runs[0], "eval-rft", {"a": True, "b": True, "c": True})
    assert "rft" not in arms_of(runs)
    _eval(runs[1], "eval-rft", {"a": False, "b": True, "c": True})  # now every run has it
    arms = arms_of(runs)
    assert list(arms) == ["sft", "rl", "sft-20ep", "sft-40ep", "rft"]
    tasks, m = table(runs, arms)
    assert tasks == ["a", "b"]
    assert m["rl"].tolist() == [[1, 0], [1, 1]] and m["sft"].shape == (2, 2)
    assert m["rft"].tolist() == [[1, 1], [0, 1]]


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
