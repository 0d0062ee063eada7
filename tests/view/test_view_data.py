"""The viewer's page data: the tokens it shows are what the trainer trained on, split causes add up to
assembly's counts, nothing secret leaks, and a run being written is read as it grows."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import orjson
import pytest
from view_runs import SECRET, add_event, add_rollout, open_store

from swerl.errors import SwerlError
from swerl.train.loop.metrics import MetricsWriter
from swerl.view import RunSource
from swerl.view.source import ViewError


def test_token_view_is_exactly_what_the_update_trained_on(runs) -> None:
    src = RunSource(runs.train)
    truth = runs.truth["updates"][1]
    by_rollout: dict[str, list] = {}
    for s, adv in zip(truth["samples"], truth["advantages"], strict=True):
        by_rollout.setdefault(s.rollout_id, []).append((s, adv))
    assert any(len(v) > 1 for v in by_rollout.values()), "the fixture must have split rollouts"
    for rid, expected in by_rollout.items():
        page = src.get(f"rollout/{rid}")
        assert page["step"] == 1
        assert len(page["samples"]) == len(expected)
        for got, (s, adv) in zip(page["samples"], expected, strict=True):
            assert np.array_equal(np.asarray(got["ids"]), s.input_ids)
            assert np.array_equal(np.asarray(got["mask"]), s.loss_mask)
            trained = np.flatnonzero(s.loss_mask)
            assert [got["logprob"][i] for i in trained] == pytest.approx(s.rollout_logprobs[trained].tolist())
            assert all(got["logprob"][i] is None for i in np.flatnonzero(s.loss_mask == 0))
            assert got["advantage"] == pytest.approx(adv)
            assert got["matches_record"] is True
            assert got["per_token"]["ratio"] == "not recorded"


def test_split_causes_add_up_to_assembly_counts(runs) -> None:
    src = RunSource(runs.train)
    for step, truth in runs.truth["updates"].items():
        page = src.get(f"update/{step}")
        expected = {k: v for k, v in truth["stats"].merge_failures.items() if v}
        assert page["causes"] == expected
        rows = [r for g in page["groups"] for r in g["rollouts"]]
        assert sum(r["samples"] for r in rows) == len(truth["samples"])
        assert all(len(r["causes"]) == r["samples"] - 1 for r in rows)


def test_update_rows_show_attempts_failures_and_hacking(runs) -> None:
    page = RunSource(runs.train).get("update/1")
    rows = {r["id"]: r for g in page["groups"] for r in g["rollouts"]}
    infra = rows[runs.truth["infra"]]
    assert (infra["attempt"], infra["infra_failures"]) == (2, 1)
    assert [h["kind"] for h in rows[runs.truth["hacked"]]["hacking"]] == ["git"]
    assert sum(1 for r in rows.values() if r["hacking"]) == 1
    rollout = RunSource(runs.train).get(f"rollout/{runs.truth['infra']}")
    assert [h["state"] for h in rollout["outcome"]["history"]] == ["failed_infra", "running", "succeeded"]
    assert rollout["trajectory"]["patch"].startswith("diff --git")
    calls = rollout["calls"]
    assert calls and all(c["hold_s"] == pytest.approx(0.25) and c["latency_s"] == pytest.approx(0.75) for c in calls)


def _every_page(src) -> list[bytes]:
    run = src.get("run")
    pages = [run]
    if run["kind"] == "train":
        pages += [src.get(f"update/{u['step']}") for u in run["updates"]]
        pages += [src.get(f"rollout/{rid}") for rid in src.run.store().all_ids()]
        pages.append(src.get("search?q=t0"))
    else:
        pages += [src.get(f"instance/{i['instance_id']}") for i in run["instances"]]
    return [orjson.dumps(p, option=orjson.OPT_SERIALIZE_NUMPY) for p in pages]


def test_nothing_secret_is_shown(runs) -> None:
    for root in (runs.train, runs.eval_a, runs.eval_b):
        pages = _every_page(RunSource(root))
        assert len(pages) > 3
        for body in pages:
            assert SECRET.encode() not in body
            assert b"token_hash" not in body


def test_eval_pages_attempts_patches_logs_and_compare(runs) -> None:
    src = RunSource(runs.eval_b)
    run = src.get("run")
    assert run["report"]["resolved_pct"] == pytest.approx(66.67)
    (cmp,) = run["compare"]
    assert [f["instance_id"] for f in cmp["gained"]] == ["calc__neg-2"]
    inst = src.get("instance/calc__neg-2")["attempts"][0]
    assert inst["grade"]["outcome"] == "resolved"
    assert inst["logs"][0]["text"] == "PASSED test_calc__neg-2\n"
    assert inst["patch"].startswith("diff --git") and "[REDACTED]" in inst["patch"]
    with pytest.raises(ViewError) as exc:
        src.get("instance/no-such-instance")
    assert exc.value.status == 404


def test_reads_a_run_while_it_is_written(runs, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "live"
    shutil.copytree(runs.train, root)
    src = RunSource(root)
    assert len(src.get("run")["updates"]) == 2
    conn = open_store(root / "gateway.sqlite")  # a writer holding the store open, as a running gateway does
    add_rollout(conn, "t0-0000099.late:0", "t0-0000099.late", state="running")
    add_event(conn, rollout_id="t0-0000099.late:0", group_id="t0-0000099.late", attempt=1, kind="model_request",
              prompt_ids=[1, 2, 3], response_ids=[4, 5], response_logprobs=[-0.5, -0.25], policy_version=2,
              http_status=200, created=time.time())
    w = MetricsWriter(root, tensorboard=False)
    w.write({"step": 3, "train/reward_mean": 0.5})
    with (root / "metrics.jsonl").open("a") as fh:
        fh.write('{"step": 4, "train/rew')  # a line being written: not shown until complete
    page = src.get("run")
    assert [u["step"] for u in page["updates"]] == [1, 2, 3]
    assert page["store"]["rollouts_by_state"]["running"] == 1
    late = src.get("rollout/t0-0000099.late:0")
    assert late["samples"][0]["mask"].tolist() == [0, 0, 0, 1, 1]
    with (root / "metrics.jsonl").open("a") as fh:
        fh.write('ard_mean": 0.75}\n')
    assert [u["step"] for u in src.get("run")["updates"]] == [1, 2, 3, 4]
    w.close()
    conn.close()


def test_not_a_run_dir_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(SwerlError, match="not a run directory"):
        RunSource(tmp_path)
    with pytest.raises(SwerlError, match="not a directory"):
        RunSource(tmp_path / "missing")


def test_a_run_without_updates_record_still_opens(runs, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "old"
    shutil.copytree(runs.train, root)
    (root / "updates.jsonl").unlink()
    src = RunSource(root)
    run = src.get("run")
    assert run["updates_recorded"] is False and len(run["updates"]) == 2
    page = src.get("update/1")
    assert page["recorded"] is False and page["groups"] == []
    assert src.get(f"rollout/{runs.truth['infra']}")["step"] is None
