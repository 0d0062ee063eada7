"""A `swerl train` run directory as the viewer's pages: the run, one update, search.

The run page needs only `metrics.jsonl` (one line per update) and the store's per-state counts;
`updates.jsonl` is indexed by byte offset, so opening one update reads one line, and the store is
asked only about that update's rollouts. Everything is re-read incrementally on each request, so
a page of a running run shows the updates written so far.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import yaml

from swerl import __version__
from swerl.view.jsonl import JsonlTail
from swerl.view.redact import clean
from swerl.view.store import StoreReader

CHARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("reward", ("train/reward_mean", "val/reward_mean")),
    ("policy entropy (nats)", ("policy/entropy",)),
    ("samples per rollout", ("assembly/samples_per_rollout", "assembly/single_sample_frac")),
    ("staleness (versions)", ("staleness/mean", "staleness/max", "staleness/dropped")),
    ("hacking attempts blocked", ("hacking/git", "hacking/network", "hacking/test_tamper", "hacking/tampering",
                                  "hacking/canary_passed")),
    ("phase time (s)", ("time/rollout_s", "time/drain_s", "time/update_s", "time/sync_s", "time/checkpoint_s")),
)
TABLE_KEYS = ("train/reward_mean", "val/reward_mean", "train/rollouts", "train/groups", "assembly/samples_per_rollout",
              "staleness/mean", "staleness/dropped", "hacking/total", "rollouts/failed_infra", "policy/entropy",
              "time/step_s", "policy_version")
_STEP = re.compile(rb'^\{"step": (\d+)')


def _step_offset(line: bytes, offset: int) -> tuple[int, int]:
    """updates.jsonl lines start with their step (the writer puts it first): index without parsing the rest."""
    m = _STEP.match(line)
    if m is None:
        raise ValueError("not an updates.jsonl line")
    return int(m.group(1)), offset


class TrainRun:
    """Readers over one training run directory; cheap to construct (nothing is read until asked)."""

    kind = "train"

    def __init__(self, root: Path) -> None:
        self.root = root
        self.metrics = JsonlTail(root / "metrics.jsonl")
        self.updates = JsonlTail(root / "updates.jsonl", _step_offset)
        self.hacking = JsonlTail(root / "hacking.jsonl")
        self._store: StoreReader | None = None
        self._recipe: tuple[tuple[int, int], dict[str, Any]] | None = None
        self._tok_lock = threading.Lock()
        self._tokenizer: Any = None
        self._tok_loaded = False
        self._owner: dict[str, int] = {}
        self._owner_seen = 0
        self._owner_lock = threading.Lock()

    # ---- shared pieces ------------------------------------------------------------------------------
    def recipe(self) -> dict[str, Any]:
        """recipe.yaml, parsed once per change (pure-Python YAML costs ~25 ms: too much for every page)."""
        p = self.root / "recipe.yaml"
        try:
            st = p.stat()
        except OSError:
            return {}
        key = (st.st_mtime_ns, st.st_size)
        if self._recipe is None or self._recipe[0] != key:
            try:
                data = yaml.load(p.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError:
                data = {}
            self._recipe = (key, data if isinstance(data, dict) else {})
        return self._recipe[1]

    def store(self) -> StoreReader | None:
        """The run's gateway store (in the run dir unless `gateway.url` pointed elsewhere), once it exists."""
        if self._store is None:
            gw = self.recipe().get("gateway") or {}
            name = gw.get("store") or "gateway.sqlite"
            path = Path(name) if Path(name).is_absolute() else self.root / name
            if gw.get("url") or not path.is_file():
                return None
            self._store = StoreReader(path)
        return self._store

    def tokenizer(self) -> Any:
        """The recipe's tokenizer (loaded once, on the first page that shows tokens); None when it cannot load."""
        with self._tok_lock:
            if not self._tok_loaded:
                self._tok_loaded = True
                m = self.recipe().get("model") or {}
                try:
                    from swerl.models import load_tokenizer

                    self._tokenizer = load_tokenizer(str(m.get("tokenizer", "tiny-bpe")),
                                                     vocab_size=int(m.get("vocab_size") or 8192))
                except Exception:  # a tokenizer dir that moved: tokens show as ids, causes without decoding
                    self._tokenizer = None
            return self._tokenizer

    def merge_mode(self) -> str:
        return str((self.recipe().get("algorithm") or {}).get("merge") or "best_effort")

    def record(self, step: int) -> dict[str, Any] | None:
        """updates.jsonl's line for `step` (the last one written for it: a resumed run rewrote it)."""
        offsets = {s: off for s, off in self.updates.items()}
        return self.updates.read_at(offsets[step]) if step in offsets else None

    def owner(self, rollout_id: str) -> int | None:
        """The update that trained (or dropped) this rollout, from an index built incrementally."""
        with self._owner_lock:  # server threads share the index
            index = self.updates.items()
            if len(index) < self._owner_seen:  # a resumed run rewrote updates.jsonl: index it again
                self._owner, self._owner_seen = {}, 0
            for step, off in index[self._owner_seen:]:
                rec = self.updates.read_at(off)
                for rid in [*rec.get("rollouts", {}), *rec.get("dropped_stale", []), *rec.get("no_samples", [])]:
                    self._owner[rid] = step
            self._owner_seen = len(index)
            return self._owner.get(rollout_id)

    def hacking_of(self, keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return [clean(h) for h in self.hacking.items() if keep(h)]

    # ---- the run page -------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        lines = self.metrics.items()
        recorded = {s for s, _ in self.updates.items()}
        steps = [int(m.get("step", 0)) for m in lines]
        series = {k: [_num(m.get(k)) for m in lines] for _, keys in CHARTS for k in keys}
        store = self.store()
        ckpt = self.root / "checkpoints"
        return {"kind": "train", "name": self.root.name, "path": str(self.root), "viewer_version": __version__,
                "recipe": clean(self.recipe()), "store": store.summary() if store else None,
                "checkpoints": sorted(p.name for p in ckpt.glob("step-*")) if ckpt.is_dir() else [],
                "charts": [{"title": t, "keys": list(keys)} for t, keys in CHARTS], "steps": steps, "series": series,
                "updates": [{"step": int(m.get("step", 0)), "recorded": int(m.get("step", 0)) in recorded,
                             **{k: _num(m.get(k)) for k in TABLE_KEYS}} for m in lines],
                "updates_recorded": bool(recorded)}


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS)


__all__ = ["CHARTS", "TrainRun", "dumps"]
