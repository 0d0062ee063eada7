"""What a run directory is, and the one entry point the server and the export share: `RunSource.get(key)`.

Keys are the page data the browser asks for: `run`, `update/<step>`, `rollout/<id>`, `instance/<id>`,
`search?q=<text>`. Every part is checked against a strict pattern before anything is read (the
server's routes are fuzzed), so a bad key is a `ViewError` with a 4xx status, never a file path.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from swerl.errors import SwerlError
from swerl.gateway.schema import ID_PATTERN
from swerl.view.eval_run import CompareRun, EvalRun, safe_summary
from swerl.view.train_run import TrainRun

STEP = re.compile(r"^[1-9][0-9]{0,8}$")
ROLLOUT_ID = re.compile(ID_PATTERN)
INSTANCE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:+@-]{0,199}$")
SEARCH_MAX = 128
SEARCH_LIMIT = 200
CACHE = 16  # update pages kept (an update's page is final once written)


class ViewError(Exception):
    """A request the viewer refuses: `status` (400 bad input, 404 no such thing) and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def detect(root: Path) -> TrainRun | EvalRun | CompareRun:
    """A training run (metrics/updates/recipe/store), an eval run (run.json) or a compare output (compare.json)."""
    if not root.is_dir():
        raise SwerlError(f"{root}: not a directory (give a `swerl train` or `swerl eval` run directory)")
    if (root / "run.json").is_file():
        return EvalRun(root)
    if any((root / n).exists() for n in ("metrics.jsonl", "updates.jsonl", "recipe.yaml", "gateway.sqlite")):
        return TrainRun(root)
    if (root / "compare.json").is_file():
        return CompareRun(root)
    raise SwerlError(f"{root}: not a run directory (no metrics.jsonl / recipe.yaml of `swerl train`, no run.json "
                     "of `swerl eval swebench`, no compare.json of `swerl eval compare`)")


class RunSource:
    """Page data of one run directory, read lazily on each `get`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.run = detect(root)
        self._cache: OrderedDict[tuple[int, Any], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def kind(self) -> str:
        return self.run.kind

    def get(self, key: str) -> dict[str, Any]:
        """The page data for `key` (already URL-decoded path + optional `?query`); ViewError when refused."""
        path, _, query = key.partition("?")
        head, _, rest = path.partition("/")
        if head == "run" and not rest:
            return safe_summary(self.run) if isinstance(self.run, EvalRun) else self.run.summary()
        if head == "search" and not rest:
            return self._search(query)
        if head == "update" and isinstance(self.run, TrainRun):
            return self._update(rest)
        if head == "rollout" and isinstance(self.run, TrainRun):
            return self._found(_check(ROLLOUT_ID, rest, "rollout id"), self._rollout)
        if head == "instance" and isinstance(self.run, EvalRun):
            return self._found(_check(INSTANCE_ID, rest, "instance id"), self.run.instance)
        raise ViewError(404, f"no page {path[:80]!r} for a {self.kind} run")

    def _found(self, ident: str, fn: Any) -> dict[str, Any]:
        page = fn(ident)
        if page is None:
            raise ViewError(404, f"{ident!r}: not in this run")
        return page

    def _rollout(self, rid: str) -> dict[str, Any] | None:
        from swerl.view.rollout_page import rollout_page

        assert isinstance(self.run, TrainRun)
        return rollout_page(self.run, rid)

    def _update(self, rest: str) -> dict[str, Any]:
        from swerl.view.update_page import update_page

        assert isinstance(self.run, TrainRun)
        step = int(_check(STEP, rest, "update step"))
        offsets = dict(self.run.updates.items())
        ck = (step, offsets.get(step))
        with self._lock:
            if ck[1] is not None and ck in self._cache:
                self._cache.move_to_end(ck)
                return self._cache[ck]
        page = update_page(self.run, step)
        if page is None:
            raise ViewError(404, f"update {step}: not in this run")
        if ck[1] is not None:
            with self._lock:
                self._cache[ck] = page
                while len(self._cache) > CACHE:
                    self._cache.popitem(last=False)
        return page

    def _search(self, query: str) -> dict[str, Any]:
        try:
            q = parse_qs(query, max_num_fields=4, strict_parsing=False).get("q", [""])[0]
        except ValueError:
            raise ViewError(400, "bad query string") from None
        if len(q) > SEARCH_MAX or any(ord(c) < 32 for c in q):
            raise ViewError(400, f"search text: at most {SEARCH_MAX} printable characters")
        if isinstance(self.run, TrainRun):
            store = self.run.store()
            hits = store.search(q, SEARCH_LIMIT) if store and q else []
            for h in hits:
                h["step"] = self.run.owner(h["id"])
            return {"kind": "search", "q": q, "rollouts": hits}
        if isinstance(self.run, EvalRun):
            m = self.run.store.manifest()
            return {"kind": "search", "q": q, "instances": [i for i in (m.instance_ids if m else []) if q in i]
                    [:SEARCH_LIMIT]}
        return {"kind": "search", "q": q}


def _check(pattern: re.Pattern[str], value: str, what: str) -> str:
    value = unquote(value)
    if not pattern.match(value):
        raise ViewError(400, f"bad {what}: {value[:80]!r}")
    return value


__all__ = ["RunSource", "ViewError", "detect"]
