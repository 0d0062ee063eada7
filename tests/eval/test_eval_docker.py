"""End to end on docker: locally built instance images named like the official ones, the agent in the hardened
docker sandbox, and grading by swebench's own `run_evaluation.run_instance` in fresh containers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import EMPTY, RESOLVES, WRONG, options

from swerl.eval.runner import run_eval
from swerl.sandbox.schema import DockerSettings, SandboxSettings

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def docker_settings(dockerd: str) -> SandboxSettings:
    return SandboxSettings(backend="docker", command_timeout_s=30, rollout_timeout_s=60, memory_mb=512,
                           pids_limit=128, docker=DockerSettings(base_url=dockerd))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_official_harness_grades_agent_predictions(sb_pack: Path, docker_settings: SandboxSettings,
                                                   docker_client: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    rep = run_eval(options(out, sb_pack, [RESOLVES, WRONG, EMPTY], workers=2, backend="docker",
                           sandbox=docker_settings))
    assert {x.instance_id: (x.outcome, x.exit_status) for x in rep.instances} == {
        RESOLVES: ("resolved", "Submitted"), WRONG: ("unresolved", "Submitted"), EMPTY: ("empty_patch", "Submitted")}
    # the images the agent ran in carry the official names (built here: no registry)
    assert docker_client.images.get("swebench/sweb.eval.x86_64.swerl-taskpack_1776_calc-median_even:latest")
    grades = {g["instance_id"]: g for g in _lines(out / "grades.jsonl")}
    assert grades[RESOLVES]["grader"] == grades[WRONG]["grader"] == "official-docker"
    # swebench's own files, under this run's id: report.json, test_output.txt, run_instance.log, eval.sh
    log_dir = out / grades[RESOLVES]["log"]
    assert log_dir.parent.parent.name == f"{rep.run_id}_a0"
    harness_report = json.loads((log_dir / "report.json").read_text())[RESOLVES]
    assert harness_report["resolved"] is True and harness_report["patch_successfully_applied"] is True
    assert "tests/test_stats.py::test_median_even" in harness_report["tests_status"]["FAIL_TO_PASS"]["success"]
    assert (log_dir / "test_output.txt").exists() and (log_dir / "eval.sh").exists()
    # no grading container is left behind
    assert not [c for c in docker_client.containers.list(all=True) if c.name.startswith("sweb.eval.")]

    # grading the same predictions again (--grade-only, new run dir) runs the harness again under a new id:
    # the first run's cached report.json is never reused
    graded = run_eval(options(tmp_path / "regrade", sb_pack, None, grade_only=out / "preds.jsonl", backend="docker",
                              sandbox=docker_settings))
    assert graded.run_id != rep.run_id and graded.counts == rep.counts
    regrades = {g["instance_id"]: g for g in _lines(tmp_path / "regrade" / "grades.jsonl")}
    assert (tmp_path / "regrade" / regrades[RESOLVES]["log"] / "report.json").exists()


def test_patch_that_does_not_apply_is_an_error(sb_pack: Path, docker_settings: SandboxSettings,
                                               tmp_path: Path) -> None:
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"instance_id": WRONG, "model_name_or_path": "m", "model_patch":
                                 "diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n"})
                     + "\n")
    rep = run_eval(options(tmp_path / "run", sb_pack, None, grade_only=preds, backend="docker",
                           sandbox=docker_settings))
    assert rep.counts["error"] == 1 and rep.instances[0].error == "patch did not apply"


def test_swerl_grader_on_docker_runs_an_install_step(sb_pack: Path, sb_rows: list[dict[str, Any]],
                                                      docker_settings: SandboxSettings, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An official eval script that re-installs the project before the tests (most SWE-bench repos do), graded by
    swerl's own grader on docker: the step's leftovers are killed and wiped, then the honest fix resolves. (Killing
    the tests' uid once also ended docker's exec wrapper, and every such row was graded as the agent's fault.)"""
    from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS

    from swerl.eval import taskpack

    register = taskpack.register_swebench_specs

    def with_install(repo: str, version: str = taskpack.PACK_VERSION, **kw: Any) -> None:
        register(repo, version, **kw)
        MAP_REPO_VERSION_TO_SPECS[repo][version]["install"] = "python -c 'import calc'; (sleep 30 &); echo installed"

    monkeypatch.setattr(taskpack, "register_swebench_specs", with_install)
    gold = {r["instance_id"]: r["patch"] for r in sb_rows}
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"instance_id": i, "model_name_or_path": "m", "model_patch": p}) + "\n"
                             for i, p in ((RESOLVES, gold[RESOLVES]),)))
    rep = run_eval(options(tmp_path / "run", sb_pack, None, grade_only=preds, backend="docker", grader="sandbox",
                           sandbox=docker_settings))
    outcomes = {x.instance_id: (x.outcome, x.error) for x in rep.instances}
    assert outcomes == {RESOLVES: ("resolved", None)}, outcomes
    grades = {g["instance_id"]: g for g in _lines(tmp_path / "run" / "grades.jsonl")}
    assert grades[RESOLVES]["grader"] == "sandbox-docker", grades[RESOLVES]
