"""Screenshots of each `swerl view` page for docs/view.md, taken in headless Chromium.

    .venv/bin/python tests/view/screenshots.py --out docs/img \\
        --run runs/demo-toy --update runs/demo:1 --rollout RUN:ROLLOUT_ID [--rollout ...] --eval runs/eval-after \\
        --instance INSTANCE_ID

Each page is served by a fresh `ViewServer`, rendered, checked for console errors (a page with an
error is not photographed), and saved as view-<page>.png.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from headless import Browser

from swerl.view import RunSource
from swerl.view.server import ViewServer


def shoot(b: Browser, run: Path, fragment: str, view: str, out: Path, full: bool = False) -> None:
    srv = ViewServer(RunSource(Path(run)), port=0)
    try:
        b.goto(srv.url + fragment, view, timeout=120)
        errors = b.errors()
        if errors:
            raise SystemExit(f"{run} {fragment}: console errors {errors}")
        b.screenshot(out, full_page=full)
        print(f"wrote {out}")
    finally:
        srv.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--run", type=Path, required=True, help="training run for the run page")
    ap.add_argument("--update", required=True, help="RUN:STEP for the update page")
    ap.add_argument("--rollout", required=True, action="append", help="RUN:ROLLOUT_ID for a rollout page (repeatable)")
    ap.add_argument("--eval", type=Path, required=True, help="eval run (with compare results) for the eval pages")
    ap.add_argument("--instance", required=True)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    b = Browser()
    try:
        shoot(b, a.run, "#/", "run", a.out / "view-run.png", full=True)
        run, step = a.update.rsplit(":", 1)
        shoot(b, Path(run), f"#/update/{step}", "update", a.out / "view-update.png")
        for k, spec in enumerate(a.rollout):
            run, rid = spec.split(":", 1)
            name = "view-rollout.png" if k == 0 else f"view-rollout-{k + 1}.png"
            shoot(b, Path(run), "#/rollout/" + quote(rid, safe=""), "rollout", a.out / name, full=True)
        shoot(b, a.eval, "#/", "run", a.out / "view-eval.png")
        shoot(b, a.eval, "#/instance/" + quote(a.instance, safe=""), "instance", a.out / "view-instance.png")
    finally:
        b.close()


if __name__ == "__main__":
    main()
