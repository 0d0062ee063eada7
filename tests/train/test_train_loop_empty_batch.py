"""An update with nothing to train on (every rollout over-stale or sample-less) in collocated mode: the
engine slept in the drain, so it must be woken (re-synced on the same version) before the gateway
releases held calls — otherwise they reach a sleeping vLLM and hang until the hold times out."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import swerl.train.loop.trainer as trainer_mod
from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.metrics import read_metrics


@pytest.fixture(autouse=True)
def _shared_tokenizer_cache(tok_cache: Path, tiny_tok: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


class _SleepyEngine:
    """The real engine, plus vLLM's sleep state: `release()` puts it to sleep, `load_weights()` wakes it."""

    def __init__(self, inner: Any, events: list[tuple[str, int | None]]) -> None:
        self.inner, self.events, self.asleep = inner, events, False

    def urls(self) -> list[str]:
        return self.inner.urls()

    def release(self) -> None:
        self.asleep = True
        self.events.append(("release", None))
        self.inner.release()

    def load_weights(self, version: int) -> None:
        self.inner.load_weights(version)
        self.asleep = False
        self.events.append(("load_weights", version))

    def busy_seconds(self) -> tuple[float, int]:
        return self.inner.busy_seconds()

    def close(self) -> None:
        self.inner.close()


def test_empty_batch_wakes_and_resyncs_the_engine_before_resuming(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[tuple[str, int | None]] = []
    resumed_asleep: list[int] = []
    real_start, real_build = trainer_mod.start_runtime, trainer_mod.build_batch

    def start_runtime(recipe: Any, run_dir: Path) -> Any:
        rt = real_start(recipe, run_dir)
        rt.engine = engine = _SleepyEngine(rt.engine, events)
        real_resume = rt.client.resume

        def resume(version: int) -> Any:
            if engine.asleep:
                resumed_asleep.append(version)
            events.append(("resume", version))
            return real_resume(version)

        rt.client.resume = resume
        return rt

    calls = {"n": 0}

    def build_batch(*args: Any, **kwargs: Any) -> Any:
        batch = real_build(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 1:  # the first batch: as if every rollout had been over-stale
            return dataclasses.replace(batch, samples=[], dropped_stale=list(batch.rewards))
        return batch

    monkeypatch.setattr(trainer_mod, "start_runtime", start_runtime)
    monkeypatch.setattr(trainer_mod, "build_batch", build_batch)
    recipe = load_recipe("toy", ["train.rollouts_per_step=8", "rollout.concurrency=8", "train.mini_batches=1",
                                 "train.val_every=0", "train.tensorboard=false", "train.steps=1",
                                 "train.mode=collocated"])
    res = train(recipe, tmp_path / "run")
    assert res.steps == 1 and calls["n"] == 2
    assert resumed_asleep == [], f"the gateway resumed while the engine slept: {events}"
    first = events.index(("release", None))
    assert events[first + 1:first + 3] == [("load_weights", 0), ("resume", 0)], events
    assert read_metrics(tmp_path / "run" / "metrics.jsonl")[-1]["policy_version"] == 1
