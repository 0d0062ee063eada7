"""Expert trajectories (`swerl data expert`): mini-swe-agent, unchanged, driven by a scripted solver.

SWE-smith keeps a strong model's resolved trajectories as SFT data; here the "expert" is a
mini-swe-agent `Model` class answering from a script, one text action per turn, in the real
hardened sandbox with real grading. Strategies (docs/data.md): `search` calls the agent
config's repair tool on the function the issue names first (a copy, never a deduction: what a
small model can learn), `fix` replays the row's `fix` column like a careful engineer.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from swerl.atomic import write_text_atomic
from swerl.errors import DataError, SwerlError
from swerl.log import get_logger
from swerl.rollout.agent import load_agent_yaml
from swerl.rollout.harness import harness_env

harness_env()  # before mini-swe-agent/litellm are imported: no remote price-list fetch, no banners
from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel  # noqa: E402

log = get_logger(__name__)

HARNESS = "swerl.data.expert:ExpertTextbasedModel"
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
STRATEGIES = ("search", "fix")

TOOL_VAR = "REPAIR"  # the search tool's program, defined by the agent config (recipes/agents/swe-tiny.yaml)
_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def statement_function(statement: str) -> str | None:
    """The function an issue report names first ("`div` gives a wrong result." -> "div")."""
    m = _NAME.search(statement or "")
    return m.group(1) if m else None


def search_script(function: str) -> list[str]:
    """The `search` strategy's answers: run the repair tool on `function` (copied from the issue), then submit."""
    return [f"THOUGHT: Run the repair tool on `{function}`.\n\n```mswea_bash_command\n"
            f'python3 -c "${TOOL_VAR}" {function}\n```',
            f"THOUGHT: Submit.\n\n```mswea_bash_command\n{SUBMIT}\n```"]


def sed_escape(old: str, new: str) -> tuple[str, str]:
    """BRE-escape `old` and escape `new` for `sed s/old/new/` inside single quotes."""
    pat = re.sub(r"([\\/.*\[\]^$&])", r"\\\1", old)
    rep = re.sub(r"([\\/&])", r"\\\1", new)
    return pat.replace("'", "'\\''"), rep.replace("'", "'\\''")


def _def_range(source: str, function: str, line: int) -> tuple[int, int]:
    """Line span of the function (qualified name) holding `line`; the line +-3 if it is not found."""
    tree = ast.parse(source)
    name = function.split(".")[-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name and node.lineno <= line <= (node.end_lineno or 0):
            return node.lineno, node.end_lineno or line
    return max(1, line - 3), line + 3


def expert_plan(row: dict[str, Any], buggy_source: str) -> dict[str, Any]:
    """What the expert needs for one task: the file, the function's span, the fix, the tests to run."""
    fix = row.get("fix")
    if not isinstance(fix, dict) or not {"file", "line", "old", "new"} <= set(fix):
        raise DataError(f"row {row.get('instance_id')!r}: field fix is missing (rows from `swerl data taskgen` "
                        "carry it)")
    start, end = _def_range(buggy_source, str(row.get("function", "")), int(fix["line"]))
    test_files = sorted({t.split("::")[0] for t in row["FAIL_TO_PASS"]})
    return {"file": fix["file"], "line": int(fix["line"]), "old": fix["old"], "new": fix["new"],
            "function": str(row.get("function", "")).split(".")[-1], "start": start, "end": end,
            "tests": test_files}


def script(plan: dict[str, Any]) -> list[str]:
    """The expert's answers, one mini-swe-agent text action each (THOUGHT, then one mswea_bash_command block)."""
    f, fn, ln = plan["file"], plan["function"], plan["line"]
    pkg = f.split("/")[0]
    old, new = sed_escape(plan["old"], plan["new"])

    def act(thought: str, cmd: str) -> str:
        return f"THOUGHT: {thought}\n\n```mswea_bash_command\n{cmd}\n```"

    return [
        act(f"The report points at `{fn}`. Let me find where it is defined.", f"grep -rn \"def {fn}\" {pkg}/"),
        act(f"Let me read `{fn}` in {f} with line numbers.", f"nl -ba {f} | sed -n '{plan['start']},{plan['end']}p'"),
        act(f"Line {ln} is wrong: `{plan['old'].strip()}` should be `{plan['new'].strip()}`. Fix it and show the line.",
            f"sed -i '{ln}s/{old}/{new}/' {f} && sed -n '{ln}p' {f}"),
        act("Now run the tests that exercise this code.", f"python -m pytest -q -p no:cacheprovider {' '.join(plan['tests'])}"),
        act("The tests pass. Submit.", SUBMIT),
    ]


class ExpertTextbasedModel(LitellmTextbasedModel):
    """A mini-swe-agent text-based model whose i-th answer is the scripted expert's i-th action (model config
    key `expert`: an `expert_plan`, or `{"strategy": "search", "function": ...}`); the rest is mini-swe-agent's."""

    def __init__(self, *, expert: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if not expert:
            raise SwerlError("ExpertTextbasedModel: needs the model config key `expert` (a plan)")
        self.answers = search_script(expert["function"]) if expert.get("strategy") == "search" else script(expert)
        super().__init__(**kwargs)

    def _query(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        import litellm

        turn = sum(1 for m in messages if m.get("role") == "assistant")
        text = self.answers[min(turn, len(self.answers) - 1)]
        return litellm.ModelResponse(model="swerl-expert", choices=[
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}])


def _row_plan(row: dict[str, Any], repo_dir: Path, strategy: str) -> dict[str, Any]:
    """The expert's plan for one row: the search strategy works from the issue text alone (as a model must), the
    others from the buggy file at the row's commit."""
    from swerl.tasks.taskpack import git

    if strategy == "search":
        function = statement_function(row.get("problem_statement", ""))
        if function is None:
            raise DataError(f"row {row['instance_id']!r}: the problem statement names no `function` "
                            "(the search strategy copies it from the issue)")
        return {"strategy": "search", "function": function}
    return expert_plan(row, git(repo_dir, "show", f"{row['instance_id']}:{row['fix']['file']}"))


def _record_grade(path: Path, instance_id: str, grade: Any, resolved: bool) -> None:
    """Write the grade into the saved trajectory, so a trajectory file alone says whether its patch resolved."""
    data = json.loads(path.read_text())
    data.setdefault("info", {}).setdefault("swerl", {})["grade"] = (
        grade.model_dump(mode="json", include={"resolved", "resolution", "fail_to_pass", "pass_to_pass"})
        if grade else None)
    data["info"]["swerl"]["resolved"] = resolved
    data["instance_id"] = instance_id
    write_text_atomic(path, json.dumps(data, indent=2, default=str))


def run_expert(tasks: Path, out: Path, *, limit: int | None = None, workers: int = 1, backend: str = "bwrap",
               rootfs: str = "auto", step_limit: int = 10, strategy: str = "search",
               agent_config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the expert on every row of `tasks` (a taskgen JSONL); write `OUT/<id>.traj.json` and `OUT/summary.json`.
    `agent_config`: mini-swe-agent-shaped overrides - the templates the model will be trained and evaluated with."""
    from pydantic import SecretStr

    from swerl.config import RolloutConfig
    from swerl.data.taskgen import load_rows, register_profiles
    from swerl.rollout.agent import run_agent
    from swerl.rollout.runner import load_sandbox
    from swerl.rollout.schema import ModelEndpoint, split_agent_config
    from swerl.sandbox.schema import SandboxSettings
    from swerl.sandbox.tasks import task_from_row

    if strategy not in STRATEGIES:
        raise DataError(f"--strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    if strategy == "search" and not (((agent_config or {}).get("environment") or {}).get("env") or {}).get(TOOL_VAR):
        raise DataError(f"--strategy search: the --agent-config must define the repair tool (environment.env."
                        f"{TOOL_VAR}, e.g. recipes/agents/swe-tiny.yaml)")
    rows = load_rows(tasks)[:limit]
    if not rows:
        raise DataError(f"--tasks {tasks}: no rows")
    register_profiles(rows)
    sandbox = load_sandbox(SandboxSettings(backend=backend, command_timeout_s=60, rollout_timeout_s=1200), rootfs)
    out.mkdir(parents=True, exist_ok=True)
    # the expert model scripts every reply (the endpoint is never called); the agent YAML's harness/step_limit
    # give way to the expert's model class and --step-limit
    _, agent = split_agent_config(agent_config or {}, RolloutConfig())
    endpoint = ModelEndpoint(base_url="http://127.0.0.1:9/v1", api_key=SecretStr("none"), model="swerl-expert",
                             rollout=RolloutConfig(harness=HARNESS, max_steps=step_limit, temperature=0.0),
                             timeout_s=60)

    def one(row: dict[str, Any]) -> dict[str, Any]:
        repo_dir = (tasks.parent / row["repo_dir"]).resolve()
        task = task_from_row(row, repo_dir=repo_dir)
        plan = _row_plan(row, repo_dir, strategy)
        path = out / f"{row['instance_id']}.traj.json"
        t0 = time.monotonic()
        cfg = copy.deepcopy(agent)
        cfg.setdefault("model", {})["expert"] = plan
        res = run_agent(task, sandbox=sandbox, endpoint=endpoint, output_path=path, agent_config=cfg)
        grade = sandbox.grade(task, res.patch) if res.submitted and res.patch else None
        resolved = bool(grade and grade.resolved)
        _record_grade(path, row["instance_id"], grade, resolved)
        return {"instance_id": row["instance_id"], "resolved": resolved, "exit_status": res.exit_status,
                "seconds": round(time.monotonic() - t0, 2), "error": res.error}

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(one, rows))
    summary = {"tasks": len(results), "resolved": sum(r["resolved"] for r in results), "strategy": strategy,
               "results": results}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    log.info("expert trajectories", out=str(out), tasks=summary["tasks"], resolved=summary["resolved"])
    return summary


__all__ = ["HARNESS", "STRATEGIES", "TOOL_VAR", "ExpertTextbasedModel", "expert_plan", "load_agent_yaml", "run_expert",
           "script", "search_script", "sed_escape", "statement_function"]
