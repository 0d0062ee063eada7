"""`swerl view RUN_DIR --export DIR`: the same pages as a static site that opens from disk, no server.

Browsers refuse `fetch()` of `file://` URLs, so each page's data is a script, `data/<key>.js`, that
hands its JSON to the page (`swerl_data(key, {...})`); the page loads it with a `<script>` tag,
which `file://` allows. The page is the server's `index.html` with `data-static` set. Keys map to
file names by escaping every character outside `[A-Za-z0-9._-]` as `~xx` (the page does the same).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from swerl.errors import SwerlError
from swerl.view.eval_run import EvalRun
from swerl.view.server import ASSETS, asset
from swerl.view.source import RunSource, ViewError
from swerl.view.train_run import TrainRun, dumps

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def file_name(key: str) -> str:
    """`rollout/t0-1.x:0` -> `rollout~2ft0-1.x~3a0.js` (kept in step with `fileOf` in app.js)."""
    return _UNSAFE.sub(lambda m: "".join(f"~{b:02x}" for b in m.group(0).encode()), key) + ".js"


def _keys(source: RunSource) -> Iterator[str]:
    """Every page of the run, the run page first."""
    yield "run"
    run = source.run
    if isinstance(run, TrainRun):
        for step, _ in run.updates.items():
            yield f"update/{step}"
        store = run.store()
        for rid in store.all_ids() if store else []:
            yield f"rollout/{rid}"
    elif isinstance(run, EvalRun):
        m = run.store.manifest()
        for iid in m.instance_ids if m else []:
            yield f"instance/{iid}"


def _search_index(source: RunSource) -> dict[str, object]:
    """The static site's search: every rollout id with its update (the server searches the store instead)."""
    run = source.run
    if isinstance(run, TrainRun):
        store = run.store()
        return {"kind": "search-index", "rollouts": [[rid, run.owner(rid)] for rid in (store.all_ids() if store else [])]}
    if isinstance(run, EvalRun):
        m = run.store.manifest()
        return {"kind": "search-index", "instances": list(m.instance_ids) if m else []}
    return {"kind": "search-index"}


def export_site(source: RunSource, out: Path, progress: Callable[[int, str], None] | None = None) -> int:
    """Write the site into `out` (created; an existing non-empty dir must be an earlier export). Returns pages."""
    if out.exists() and any(out.iterdir()) and not (out / "data").is_dir():
        raise SwerlError(f"--export {out}: exists and is not an earlier export; give a new or empty directory")
    if out.resolve() == source.root.resolve() or source.root.resolve() in out.resolve().parents:
        raise SwerlError(f"--export {out}: must be outside the run directory")
    shutil.rmtree(out / "data", ignore_errors=True)
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "static").mkdir(exist_ok=True)
    for name in ASSETS:
        if name != "index.html":
            (out / "static" / name).write_bytes(asset(name))
    html = asset("index.html").replace(b"<html lang=\"en\">", b"<html lang=\"en\" data-static=\"1\">", 1)
    (out / "index.html").write_bytes(html)
    n = 0
    for key in [*_keys(source), "search-index"]:
        try:
            data = _search_index(source) if key == "search-index" else source.get(key)
        except ViewError:
            continue  # listed but gone (a store being written): the page shows "not exported"
        _write(out / "data" / file_name(key), key, dumps(data))
        n += 1
        if progress is not None:
            progress(n, key)
    return n


def _write(path: Path, key: str, body: bytes) -> None:
    path.write_bytes(b"swerl_data(" + dumps(key) + b", " + body + b");\n")


__all__ = ["export_site", "file_name"]
