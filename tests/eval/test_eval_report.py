"""Report arithmetic (outcomes, per-repo, means, pass@k) and the run comparison (flips, bootstrap CI, chart)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest

from swerl.errors import SwerlError
from swerl.eval.compare import compare, paired_bootstrap
from swerl.eval.report import build_report, pass_at_k
from swerl.eval.schema import (
    AgentRecord,
    EvalReport,
    GradeRecord,
    InstanceAttempt,
    ModelSpec,
    PredRow,
    RunManifest,
)
from swerl.eval.store import RunStore, patch_sha, write_json_atomic


@pytest.mark.parametrize(("n", "c"), [(1, 0), (1, 1), (3, 1), (4, 2), (5, 0), (5, 5), (6, 2)])
def test_pass_at_k_matches_enumeration(n: int, c: int) -> None:
    samples = [True] * c + [False] * (n - c)
    for k in range(1, n + 1):
        subsets = list(itertools.combinations(range(n), k))
        expected = sum(any(samples[i] for i in s) for s in subsets) / len(subsets)
        assert pass_at_k(n, c, k) == pytest.approx(expected)


def _manifest(ids: dict[str, str], attempts: int) -> RunManifest:
    return RunManifest(run_id="r1", created_at=time.time(), swerl_version="0", model=ModelSpec(kind="endpoint",
                       source="http://x", name="m"), dataset="d", split="test", backend="bwrap", grader="g",
                       attempts=attempts, instance_ids=list(ids), repos=ids)


def test_report_from_records(tmp_path: Path) -> None:
    ids = {"o__a-1": "o/a", "o__a-2": "o/a", "o__b-1": "o/b", "o__b-2": "o/b", "o__b-3": "o/b"}
    store = RunStore(tmp_path)
    store.open()
    m = _manifest(ids, attempts=2)
    store.write_manifest(m)

    def agent(iid: str, a: int, exit_status: str, calls: int, kind: str | None = None) -> None:
        store.add_agent(AgentRecord(run_id="r1", instance_id=iid, attempt=a, repo=ids[iid], exit_status=exit_status,
                                    error_kind=kind, n_calls=calls, prompt_tokens=100 * calls, completion_tokens=calls,
                                    cost=0.5 * calls))

    def pred(iid: str, a: int, patch: str, outcome: str | None = None, run: str = "r1") -> None:
        store.add_pred(a, PredRow(instance_id=iid, model_name_or_path="m", model_patch=patch))
        if outcome:
            store.add_grade(GradeRecord(run_id=run, instance_id=iid, attempt=a, patch_sha=patch_sha(patch),
                                        grader="g", outcome=outcome, resolved=outcome == "resolved"))

    # attempt 0: resolved, unresolved, empty, error, infra failure
    agent("o__a-1", 0, "Submitted", 4)
    pred("o__a-1", 0, "p1", "resolved")
    agent("o__a-2", 0, "Submitted", 6)
    pred("o__a-2", 0, "p2", "unresolved")
    agent("o__b-1", 0, "LimitsExceeded", 10, "agent")
    pred("o__b-1", 0, "")
    agent("o__b-2", 0, "Submitted", 2)
    pred("o__b-2", 0, "p4", "error")
    agent("o__b-3", 0, "SandboxError", 0, "infra")
    # a grade of another run for the same patch is never used
    pred("o__a-2", 1, "q2", "resolved", run="other-run")
    # attempt 1: o__a-1 resolved again, o__b-1 resolved now
    agent("o__a-1", 1, "Submitted", 4)
    pred("o__a-1", 1, "p1b", "resolved")
    agent("o__b-1", 1, "Submitted", 3)
    pred("o__b-1", 1, "p3", "resolved")

    rep = build_report(store, m)
    assert rep.total == 5
    assert rep.counts == {"resolved": 1, "unresolved": 1, "empty_patch": 1, "error": 1, "infra_failure": 1}
    assert rep.resolved_pct == 20.0 and rep.resolved_ids == ["o__a-1"]
    assert [(r.repo, r.instances, r.resolved) for r in rep.per_repo] == [("o/a", 2, 1), ("o/b", 3, 0)]
    assert rep.exit_status == {"LimitsExceeded": 1, "SandboxError": 1, "Submitted": 3}
    assert rep.mean_steps == pytest.approx((4 + 6 + 10 + 2) / 4)  # the infra failure never reached the model
    assert rep.mean_tokens == pytest.approx(sum(101 * c for c in (4, 6, 10, 2)) / 4)
    # pass@1 = mean over instances of c/2; pass@2 = share with at least one resolved attempt
    assert rep.pass_at_k["pass@1"] == pytest.approx(100 * (1.0 + 0 + 0.5 + 0 + 0) / 5)
    assert rep.pass_at_k["pass@2"] == pytest.approx(100 * 2 / 5)
    statuses = {(x.instance_id, x.attempt): x.outcome for x in rep.instances}
    assert statuses[("o__a-2", 1)] == "pending"  # graded only by another run: pending here, not "resolved"


def _report(run_dir: Path, outcomes: dict[str, str], repos: dict[str, str]) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    rep = EvalReport(run_id=run_dir.name, model="m", dataset="d", split="test", total=len(outcomes), counts={},
                     resolved_pct=0, resolved_ids=[], per_repo=[], mean_steps=0, mean_tokens=0, mean_cost=0,
                     exit_status={}, attempts=1,
                     instances=[InstanceAttempt(instance_id=i, attempt=0, repo=repos[i], outcome=o)  # type: ignore[arg-type]
                                for i, o in outcomes.items()])
    write_json_atomic(run_dir / "report.json", rep.model_dump(mode="json"))


def test_compare_flips_repos_ci_and_chart(tmp_path: Path) -> None:
    ids = [f"o__{'a' if i < 30 else 'b'}-{i}" for i in range(60)]
    repos = {i: ("o/a" if "__a" in i else "o/b") for i in ids}
    # A resolves 0..19; B resolves 0..17 (loses 18, 19) and 30..41 (gains 12 in repo b)
    a = {i: ("resolved" if n < 20 else "unresolved") for n, i in enumerate(ids)}
    b = {i: ("resolved" if n < 18 or 30 <= n < 42 else "empty_patch") for n, i in enumerate(ids)}
    a["o__x-extra"] = "resolved"
    repos["o__x-extra"] = "o/x"
    _report(tmp_path / "A", a, repos)
    _report(tmp_path / "B", b, repos)
    rep = compare(tmp_path / "A", tmp_path / "B", samples=4000, seed=1, chart=tmp_path / "c" / "chart.png")
    assert rep.common == 60 and rep.only_a == ["o__x-extra"] and rep.only_b == []
    assert [f.instance_id for f in rep.lost] == ["o__a-18", "o__a-19"]
    assert len(rep.gained) == 12 and all(f.repo == "o/b" and f.b and not f.a for f in rep.gained)
    assert rep.a_resolved_pct == pytest.approx(100 * 20 / 60, abs=0.01) and rep.b_resolved_pct == 50.0
    assert rep.delta_pct == pytest.approx(100 * 10 / 60, abs=0.01)
    assert 0 < rep.ci_low < rep.delta_pct < rep.ci_high  # +10 of 60 with 14 discordant pairs: clearly positive
    assert {r.repo: r.delta_pct for r in rep.per_repo} == {"o/a": pytest.approx(-100 * 2 / 30, abs=0.01),
                                                           "o/b": pytest.approx(100 * 12 / 30, abs=0.01)}
    png = (tmp_path / "c" / "chart.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    # same seed, same interval; identical runs: no difference and a zero-width interval
    assert compare(tmp_path / "A", tmp_path / "B", samples=4000, seed=1).ci_low == rep.ci_low
    same = compare(tmp_path / "A", tmp_path / "A", samples=1000)
    assert (same.delta_pct, same.ci_low, same.ci_high) == (0, 0, 0) and not same.gained and not same.lost


def test_bootstrap_interval_straddles_zero_for_a_wash() -> None:
    a = [True, False] * 10
    b = [False, True] * 10  # 10 gained, 10 lost
    delta, low, high = paired_bootstrap(a, b, samples=5000, seed=0)
    assert delta == 0 and low < 0 < high


def test_compare_errors(tmp_path: Path) -> None:
    with pytest.raises(SwerlError, match=r"no report\.json"):
        compare(tmp_path / "nope", tmp_path / "nope2")
    _report(tmp_path / "A", {"x__y-1": "resolved"}, {"x__y-1": "x/y"})
    _report(tmp_path / "B", {"x__y-2": "resolved"}, {"x__y-2": "x/y"})
    with pytest.raises(SwerlError, match="no instance in common"):
        compare(tmp_path / "A", tmp_path / "B")
