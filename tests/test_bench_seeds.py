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
    for run in runs:  # --after-rft's two arms, from the RFT model
        _eval(run, "eval-rft2", {"a": True, "b": False, "c": True})
        _eval(run, "eval-rft-rl", {"a": True, "b": True, "c": True})
    assert list(arms_of(runs)) == ["sft", "rl", "sft-20ep", "sft-40ep", "rft", "rft-rl", "rft2"]
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


def test_seeds_run_side_by_side_after_the_first_makes_the_shared_data(tmp_path: Path) -> None:
    """The first seed alone (it makes tasks and expert trajectories), then at most `--parallel` at once, a
    finished seed skipped, and a failed seed an error naming its log."""
    import argparse
    import textwrap

    import pytest
    from swe_learning_seeds import run_seeds

    fake = tmp_path / "fake_swe_learning.py"
    fake.write_text(textwrap.dedent("""
        import json, os, sys, time
        args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
        work, seed = args["--work"], args["--seed"]
        os.makedirs(work, exist_ok=True)
        events = os.path.join(os.path.dirname(work), "events")
        with open(events, "a") as f:
            f.write(f"start {seed} {'--tasks' in args}\\n")
        # seeds 1 and 3 each wait for the other to start: both live at once, whichever interpreter is first
        other = {"1": "start 3", "3": "start 1"}.get(seed)
        deadline = time.time() + 600
        while other and other not in open(events).read() and time.time() < deadline:
            time.sleep(0.05)
        with open(events, "a") as f:
            f.write(f"end {seed}\\n")
        if seed == "9":
            sys.exit(3)
        json.dump({"seed": int(seed)}, open(os.path.join(work, "summary.json"), "w"))
    """))
    work = tmp_path / "w"
    (work / "seed-2").mkdir(parents=True)
    (work / "seed-2" / "summary.json").write_text("{}")  # finished earlier: not run again
    ns = argparse.Namespace(seeds="0,1,2,3,4", parallel=2, tasks=None, expert=None, expert_limit=16, sft_epochs=40,
                            baseline_epochs="80", rft_attempts=4, after_rft=False)
    runs = run_seeds(ns, work, [], script=fake)
    assert [r.name for r in runs] == ["seed-0", "seed-1", "seed-2", "seed-3", "seed-4"]
    ev = (work / "events").read_text().split("\n")
    assert ev[:2] == ["start 0 False", "end 0"]  # alone, making the shared data
    live, most = 0, 0
    for e in ev[2:]:
        live += e.startswith("start") - e.startswith("end")
        most = max(most, live)
        assert not e.startswith("start") or e.endswith("True")  # the others reuse seed 0's tasks and expert
    assert most == 2 and "start 2" not in " ".join(ev)
    with pytest.raises(SystemExit, match="seed 9 failed"):
        run_seeds(argparse.Namespace(**{**vars(ns), "seeds": "9"}), work, [], script=fake)
