"""`swerl data taskgen`: generated tasks are real (tests verify F2P/P2P), deterministic, and split on unseen files."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.data.taskgen import FAMILIES, TaskgenParams, find_candidates, generate, load_rows, unique_fix
from swerl.errors import DataError
from swerl.tasks.taskpack import REPOS_DIR, git


def test_candidates_cover_every_family_over_the_bundled_repos() -> None:
    total = []
    for repo in sorted(p.name for p in REPOS_DIR.iterdir()):
        cands = find_candidates(repo, REPOS_DIR / repo, list(FAMILIES))
        for c in cands:
            text = (REPOS_DIR / repo / c.file).read_text()
            buggy = c.apply(text)
            assert buggy != text
            ast.parse(buggy)  # every edit is still valid Python: the tests, not the parser, must catch it
            assert not c.file.startswith("tests/")
        total += cands
    assert len(total) >= 400
    assert {c.family for c in total} == set(FAMILIES)
    assert len({c.repo for c in total}) >= 6


def test_unique_fix_is_the_smallest_unique_replacement() -> None:
    assert unique_fix("    return a - b\n", "    return a + b\n") == ("-", "+")
    assert unique_fix("        if len(c) < width:", "        if len(c) <= width:") == ("<", "<=")
    old, new = unique_fix("    return p[0] * q[1] + p[1] * q[1]", "    return p[0] * q[0] + p[1] * q[1]")
    line = "    return p[0] * q[1] + p[1] * q[1]"
    assert line.count(old) == 1 and line.replace(old, new) == "    return p[0] * q[0] + p[1] * q[1]"
    # overlapping look-alikes: `old` must not also match earlier (sed replaces the first match)
    line = "    return to_seconds(parts[0], parts[0], parts[2])"
    old, new = unique_fix(line, "    return to_seconds(parts[0], parts[1], parts[2])")
    assert line.index(old) == line.rindex(old)
    assert line.replace(old, new, 1) == "    return to_seconds(parts[0], parts[1], parts[2])"


PROGRESS: list[tuple[str, int, int]] = []


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tg") / "gen"
    generate(TaskgenParams(out=out, repos=["textkit"], test_frac=0.3, workers=2),
             progress=lambda *step: PROGRESS.append(step))
    return out


def test_verification_reports_each_candidate(gen: Path) -> None:
    """The progress bar moves while candidates are verified (the longest step), not only before and after it."""
    steps = [(done, total) for stage, done, total in PROGRESS if stage == "verify"]
    total = steps[0][1]
    assert total > 1 and [d for d, _ in steps] == list(range(total + 1)), steps


def _statuses(repo: Path, ref: str, work: Path) -> dict[str, str]:
    git(repo, "worktree", "add", "-q", "--detach", str(work), ref)
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-q", "-p", "no:cacheprovider", "tests"], cwd=work,
                         env=env, capture_output=True, text=True).stdout
    return {line.split()[1]: line.split()[0] for line in out.splitlines() if line.startswith(("PASSED", "FAILED"))}


def test_rows_are_swesmith_tasks_verified_by_running_tests(gen: Path, tmp_path: Path) -> None:
    rows = load_rows(gen / "tasks.jsonl")
    assert len(rows) >= 12 and len({r["family"] for r in rows}) >= 4
    repo = gen / "repos" / "textkit"
    branches = set(git(repo, "branch", "--format=%(refname:short)").split())
    clean = _statuses(repo, "main", tmp_path / "main")
    assert clean and set(clean.values()) == {"PASSED"}
    for i, r in enumerate(rows):
        assert r["instance_id"] in branches and r["repo"] == "swerl-taskgen/textkit"
        assert r["image_name"] == "swerl-taskgen/textkit:latest" and r["repo_dir"] == "repos/textkit"
        assert r["patch"] == git(repo, "diff", "--no-color", "main", r["instance_id"])
        assert set(r["FAIL_TO_PASS"]) | set(r["PASS_TO_PASS"]) == set(clean) and r["FAIL_TO_PASS"]
        # the fix column turns the buggy file back into the clean one
        buggy = git(repo, "show", f"{r['instance_id']}:{r['file']}").splitlines(keepends=True)
        line = buggy[r["fix"]["line"] - 1]
        assert line.count(r["fix"]["old"]) == 1
        buggy[r["fix"]["line"] - 1] = line.replace(r["fix"]["old"], r["fix"]["new"])
        assert "".join(buggy) == git(repo, "show", f"main:{r['file']}")
        # the statement reports the symptom, never the test or the fix
        stmt = r["problem_statement"]
        assert "```python" in stmt and "tests/" not in stmt
        assert not any(t.split("::")[1] in stmt for t in r["FAIL_TO_PASS"])
        if i < 4:  # F2P fail on the problem branch, P2P pass (and all pass on main, above)
            bug = _statuses(repo, r["instance_id"], tmp_path / f"b{i}")
            assert all(bug[t] == "FAILED" for t in r["FAIL_TO_PASS"]), r["instance_id"]
            assert all(bug[t] == "PASSED" for t in r["PASS_TO_PASS"]), r["instance_id"]


def test_split_holds_out_whole_files(gen: Path) -> None:
    report = json.loads((gen / "report.json").read_text())
    train, test = load_rows(gen / "train.jsonl"), load_rows(gen / "test.jsonl")
    assert train and test and len(train) + len(test) == report["kept"]
    assert {r["file"] for r in train}.isdisjoint({r["file"] for r in test})
    assert {f"textkit/{r['file']}" for r in test} == set(report["heldout_files"])
    assert all(r["split"] == "test" for r in test) and all(r["split"] == "train" for r in train)
    assert report["candidates"] == report["kept"] + sum(report["dropped"].values())


def test_generation_is_deterministic(gen: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    again = tmp_path / "again"
    monkeypatch.chdir(tmp_path)  # `--out` as users type it: relative (git runs inside the repos, elsewhere)
    generate(TaskgenParams(out=Path("again"), repos=["textkit"], test_frac=0.3, workers=1))
    assert (again / "tasks.jsonl").read_bytes() == (gen / "tasks.jsonl").read_bytes()

    def refs(p: Path) -> Any:
        return git(p / "repos" / "textkit", "for-each-ref", "--format=%(refname) %(objectname)")

    assert refs(again) == refs(gen)  # same commit ids: fixed identity and dates


def test_bad_flags_name_the_flag(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="--family: unknown nope"):
        generate(TaskgenParams(out=tmp_path / "x", families=["nope"]))
    res = CliRunner().invoke(app, ["data", "taskgen", "--out", str(tmp_path / "y"), "--repo", "nope"])
    assert res.exit_code != 0 and str(res.exception).startswith("--repo: unknown nope")
    res = CliRunner().invoke(app, ["data", "taskgen", "--out", str(tmp_path / "z"), "--test-frac", "1.5"])
    assert res.exit_code != 0 and str(res.exception).startswith("--test-frac:")


@pytest.fixture(scope="module")
def bwrap_sandbox() -> Any:
    from swerl.rollout.runner import load_sandbox
    from swerl.sandbox.schema import SandboxSettings

    return load_sandbox(SandboxSettings(backend="bwrap", command_timeout_s=60, rollout_timeout_s=120), "auto")


def test_rollout_task_source_finds_the_repo_and_grades_the_gold_fix(gen: Path, bwrap_sandbox: Any) -> None:
    """What `swerl train` does with `data.dataset: DIR/train.jsonl`: repo_dir resolved, graded by a pytest profile."""
    from swerl.rollout.tasks import TaskSource

    src = TaskSource(str(gen / "train.jsonl"), "train")
    iid = src.instance_ids[0]
    task = src.task(iid)
    assert task.repo_dir == (gen / "repos" / "textkit").resolve() and task.branch == iid
    gold = git(gen / "repos" / "textkit", "diff", "--no-color", iid, "main")
    grade = bwrap_sandbox.grade(task, gold)
    assert grade.resolved, (grade.error, grade.log_tail[-500:])
    assert set(grade.fail_to_pass.success) == set(task.FAIL_TO_PASS)
    assert not bwrap_sandbox.grade(task, "").resolved  # the bug is real: no fix, no reward


def test_expert_trajectories_are_real_graded_and_feed_sft(gen: Path, tmp_path: Path) -> None:
    """The search expert copies the issue's function into the config's repair tool; graded fresh; SFT reads it."""
    from swerl.data.expert import load_agent_yaml, run_expert, statement_function
    from swerl.train.sft import read_conversations

    cfg = load_agent_yaml(Path(__file__).resolve().parents[2] / "recipes" / "agents" / "swe-tiny.yaml")
    rows = load_rows(gen / "train.jsonl")[:2]
    name = statement_function(rows[1]["problem_statement"])
    assert name and f"`{name}`" in rows[1]["problem_statement"]
    # an issue that names a function the repo does not define: the tool finds nothing, the patch is empty
    lost = dict(rows[1], problem_statement=rows[1]["problem_statement"].replace(f"`{name}`", "`no_such_function`"))
    tasks = gen / "expert-case.jsonl"  # beside train.jsonl, so repo_dir stays valid
    tasks.write_text("".join(json.dumps(r) + "\n" for r in (rows[0], lost)))
    summary = run_expert(tasks, tmp_path / "expert", workers=1, agent_config=cfg, step_limit=3)
    assert [r["resolved"] for r in summary["results"]] == [True, False]
    traj = json.loads((tmp_path / "expert" / f"{rows[0]['instance_id']}.traj.json").read_text())
    assert traj["trajectory_format"].startswith("mini-swe-agent")
    assert "$REPAIR" in traj["messages"][0]["content"]  # the config's short system template, not mini-swe-agent's
    answers = [m["content"] for m in traj["messages"] if m["role"] == "assistant"]
    fn = statement_function(rows[0]["problem_statement"])
    assert len(answers) == 2 and f'python3 -c "$REPAIR" {fn}' in answers[0]
    assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in answers[1]
    observation = [m["content"] for m in traj["messages"] if m["role"] in ("user", "tool")][1]
    assert "fixed " in observation  # the tool's own report of the edit it kept
    assert traj["info"]["swerl"]["resolved"] is True and traj["info"]["swerl"]["grade"]["resolution"] == "RESOLVED_FULL"
    lost_traj = json.loads((tmp_path / "expert" / f"{rows[1]['instance_id']}.traj.json").read_text())
    assert "no function named 'no_such_function'" in json.dumps(lost_traj["messages"])
    _convs, counts = read_conversations([tmp_path / "expert"])
    assert counts["conversations"] == 1 and counts["skipped_unresolved"] == 1

    # the `fix` strategy (answers from the row's fix column, mini-swe-agent's own templates) also resolves
    one = gen / "expert-fix.jsonl"
    one.write_text(json.dumps(rows[0]) + "\n")
    fixed = run_expert(one, tmp_path / "expert-fix", workers=1, strategy="fix")
    assert fixed["resolved"] == 1
    with pytest.raises(DataError, match=r"environment\.env\.REPAIR"):
        run_expert(one, tmp_path / "x", strategy="search")  # no tool in mini-swe-agent's default config
    with pytest.raises(DataError, match="--strategy"):
        run_expert(one, tmp_path / "x", strategy="guess")
