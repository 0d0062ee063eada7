"""The training loop's pieces without a model: phases, the rollout book, mini-batches, hacking scan, report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swerl.config import ToyConfig
from swerl.rollout.schema import RolloutRequest
from swerl.rollout.toy import toy_tasks
from swerl.train.loop.book import RolloutBook
from swerl.train.loop.hacking import GIT_STUB_MARKER, scan_rollout
from swerl.train.loop.metrics import MetricsWriter, read_metrics, truncate_after
from swerl.train.loop.phases import TRANSITIONS, Phase, PhaseError, PhaseMachine
from swerl.train.loop.report import render_report
from swerl.train.loop.tasks import TaskSampler
from swerl.train.loop.update import Batch, mini_batches
from swerl.train.schema import AssemblyStats


def test_phase_machine_follows_the_table_and_times_phases() -> None:
    seen: list[Phase] = []
    m = PhaseMachine(on_change=seen.append)
    for p in (Phase.ROLLOUT, Phase.DRAIN, Phase.UPDATE, Phase.SYNC, Phase.CHECKPOINT, Phase.ROLLOUT,
              Phase.STOPPING, Phase.DONE):
        m.go(p)
    assert seen[-1] is Phase.DONE and len(seen) == 8
    lap = m.lap()
    assert set(lap) == {p.value for p in Phase} and all(v >= 0 for v in lap.values())
    with pytest.raises(PhaseError, match="done -> rollout"):
        m.go(Phase.ROLLOUT)
    # the update can never be entered from the rollout phase while calls are in flight without a drain,
    # except in sync mode (nothing in flight), and nothing leaves `done`
    assert (Phase.ROLLOUT, Phase.UPDATE) in TRANSITIONS
    assert not any(a is Phase.DONE for a, _ in TRANSITIONS)


def _group(book: RolloutBook, gid: str, n: int, split: str = "train") -> list[str]:
    specs = [RolloutRequest(rollout_id=f"{gid}:{k}", group_id=gid, instance_id=gid, metadata={"split": split})
             for k in range(n)]
    book.add_group(gid, split, specs)
    return [s.rollout_id for s in specs]


def test_book_groups_become_ready_only_when_whole_and_infra_retries_wait() -> None:
    book = RolloutBook(max_attempts=2)
    a = _group(book, "a", 2)
    b = _group(book, "b", 2)
    assert book.outstanding() == 4
    book.mark(a[0], "succeeded", 1)
    assert book.ready == []
    book.mark(a[1], "failed_infra", 1)  # attempt 1 of 2: the controller retries it
    assert book.ready == [] and book.outstanding() == 3
    book.mark(a[1], "failed_agent", 2)
    assert book.ready == ["a"] and book.ready_rollouts() == 2
    book.mark(b[0], "failed_infra", 2)  # out of attempts: done, not trainable
    book.mark(b[1], "succeeded", 1)
    assert book.infra_failed == [b[0]]
    assert book.mark("unknown-rollout", "succeeded", 1) == 0
    taken = book.take(3)
    assert [g.group_id for g in taken] == ["a", "b"] and taken[1].trainable == [b[1]]
    book.forget(taken)
    assert book.outstanding() == 0 and not book.specs


def test_book_checkpoint_keeps_cursor_and_unconsumed_groups() -> None:
    book = RolloutBook(max_attempts=1)
    ids = _group(book, "g1", 2)
    _group(book, "g2", 2)  # still running: abandoned on resume
    for r in ids:
        book.mark(r, "succeeded", 1)
    book.cursor = 41
    state = json.loads(json.dumps(book.state_dict()))
    other = RolloutBook(max_attempts=1)
    other.load_state_dict(state)
    assert other.cursor == 41 and other.ready == ["g1"] and set(other.specs) == set(ids)
    assert other.groups["g1"].complete and "g2" not in other.groups


def test_mini_batches_never_split_a_rollout_or_group() -> None:
    from train_helpers import make_sample

    samples, groups = [], []
    for g in range(5):
        rids = []
        for k in range(2):
            rid = f"g{g}-{k}"
            rids.append(rid)
            samples += [make_sample(rid, j, 12, [(4, 8)], group_id=f"g{g}", seed=g * 10 + k * 3 + j) for j in range(2)]
        groups.append(rids)
    batch = Batch(samples, groups, {}, AssemblyStats(mode="best_effort"), [], [], [])
    mbs = mini_batches(batch, 3)
    assert len(mbs) == 3
    assert sum(len(mb) for mb in mbs) == len(samples)
    owner: dict[str, int] = {}
    for i, mb in enumerate(mbs):
        for s in mb:
            assert owner.setdefault(s.group_id, i) == i  # a group (hence a rollout) lives in one step
    assert len(mini_batches(batch, 99)) == 5  # at most one step per group


def test_hacking_scan_finds_blocked_git_network_and_test_tampering() -> None:
    messages = [
        {"role": "system", "content": "You are an agent."},
        {"role": "assistant", "content": "```mswea_bash_command\ngit log --all -p | head\n```"},
        {"role": "user", "content": f"<returncode>1</returncode><output>{GIT_STUB_MARKER}: your changes ...</output>"},
        {"role": "assistant", "content": "```mswea_bash_command\ncurl -sL https://github.com/x/y/archive/main.zip\n```"},
        {"role": "user", "content": "<output>curl: (6) Could not resolve host: github.com</output>"},
        {"role": "assistant", "content": "```mswea_bash_command\npython -c 'print(1)'\n```"},
        {"role": "user", "content": "<output>Connection refused is a phrase in this file</output>"},  # no net tool
    ]
    data = {"dropped": [{"path": "tests/test_ops.py", "reason": "test file", "hunks": 2}]}
    found = scan_rollout("r1", {"messages": messages}, data)
    kinds = sorted(a.kind for a in found)
    assert kinds == ["git", "network", "test_tamper"]
    git = next(a for a in found if a.kind == "git")
    assert "git log" in git.command and GIT_STUB_MARKER in git.evidence
    assert "tests/test_ops.py" in next(a for a in found if a.kind == "test_tamper").evidence
    assert scan_rollout("r2", None, None) == []


def test_toy_tasks_and_sampler_are_seeded_and_resumable() -> None:
    cfg = ToyConfig(secrets=3, train_tasks=10, val_tasks=4)
    assert toy_tasks(cfg, "train", 0) == toy_tasks(cfg, "train", 0)
    assert {t["id"] for t in toy_tasks(cfg, "val", 0)}.isdisjoint({t["id"] for t in toy_tasks(cfg, "train", 0)})
    assert {t["secret"] for t in toy_tasks(cfg, "train", 0)} <= {"0", "1", "2"}
    s1 = TaskSampler(toy_tasks(cfg, "train", 0), seed=5)
    first = [s1.next()["id"] for _ in range(13)]
    assert len(set(first[:10])) == 10  # an epoch visits every task once
    state = s1.state_dict()
    after = [s1.next()["id"] for _ in range(9)]
    s2 = TaskSampler(toy_tasks(cfg, "train", 0), seed=5)
    s2.load_state_dict(state)
    assert [s2.next()["id"] for _ in range(9)] == after


def _fake_line(step: int, **extra: Any) -> dict[str, Any]:
    return {"step": step, "train/reward_mean": step / 10, "policy/entropy": 9.0 - step / 10,
            "assembly/samples_per_rollout": 1.0 + step / 20, "assembly/single_sample_frac": 0.5,
            "time/rollout_s": 1.0, "time/drain_s": 0.1, "time/update_s": 0.3, "time/sync_s": 0.01,
            "staleness/mean": 0.5, "staleness/max": 1.0, "staleness/dropped": 0.0, "time/wall_s": step * 1.5,
            "hacking/git": 1.0, "assembly/merge_failures/retokenize_drift": 2.0, **extra}


def test_metrics_writer_truncates_on_resume_and_report_renders(tmp_path: Path) -> None:
    w = MetricsWriter(tmp_path, tensorboard=True)
    for s in range(1, 6):
        w.write(_fake_line(s, **({"val/reward_mean": s / 5} if s % 2 == 0 else {})))
    w.close()
    assert (tmp_path / "tensorboard").is_dir() and any((tmp_path / "tensorboard").iterdir())
    truncate_after(tmp_path / "metrics.jsonl", 3)
    assert [ln["step"] for ln in read_metrics(tmp_path / "metrics.jsonl")] == [1, 2, 3]
    summary = render_report(tmp_path)
    names = {p.name for p in summary.plots}
    assert {"reward.png", "entropy.png", "samples_per_rollout.png", "phases.png"} <= names
    for p in summary.plots:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = dict(summary.rows)
    assert rows["updates"] == "3"
    assert rows["blocked hacking attempts (git / network / test tampering)"] == "3 / 0 / 0"
    assert "retokenize_drift: 6" in rows["merge failures by cause"]


def test_ppo_epochs_pass_over_the_whole_batch_with_the_same_advantages() -> None:
    """Every pass sees every sample once, in whole groups, with the batch's advantages (not recomputed from a
    moved policy): the clipped ratio against the logged log-probs is what keeps later passes honest."""
    from train_helpers import make_sample

    from swerl.config import load_recipe
    from swerl.train.loop.update import rl_update

    samples, groups = [], []
    for g in range(4):
        rids = [f"g{g}-{k}" for k in range(2)]
        groups.append(rids)
        samples += [make_sample(rid, 0, 10, [(3, 7)], group_id=f"g{g}", reward=float(k), seed=g * 2 + k)
                    for k, rid in enumerate(rids)]
    batch = Batch(samples, groups, {s.rollout_id: float(s.reward) for s in samples},
                  AssemblyStats(mode="best_effort"), [], [], [])
    calls: list[list[tuple[str, float]]] = []

    class Recorder:
        def update(self, mb: list[Any], advantages: list[float], update_index: int) -> dict[str, float]:
            calls.append([(s.rollout_id, a) for s, a in zip(mb, advantages, strict=True)])
            return {"policy/loss": 0.0}

    recipe = load_recipe("tiny", ["train.mini_batches=2", "train.ppo_epochs=3"])
    m = rl_update(Recorder(), batch, recipe, update_index=0)  # type: ignore[arg-type]
    assert m["train/optimizer_steps"] == 6.0
    passes = [sorted(calls[i] + calls[i + 1]) for i in range(0, 6, 2)]
    assert passes[0] == passes[1] == passes[2]
    assert sorted(r for r, _ in passes[0]) == sorted(s.rollout_id for s in samples)
    assert {a for _, a in passes[0]} == {-0.5, 0.5}  # rollout-level GRPO within each group of rewards 0 and 1
    with pytest.raises(Exception, match="ppo_epochs"):
        load_recipe("tiny", ["train.ppo_epochs=0"])
