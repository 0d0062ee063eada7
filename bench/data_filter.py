"""Benchmark `swerl data filter`: 60,000 synthetic SWE-smith rows through stages 1-3.

Measured in one run, on the same rows:
- end to end (`run_filter`: load parquet with `datasets`, normalise, stages 1-3 with the
  branch inventory from a JSON file, split, write save_to_disk + parquet + report):
  seconds (goal <= 30 s on 2 cores) and rows/s;
- the stages alone (`filter_dataset`: normalise, stages 1-3, split, on the loaded dataset)
  against a plain Python loop doing the same classification over the rows as dicts:
  the ratio says what the `datasets` machinery costs over the bare minimum.

Usage: .venv/bin/python bench/data_filter.py [--rows 60000] [--num-proc N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

GOAL_SECONDS = 30.0
GOAL_RATIO = 10.0


def make_rows(n: int, seed: int = 0) -> tuple[list[dict], dict[str, list[str]]]:
    """Rows in the SWE-smith schema with the real public data's drop rates, and a branch inventory.

    ~30% empty statements (18,033 / 59,136), ~2% missing branches (1,265), ~3% over 200
    tests; 128 repositories/images, one of which is absent from the inventory.
    """
    rng = random.Random(seed)
    rows: list[dict] = []
    branches: dict[str, list[str]] = {}
    for i in range(n):
        repo_n = i % 128
        image = f"jyangballin/swesmith.x86_64.owner{repo_n}_1776_repo{repo_n}.abc{repo_n:04d}"
        iid = f"owner{repo_n}__repo{repo_n}.abc{repo_n:04d}.func_pm_{i}"
        n_p2p = rng.randint(201, 400) if rng.random() < 0.03 else rng.randint(0, 60)
        statement = rng.choice(("", "   \n", None)) if rng.random() < 0.3 else f"Bug {i}: " + "x" * rng.randint(100, 800)
        rows.append({
            "instance_id": iid,
            "repo": f"swesmith/owner{repo_n}__repo{repo_n}.abc{repo_n:04d}",
            "patch": f"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-a = {i}\n+a = {i + 1}\n" * 4,
            "FAIL_TO_PASS": [f"tests/test_m{repo_n}.py::test_case_{j}" for j in range(rng.randint(1, 5))],
            "PASS_TO_PASS": [f"tests/test_m{repo_n}.py::test_pass_{j}" for j in range(n_p2p)],
            "image_name": image,
            "problem_statement": statement,
        })
        if repo_n != 127 and rng.random() >= 0.02:  # image 127 is uninspectable; 2% branches missing
            branches.setdefault(image, []).append(iid)
    return rows, branches


def plain_loop(rows: list[dict], branches: dict[str, list[str]], max_tests: int, test_size: int,
               seed: int) -> dict[str, int]:
    """The same decisions as stages 1-3 + split, written as one straightforward loop over dicts."""
    from swerl.tasks.schema import parse_test_list

    inv = {k: set(v) for k, v in branches.items()}
    counts = {"empty_problem_statement": 0, "image_unavailable": 0, "missing_branch": 0, "too_many_tests": 0}
    kept: list[str] = []
    for row in rows:
        iid = row["instance_id"]
        n_tests = len(parse_test_list(row["FAIL_TO_PASS"], instance_id=iid, field="FAIL_TO_PASS")) + len(
            parse_test_list(row["PASS_TO_PASS"], instance_id=iid, field="PASS_TO_PASS"))
        ps = row["problem_statement"]
        if ps is None or not ps.strip():
            counts["empty_problem_statement"] += 1
        elif row["image_name"] not in inv:
            counts["image_unavailable"] += 1
        elif iid not in inv[row["image_name"]]:
            counts["missing_branch"] += 1
        elif n_tests > max_tests:
            counts["too_many_tests"] += 1
        else:
            kept.append(iid)
    test = sorted(kept, key=lambda i: hashlib.sha256(f"swerl-split:{seed}:{i}".encode()).digest())[:test_size]
    counts["train"] = len(kept) - len(test)
    return counts


def bench_line(name: str, value: float, unit: str, op: str, target: float) -> str:
    met = value <= target if op == "<=" else value >= target
    return f"BENCH {name} {value:.3g} {unit} goal {op}{target:g} {'met' if met else 'missed'}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=60_000)
    ap.add_argument("--num-proc", type=int, default=None)
    args = ap.parse_args()

    import datasets

    from swerl.data.inventory import FileInventory
    from swerl.data.params import FilterParams
    from swerl.data.pipeline import filter_dataset, run_filter
    from swerl.log import configure
    from swerl.tasks.load import load_rows

    configure("ERROR")  # the uninspectable image's warning is expected here
    datasets.disable_progress_bars()
    tmp = Path(tempfile.mkdtemp(prefix="swerl-bench-filter-"))
    try:
        rows, branches = make_rows(args.rows)
        src = tmp / "rows.parquet"
        datasets.Dataset.from_list(rows).to_parquet(str(src))
        (tmp / "branches.json").write_text(json.dumps(branches))
        params = FilterParams(dataset=str(src), out=tmp / "out", branches=tmp / "branches.json",
                              test_size=400, num_proc=args.num_proc, cache_dir=tmp / "cache")

        t0 = time.perf_counter()
        report = run_filter(params)
        e2e = time.perf_counter() - t0

        ds = load_rows(str(src), cache_dir=tmp / "hf")
        t0 = time.perf_counter()
        outcome = filter_dataset(ds, params, inventory=FileInventory(tmp / "branches.json"))
        stages = time.perf_counter() - t0

        t0 = time.perf_counter()
        loop_counts = plain_loop(rows, branches, params.max_tests, params.test_size, params.seed)
        loop = time.perf_counter() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    got = {**report.dropped, "train": report.splits["train"]}
    if got != loop_counts or outcome.report(params).dropped != report.dropped:
        print(f"MISMATCH pipeline={got} loop={loop_counts}", file=sys.stderr)
        return 1
    print(f"rows={args.rows} dropped={report.dropped} kept={report.kept} splits={report.splits}")
    print(f"end-to-end {e2e:.2f} s; stages only {stages:.2f} s; plain loop {loop:.2f} s")
    print(bench_line("data_filter_60k_seconds", e2e, "s", "<=", GOAL_SECONDS))
    print(bench_line("data_filter_rows_per_s", args.rows / e2e, "rows/s", ">=", args.rows / GOAL_SECONDS))
    print(bench_line("data_filter_stages_vs_plain_loop_ratio", stages / loop, "x", "<=", GOAL_RATIO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
