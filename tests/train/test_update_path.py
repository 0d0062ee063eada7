"""docs/architecture.md's "One update's path" is true: the swerl modules whose code runs on the trainer's thread
from the drain to the resume of a real update (toy harness, gateway and embedded engine in-process, torch backend)
are exactly the ones it lists, and they are at most 15."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from swerl.config import load_recipe
from swerl.train.loop import train
from swerl.train.loop.phases import Phase, PhaseMachine

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def documented() -> list[str]:
    """The modules of the section's diagram: each line of its code block starts with one."""
    text = DOC.read_text()
    section = text.split("## One update's path", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    return [m.group(1) for line in block.splitlines() if (m := re.match(r"\s*(swerl\.[\w.]+)", line))]


def test_the_documented_update_path_is_the_one_that_runs(tmp_path: Path, tok_cache: Path, tiny_tok: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))
    seen: set[str] = set()
    trainer_thread: list[threading.Thread] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("swerl"):
                seen.add(name)

    original = PhaseMachine.go

    def go(self: PhaseMachine, to: Phase) -> None:
        original(self, to)
        if threading.current_thread() not in trainer_thread:
            return
        if to in (Phase.DRAIN, Phase.UPDATE):  # collocated: drain, then update; sync mode starts at the update
            sys.setprofile(profile)
        elif to in (Phase.ROLLOUT, Phase.CHECKPOINT, Phase.STOPPING):
            sys.setprofile(None)

    trainer_thread.append(threading.current_thread())
    monkeypatch.setattr(PhaseMachine, "go", go)
    recipe = load_recipe("toy", ["train.rollouts_per_step=8", "rollout.concurrency=4", "train.mini_batches=2",
                                 "train.val_every=0", "train.tensorboard=false", "train.steps=2",
                                 "train.checkpoint_every=10"])
    try:
        assert train(recipe, tmp_path / "run").steps == 2
    finally:
        sys.setprofile(None)
    doc = documented()
    assert len(doc) == len(set(doc)) <= 15, doc
    assert seen == set(doc), (f"ran but not drawn: {sorted(seen - set(doc))}; "
                              f"drawn but not run: {sorted(set(doc) - seen)}")
