"""How long `swerl view` takes to open a run of 100,000 rollouts.

Builds (once, cached under $SWERL_BENCH_DIR or /tmp) a training run of 100,000 rollouts: a gateway store
with 6 events each (3 delta-encoded model calls, reward, 2 status changes; 600,000 events), 1,563
updates of 64 rollouts in `updates.jsonl`, and `metrics.jsonl` lines shaped like a real toy run's.
Then, three times each: start `swerl view RUN --port 0` as a fresh process, and time from the spawn to
the run page rendered in headless Chromium (`body[data-view=run]`, the updates table built), which
includes Python start-up and imports; then an update page and a rollout page in the same browser.

    BENCH view_open_100k_rollouts <seconds> s goal <=2 met|missed     (the median of the three opens)
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from headless import Browser
from view_runs import add_event, add_rollout, open_store

from swerl.config import load_recipe

ROLLOUTS = 100_000
PER_UPDATE = 64
GROUP = 4
GOAL_S = 2.0


def _metrics_line(step: int, rng: random.Random) -> dict[str, float]:
    keys = ("train/reward_mean", "train/reward_std", "train/success_rate", "policy/entropy", "policy/loss",
            "policy/clip_frac", "policy/approx_kl", "assembly/samples_per_rollout", "assembly/single_sample_frac",
            "staleness/mean", "staleness/max", "staleness/dropped", "time/rollout_s", "time/drain_s",
            "time/update_s", "time/sync_s", "time/checkpoint_s", "time/step_s", "time/wall_s")
    line: dict[str, float] = {"step": step, "policy_version": step, "train/rollouts": PER_UPDATE,
                              "train/groups": PER_UPDATE // GROUP}
    line |= {k: rng.random() for k in keys}
    line |= {f"hacking/{k}": 0.0 for k in ("git", "network", "test_tamper", "tampering", "total")}
    line |= {f"x/filler_{i}": rng.random() for i in range(40)}  # a real line has ~90 keys
    return line


def build(root: Path) -> None:
    import yaml

    root.mkdir(parents=True, exist_ok=True)
    (root / "recipe.yaml").write_text(yaml.safe_dump(load_recipe("toy").model_dump(mode="json"), sort_keys=False))
    conn = open_store(root / "gateway.sqlite")
    conn.execute("PRAGMA synchronous = OFF")
    rng = random.Random(0)
    conn.execute("BEGIN")
    with (root / "updates.jsonl").open("w") as up, (root / "metrics.jsonl").open("w") as me:
        for step in range(1, ROLLOUTS // PER_UPDATE + 2):
            first = (step - 1) * PER_UPDATE
            ids = [f"t0-{(first + i) // GROUP:07d}.task-{(first + i) // GROUP % 500}:{i % GROUP}"
                   for i in range(min(PER_UPDATE, ROLLOUTS - first))]
            if not ids:
                break
            for rid in ids:
                _rollout(conn, rid, rid.rsplit(":", 1)[0], step, rng)
            groups = [ids[i:i + GROUP] for i in range(0, len(ids), GROUP)]
            rec = {rid: {"reward": 0.0, "staleness": 0, "samples": [[80, 30, 0.0]]} for rid in ids}
            up.write(json.dumps({"step": step, "version": step - 1, "groups": groups, "rollouts": rec,
                                 "dropped_stale": [], "no_samples": []}) + "\n")
            me.write(json.dumps(_metrics_line(step, rng)) + "\n")
    conn.execute("COMMIT")
    conn.close()


def _rollout(conn, rid: str, group: str, step: int, rng: random.Random) -> None:
    add_rollout(conn, rid, group, metadata={"instance_id": group.split(".", 1)[1], "split": "train"})
    add_event(conn, rollout_id=rid, group_id=group, attempt=1, kind="status", state="running", data={}, created=0.0)
    parent, full = None, 0
    for _ in range(3):
        suffix = [rng.randrange(8000) for _ in range(20 if parent else 40)]
        resp = [rng.randrange(8000) for _ in range(10)]
        eid, _ = add_event(conn, rollout_id=rid, group_id=group, attempt=1, kind="model_request", mode="chat",
                           policy_version=step - 1, prompt_ids=suffix, prompt_parent=parent,
                           prompt_shared=full if parent else None, response_ids=resp,
                           response_logprobs=[-0.5] * 10, http_status=200, t_arrival=0.0, t_start=0.1, t_end=0.2,
                           created=0.2)
        parent, full = eid, full + len(suffix) + len(resp)
    add_event(conn, rollout_id=rid, group_id=group, attempt=1, kind="reward", reward=0.0, data={"reward": 0.0},
              created=0.3)
    add_event(conn, rollout_id=rid, group_id=group, attempt=1, kind="status", state="succeeded", data={}, created=0.4)


def open_once(root: Path, b: Browser) -> tuple[float, float, float]:
    """Spawn `swerl view`, render the run page; then an update and a rollout page. Seconds for each."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "swerl.cli", "view", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        b.goto(url + "#/", "run", timeout=60)
        opened = time.perf_counter() - t0
        assert b.eval("document.querySelectorAll('tr.update-row').length") == ROLLOUTS // PER_UPDATE + 1
        update = b.goto(url + "#/update/700", "update", timeout=60)
        rid = b.eval("document.querySelector('tr.rollout-row').dataset.id")
        rollout = b.goto(url + "#/rollout/" + rid, "rollout", timeout=60)
        assert b.errors() == []
        return opened, update, rollout
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    root = Path(os.environ.get("SWERL_BENCH_DIR", "/tmp")) / f"swerl-view-{ROLLOUTS}"
    if not (root / "metrics.jsonl").is_file():
        t = time.perf_counter()
        build(root)
        print(f"built {root} ({ROLLOUTS} rollouts, {(root / 'gateway.sqlite').stat().st_size / 2**20:.0f} MiB store) "
              f"in {time.perf_counter() - t:.0f} s")
    b = Browser()
    try:
        runs = [open_once(root, b) for _ in range(3)]
    finally:
        b.close()
    for name, i in (("run page (spawn -> rendered)", 0), ("update page", 1), ("rollout page", 2)):
        vals = [r[i] for r in runs]
        print(f"{name}: median {statistics.median(vals):.2f} s (runs: {', '.join(f'{v:.2f}' for v in vals)})")
    med = statistics.median(r[0] for r in runs)
    print(f"BENCH view_open_100k_rollouts {med:.2f} s goal <={GOAL_S:g} {'met' if med <= GOAL_S else 'missed'}")


if __name__ == "__main__":
    main()
