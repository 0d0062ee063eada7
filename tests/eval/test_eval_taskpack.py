"""The SWE-bench-schema task pack: real schema, real harness spec, and every gold patch resolves (bwrap)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import RESOLVES, bundled_task_count

from swerl.eval.dataset import load_instances
from swerl.eval.grading import SandboxGrader


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def test_rows_have_the_swebench_schema(sb_pack: Path, sb_rows: list[dict[str, Any]]) -> None:
    assert len(sb_rows) == bundled_task_count() >= 10
    for row in sb_rows:
        for col in ("instance_id", "repo", "base_commit", "patch", "test_patch", "problem_statement", "version",
                    "FAIL_TO_PASS", "PASS_TO_PASS", "environment_setup_commit", "created_at", "hints_text"):
            assert col in row, (row["instance_id"], col)
        assert "image_name" not in row  # as in SWE-bench: derived from the id
        assert isinstance(row["FAIL_TO_PASS"], str) and isinstance(row["PASS_TO_PASS"], str)
        f2p, p2p = json.loads(row["FAIL_TO_PASS"]), json.loads(row["PASS_TO_PASS"])
        assert f2p and not set(f2p) & set(p2p)
        test_files = {t.split("::")[0] for t in f2p}
        assert {t.split("::")[0] for t in p2p} <= test_files  # P2P: other tests of the files the harness runs
        # test_patch touches only test files, the gold patch only source files
        touched_tests = {line.split(" b/")[1] for line in row["test_patch"].splitlines() if line.startswith("diff --git")}
        touched_src = {line.split(" b/")[1] for line in row["patch"].splitlines() if line.startswith("diff --git")}
        assert touched_tests == test_files and all(p.startswith("tests/") for p in touched_tests)
        assert touched_src and not any(p.startswith("tests/") for p in touched_src)
        # base_commit: an orphan commit (no history holding the fix) without the FAIL_TO_PASS tests
        repo = (sb_pack.parent / row["repo_dir"]).resolve()
        assert _git(repo, "rev-list", "--count", row["base_commit"]).strip() == "1"
        for t in f2p:
            file, _, name = t.partition("::")
            assert f"def {name}(" not in _git(repo, "show", f"{row['base_commit']}:{file}")


def test_official_test_spec_and_image_name(sb_pack: Path) -> None:
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT
    from swebench.harness.test_spec.test_spec import make_test_spec

    inst = next(i for i in load_instances(str(sb_pack)) if i.instance_id == RESOLVES)
    assert inst.kind == "swebench"
    assert inst.row.image_name == "swebench/sweb.eval.x86_64.swerl-taskpack_1776_calc-median_even:latest"
    spec = make_test_spec(inst.row.model_dump(mode="json"), namespace="swebench")
    assert spec.instance_image_key == inst.row.image_name  # the harness and swerl agree on the image
    script = spec.eval_script
    assert START_TEST_OUTPUT in script and END_TEST_OUTPUT in script
    assert "python -m pytest -rA -p no:cacheprovider tests/test_stats.py" in script  # test directives from test_patch
    assert f"git checkout {inst.row.model_extra['base_commit']} tests/test_stats.py" in script


@pytest.fixture(scope="module")
def grader(bwrap_settings: Any, tmp_path_factory: pytest.TempPathFactory) -> SandboxGrader:
    from swerl.sandbox.bwrap import BwrapSandbox

    return SandboxGrader(BwrapSandbox(bwrap_settings), "run-test", tmp_path_factory.mktemp("grade"))


SAMPLE = ("swerl-taskpack__calc-median_even", "swerl-taskpack__calc-power_assoc_multi",
          "swerl-taskpack__textkit-slug_trailing_sep", "swerl-taskpack__ledger-money_round_half_even")


def _check_gold(instances: list[Any], grader: SandboxGrader) -> None:
    """F2P fail without the fix and pass with it; P2P pass with both - through swebench's eval script and parser."""
    for inst in instances:
        rec = grader.grade(inst, inst.row.patch, attempt=0, model_name="gold", patch_sha="gold")
        assert rec.outcome == "resolved", (inst.instance_id, rec)
        assert sorted(rec.fail_to_pass["success"]) == sorted(inst.row.FAIL_TO_PASS)
        assert sorted(rec.pass_to_pass["success"]) == sorted(inst.row.PASS_TO_PASS)


def test_gold_patches_resolve_and_no_fix_does_not(sb_pack: Path, grader: SandboxGrader) -> None:
    instances = [i for i in load_instances(str(sb_pack)) if i.instance_id in SAMPLE]  # one per repo, multi-file
    assert len(instances) == len(SAMPLE)
    _check_gold(instances, grader)
    for inst in instances[:2]:
        readme = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n"
        first = (Path(inst.repo_dir) / "README.md").read_text().splitlines()[0]
        rec = grader.grade(inst, f"{readme} {first}\n+more\n", attempt=0, model_name="m", patch_sha="readme")
        assert rec.patch_applied, rec
        assert rec.outcome == "unresolved"
        assert sorted(rec.fail_to_pass["failure"]) == sorted(inst.row.FAIL_TO_PASS)
        assert sorted(rec.pass_to_pass["success"]) == sorted(inst.row.PASS_TO_PASS)


@pytest.mark.slow
def test_every_gold_patch_resolves(sb_pack: Path, grader: SandboxGrader) -> None:
    _check_gold([i for i in load_instances(str(sb_pack)) if i.instance_id not in SAMPLE], grader)
