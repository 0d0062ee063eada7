"""mini-swe-agent 2.4.6's DefaultAgent, unchanged, running against the swerl Environment adapter."""

from __future__ import annotations

from typing import Any

import pytest

from swerl.sandbox.minisweagent_env import SwerlEnvironment
from swerl.sandbox.schema import SandboxTask

FIX = "sed -i 's/ordered\\[mid\\] + ordered\\[mid + 1\\]/ordered[mid - 1] + ordered[mid]/' calc/stats.py"
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"


def _agent(env: SwerlEnvironment, commands: list[str]) -> Any:
    from minisweagent.agents.default import DefaultAgent
    from minisweagent.models.test_models import DeterministicModel, make_output

    model = DeterministicModel(outputs=[make_output(f"step {i}", [{"command": c}]) for i, c in enumerate(commands)])
    return DefaultAgent(model, env, system_template="You fix bugs.", instance_template="{{task}}", step_limit=20,
                        cost_limit=0)


@pytest.mark.parametrize("backend", ["bwrap", pytest.param("docker", marks=pytest.mark.docker)])
def test_default_agent_fixes_and_submits_a_host_side_patch(backend: str, request: pytest.FixtureRequest,
                                                           calc_task: tuple[Any, SandboxTask]) -> None:
    sandbox = request.getfixturevalue(f"{backend}_sandbox")
    _, task = calc_task
    with sandbox.session(task) as handle:
        env = SwerlEnvironment(sandbox=sandbox, handle=handle, timeout=30)
        agent = _agent(env, ["sed -n 15,22p calc/stats.py", "git log --all", FIX,
                             "printf 'import pytest\\n' > conftest.py", SUBMIT])
        result = agent.run("median() of an even number of values is wrong")
    observations = [m["content"] for m in agent.messages if m.get("role") == "user"][1:]
    assert result["exit_status"] == "Submitted", (result, agent.messages[-3:])
    assert "git is disabled" in observations[1], observations
    patch = result["submission"]
    assert "calc/stats.py" in patch and "conftest.py" not in patch
    assert [d["path"] for d in result["dropped"]] == ["conftest.py"]
    assert env.submission is not None and env.submission.patch == patch
    graded = sandbox.grade(task, patch)
    assert graded.resolved, graded.model_dump(exclude={"tests"})
    assert "serialize" not in env.serialize()["info"]["config"]["environment"]
    assert env.get_template_vars()["cwd"] == "/testbed"


def test_command_timeout_and_rollout_deadline_end_the_run_cleanly(bwrap_sandbox: Any,
                                                                 calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    short = type(bwrap_sandbox)(bwrap_sandbox.settings.model_copy(update={"rollout_timeout_s": 3.0}))
    with short.session(task) as handle:
        env = SwerlEnvironment(sandbox=short, handle=handle, timeout=1)
        out = env.execute({"command": "sleep 10"})
        assert out["returncode"] != 0 and "timed out" in out["exception_info"]
        agent = _agent(env, ["sleep 10", "sleep 10", "sleep 10", "echo never"])
        result = agent.run("t")
    assert result["exit_status"] == "TimeExceeded"


def test_environment_env_is_exported_for_every_command(bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    """`environment.env` (mini-swe-agent's key): each command sees the variables, quotes and newlines intact."""
    _, task = calc_task
    program = "import sys\nprint('it''s', sys.argv[1], \"$HOME\")"  # quotes, a newline, a `$` that must stay
    with bwrap_sandbox.session(task) as handle:
        env = SwerlEnvironment(sandbox=bwrap_sandbox, handle=handle, timeout=30, env={"TOOL": program, "GREETING": "a b"})
        out = env.execute({"command": 'python3 -c "$TOOL" x && echo "$GREETING"'})
        plain = SwerlEnvironment(sandbox=bwrap_sandbox, handle=handle, timeout=30)
        unset = plain.execute({"command": 'echo "[${TOOL:-unset}]"'})
    assert out["returncode"] == 0, out
    assert out["output"].splitlines() == ["its x $HOME", "a b"]
    assert unset["output"].strip() == "[unset]"  # exported per command, nothing persists in the sandbox
    with pytest.raises(ValueError, match="not a shell variable name"):
        SwerlEnvironment(sandbox=bwrap_sandbox, handle=handle, env={"BAD-NAME": "x"})
