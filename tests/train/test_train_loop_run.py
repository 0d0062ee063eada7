"""The real loop on the toy harness: gateway + embedded engine in-process, short runs (a few seconds each)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from swerl.config import Recipe, load_recipe
from swerl.errors import ConfigError, SwerlError
from swerl.rollout.runner import Attempt, AttemptContext
from swerl.train.loop import Trainer, train
from swerl.train.loop.checkpoint import latest_checkpoint, load_checkpoint
from swerl.train.loop.metrics import read_metrics

REQUIRED = ["step", "train/reward_mean", "adv/mean", "adv/std", "policy/entropy", "policy/clip_frac",
            "assembly/samples_per_rollout", "assembly/merge_failures/retokenize_drift", "staleness/mean",
            "staleness/dropped", "time/rollout_s", "time/drain_s", "time/update_s", "time/sync_s",
            "throughput/tokens_per_s", "hacking/git", "hacking/network", "hacking/test_tamper", "policy_version",
            "mismatch/kl", "mismatch/max_abs_logprob_diff", "mismatch/ratio_mean", "mismatch/masked_frac"]


@pytest.fixture(autouse=True)
def _shared_tokenizer_cache(tok_cache: Path, tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Use the session's freshly built tiny tokenizer (tests must not depend on ~/.cache)."""
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


def toy(*overrides: str) -> Recipe:
    return load_recipe("toy", ["train.rollouts_per_step=16", "rollout.concurrency=8", "train.mini_batches=2",
                               "train.val_every=0", "train.tensorboard=false", *overrides])


def test_collocated_run_records_metrics_validation_checkpoints(tmp_path: Path) -> None:
    run = tmp_path / "run"
    res = train(toy("train.steps=3", "train.val_every=2", "toy.val_tasks=4", "train.checkpoint_every=2",
                    "train.tensorboard=true"), run)
    assert res.steps == 3 and not res.stopped_early
    lines = read_metrics(run / "metrics.jsonl")
    assert [ln["step"] for ln in lines] == [1, 2, 3]
    for ln in lines:
        missing = [k for k in REQUIRED if k not in ln]
        assert not missing, missing
        assert ln["train/rollouts"] >= 16 and ln["assembly/samples_per_rollout"] == 1.0  # the template composes
        assert ln["policy_version"] == ln["step"]
    assert "val/reward_mean" not in lines[0] and lines[1]["val/rollouts"] == 4 and "val/reward_mean" in lines[2]
    assert latest_checkpoint(run).name == "step-000003"
    assert any((run / "tensorboard").iterdir())
    assert (run / "recipe.yaml").is_file() and (run / "gateway.sqlite").is_file()


def _weights(run: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(run)["backend"]["policy"]


def test_resume_continues_exactly(tmp_path: Path) -> None:
    """Sync mode is deterministic (seeded sampling per rollout): 4 straight updates == 2 + resume + 2."""
    base = ["train.mode=sync", "train.checkpoint_every=2"]
    train(toy(*base, "train.steps=4"), tmp_path / "a")
    train(toy(*base, "train.steps=2"), tmp_path / "b")
    assert latest_checkpoint(tmp_path / "b").name == "step-000002"
    resumed = load_recipe(str(tmp_path / "b" / "recipe.yaml"), ["train.steps=4"])
    res = train(resumed, tmp_path / "b", resume=True)
    assert res.steps == 4
    a, b = read_metrics(tmp_path / "a" / "metrics.jsonl"), read_metrics(tmp_path / "b" / "metrics.jsonl")
    assert [ln["step"] for ln in b] == [1, 2, 3, 4]
    for la, lb in zip(a, b, strict=True):
        for k in ("train/reward_mean", "policy/loss", "policy/entropy", "adv/std"):
            assert la[k] == pytest.approx(lb[k], abs=1e-6), (la["step"], k)
    wa, wb = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_stop_is_clean_at_a_safe_point_and_resumable(tmp_path: Path) -> None:
    run = tmp_path / "run"
    trainer = Trainer(toy("train.steps=50"), run, on_progress=lambda p: p.step >= 1 and trainer.stop())
    res = trainer.run()
    assert res.stopped_early and res.steps >= 1
    assert latest_checkpoint(run).name == f"step-{res.steps:06d}"  # the final state is saved
    assert len(read_metrics(run / "metrics.jsonl")) == res.steps
    more = load_recipe(str(run / "recipe.yaml"), [f"train.steps={res.steps + 1}"])
    assert train(more, run, resume=True).steps == res.steps + 1


def test_staleness_limit_drops_and_counts(tmp_path: Path) -> None:
    """Many rollouts in flight, limit 0: everything started under an older policy is dropped, never trained."""
    run = tmp_path / "run"
    train(toy("train.steps=3", "rollout.concurrency=48", "algorithm.staleness_limit=0"), run)
    lines = read_metrics(run / "metrics.jsonl")
    assert all(ln["staleness/max"] == 0 for ln in lines)
    assert lines[-1]["staleness/dropped_total"] > 0
    assert sum(ln["staleness/dropped"] for ln in lines) == lines[-1]["staleness/dropped_total"]


class _BrokenHarness:
    name = "broken"

    def run(self, ctx: AttemptContext) -> Attempt:
        return Attempt(None, "failed_infra", error="sandbox exploded")

    def close(self) -> None:
        pass


def test_infrastructure_failures_are_classified_and_stop_the_run(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import swerl.train.loop.trainer as trainer_mod

    real = trainer_mod.build_harness

    def broken(recipe: Recipe, tok: Any, run_dir: Path) -> Any:
        _, settings, tr, va = real(recipe, tok, run_dir)
        return _BrokenHarness(), settings, tr, va

    monkeypatch.setattr(trainer_mod, "build_harness", broken)
    with pytest.raises(SwerlError, match=r"infrastructure failures in a row.*sandbox exploded"):
        train(toy("train.steps=2", "train.max_infra_failures=6", "rollout.max_infra_retries=1"), tmp_path / "run")


def test_bad_inputs_fail_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=r"model\.path"):
        train(toy("model.path=/nonexistent/model"), tmp_path / "a")
    with pytest.raises(ConfigError, match="tokenizer"):
        train(toy("model.tokenizer=/nonexistent/tok"), tmp_path / "b")
    with pytest.raises(ConfigError, match="group size 1"):
        train(toy("algorithm.name=sao"), tmp_path / "c")
    with pytest.raises(ConfigError, match="embedded"):
        train(toy("inference.engine=openai"), tmp_path / "d")
    assert not (tmp_path / "a" / "metrics.jsonl").exists()

    from swerl.gateway.engines import embedded

    def hang(self: Any, prompt_ids: list[int], params: Any) -> Any:
        import time

        time.sleep(3)
        raise RuntimeError("never answered")

    monkeypatch.setattr(embedded.EmbeddedEngine, "generate", hang)
    with pytest.raises(SwerlError, match="did not answer"):
        train(toy("inference.startup_timeout_s=1"), tmp_path / "e")
    assert not (tmp_path / "e" / "metrics.jsonl").exists()
