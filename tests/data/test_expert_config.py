"""The swe-tiny agent config is one file shared by expert, RL and eval; the expert's actions copy the issue."""

from __future__ import annotations

import ast
from pathlib import Path
from unittest.mock import patch

import pytest
from pydantic import ValidationError

from swerl.config import RolloutConfig, load_recipe
from swerl.data.expert import TOOL_VAR, load_agent_yaml, search_script, statement_function
from swerl.errors import ConfigError
from swerl.rollout.schema import RolloutSettings, split_agent_config

AGENT_YAML = Path(__file__).resolve().parents[2] / "recipes" / "agents" / "swe-tiny.yaml"
HARD_YAML = AGENT_YAML.with_name("swe-tiny-hard.yaml")


def test_recipe_agent_config_reaches_the_rollout_settings() -> None:
    """The agent YAML reaches the harness as mini-swe-agent's config; the recipe's harness, step limit,
    `keep_rejected_replies` and `context_overflow` reach it typed, through the endpoint's `rollout`."""
    recipe = load_recipe("swe-tiny")
    assert recipe.rollout.agent_config == "agents/swe-tiny.yaml"  # resolved against recipes/
    settings = RolloutSettings.from_recipe(recipe)
    cfg = settings.agent_config
    assert cfg == load_agent_yaml(AGENT_YAML)
    r = settings.endpoint("http://127.0.0.1:9/v1", "k").rollout
    assert (r.harness, r.max_steps, r.keep_rejected_replies, r.context_overflow) == (
        "mini-swe-agent-textbased", recipe.rollout.max_steps, True, recipe.rollout.context_overflow)
    assert "$REPAIR" in cfg["agent"]["system_template"] and "{{task}}" in cfg["agent"]["instance_template"]
    ast.parse(cfg["environment"]["env"][TOOL_VAR])  # the tool's program is valid Python
    assert RolloutSettings.from_recipe(load_recipe("tiny")).agent_config == {}  # unset: mini-swe-agent's own


def test_bad_agent_config_names_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"rollout\.agent_config 'nope\.yaml': no such file"):
        load_recipe("swe-tiny", ["rollout.agent_config=nope.yaml"]).rollout.agent_config_data()
    bad = tmp_path / "list.yaml"
    bad.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_recipe("swe-tiny", [f"rollout.agent_config={bad}"]).rollout.agent_config_data()
    with pytest.raises(ConfigError, match=r"--agent-config .*missing\.yaml'?: no such file"):
        load_agent_yaml(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_agent_yaml(bad)


def test_expert_copies_the_function_the_issue_names() -> None:
    assert statement_function("`div` gives a wrong result.\n\n```python\nfrom calc.ops import div\n```") == "div"
    assert statement_function("Looks like `to_cents` is broken.") == "to_cents"
    assert statement_function("no names here") is None
    call, submit = search_script("to_cents")
    assert 'python3 -c "$REPAIR" to_cents\n```' in call and "`to_cents`" in call
    assert submit.endswith("```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")


def _run_tool(program: str, repo: Path, name: str, env: dict[str, str] | None = None) -> str:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})}
    p = subprocess.run([sys.executable, "-c", program, name], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_repair_tool_is_budgeted_in_test_runs_and_restores_the_file(tmp_path: Path) -> None:
    """The tool's answer depends on the code and the call only: a wall-clock deadline made the same greedy policy
    resolve 27 or 18 of 32 held-out tasks depending on machine load, and left the last failed candidate in the
    file when time ran out (a wrong patch, graded unresolved)."""
    program = load_agent_yaml(AGENT_YAML)["environment"]["env"][TOOL_VAR]
    assert "time.time" not in program and "MAX_RUNS = 200" in program
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "tests" / "test_mod.py").write_text(
        "from pkg.mod import grow, shout\n\n\ndef test_grow():\n    assert grow(1) == 2\n\n\n"
        "def test_shout():\n    assert shout('a') == 'A!'\n")
    buggy = "def grow(x):\n    return x - 1\n\n\ndef shout(s):\n    return s.lower() + '!'\n"
    (repo / "pkg" / "mod.py").write_text(buggy)
    # shout's bug (lower for upper) has no one-token fix: with 4 runs the search gives up and restores the file
    out = _run_tool(program.replace("MAX_RUNS = 200", "MAX_RUNS = 4"), repo, "grow")
    assert "no one-token fix found in 4 test runs" in out
    assert (repo / "pkg" / "mod.py").read_text() == buggy
    (repo / "pkg" / "mod.py").write_text(buggy.replace("s.lower()", "s.upper()"))
    out = _run_tool(program, repo, "grow")
    assert "fixed pkg/mod.py:2: return x - 1  ->  return x + 1" in out, out


def test_hard_variant_finds_the_fix_only_through_the_function_the_issue_names(tmp_path: Path) -> None:
    """swe-tiny-hard.yaml: the same program with REPAIR_FALLBACK=0. Called with a wrong name or none it finds
    nothing, even though the default tool fixes the same repo through the failing test's traceback; called with
    the issue's function it searches that function and what it calls (the bug sits in a helper)."""
    base, hard = load_agent_yaml(AGENT_YAML), load_agent_yaml(HARD_YAML)
    assert hard["environment"]["env"] == {**base["environment"]["env"], "REPAIR_FALLBACK": "0"}  # composed by base:
    assert hard["model"] == base["model"] and "searches function NAME" in hard["agent"]["system_template"]
    program = hard["environment"]["env"][TOOL_VAR]
    flags = {"REPAIR_FALLBACK": "0"}
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    buggy = ("def _step(x):\n    return x - 1\n\n\ndef grow(x):\n    return _step(x)\n\n\n"
             "def other(x):\n    return x * 1\n")
    (repo / "pkg" / "mod.py").write_text(buggy)
    (repo / "pkg" / "util.py").write_text("def helper(y):\n    return y\n")
    (repo / "tests" / "test_mod.py").write_text("from pkg.mod import grow\n\n\ndef test_grow():\n"
                                                "    assert grow(1) == 2\n")
    for wrong in ("helper", "nope", ""):
        out = _run_tool(program, repo, wrong, flags)
        assert "no one-token fix found" in out and "fixed" not in out, (wrong, out)
        assert (repo / "pkg" / "mod.py").read_text() == buggy
    assert "searching the modules of the failing tests" not in _run_tool(program, repo, "nope", flags)
    out = _run_tool(program, repo, "other", flags)  # same module, but grow's helper is not what `other` calls
    assert "no one-token fix found" in out, out
    assert "fixed pkg/mod.py:2" in _run_tool(program, repo, "nope")  # the default tool: traceback fallback
    (repo / "pkg" / "mod.py").write_text(buggy)
    out = _run_tool(program, repo, "grow", flags)
    assert "fixed pkg/mod.py:2: return x - 1  ->  return x + 1" in out, out


def test_repair_tool_searches_the_failing_tests_modules_first_in_bwrap(tmp_path: Path) -> None:
    """Where the tool runs: the bwrap sandbox's own Python and pytest. The first test run's log (tracebacks,
    failing test files) decides where to search; with a budget of 6 runs only a localised search reaches the
    bug in the package's last module. (A child leaving through os._exit without flushing wrote only the progress
    dots to the log there, so the search walked the package in file order.)"""
    import subprocess

    from swerl.sandbox.base import load_backend
    from swerl.sandbox.images import bwrap_settings
    from swerl.sandbox.schema import SandboxSettings, SandboxTask

    program = load_agent_yaml(AGENT_YAML)["environment"]["env"][TOOL_VAR].replace("MAX_RUNS = 200", "MAX_RUNS = 6")
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "a.py").write_text("def area(w, h):\n    return w * h + 0 * (w - h) + 1 - 1\n")  # many candidates
    (repo / "pkg" / "z.py").write_text("def grow(x):\n    return x - 1\n")
    (repo / "tests" / "test_a.py").write_text("from pkg.a import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n")
    (repo / "tests" / "test_z.py").write_text("from pkg.z import grow\n\n\ndef test_grow():\n    assert grow(1) == 2\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q", "-b", "bug"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "bug"], check=True)
    sandbox = load_backend(SandboxSettings(backend="bwrap", command_timeout_s=120, bwrap=bwrap_settings("auto"),
                                           env={TOOL_VAR: program}))
    task = SandboxTask(instance_id="t__pkg.grow", repo="t/pkg", branch="bug", repo_dir=repo)
    with sandbox.session(task) as handle:
        out = sandbox.exec(handle, f'python3 -c "${TOOL_VAR}" nope').output
    assert "fixed pkg/z.py:2: return x - 1  ->  return x + 1" in out, out


def test_agent_yaml_harness_and_step_limit_are_rollout_fields() -> None:
    """`--agent-config` may name `harness:` and `step_limit:` (docs/eval.md): they become the rollout section's
    fields (validated there), and the rest is the harness's own config; a recipe's section wins over its YAML."""
    base = RolloutConfig()
    yaml_data = {"harness": "pkg.mod:Model", "step_limit": 7, "agent": {"system_template": "s"}}
    rollout, agent = split_agent_config(yaml_data, base)
    assert (rollout.harness, rollout.max_steps, agent) == ("pkg.mod:Model", 7, {"agent": {"system_template": "s"}})
    assert rollout.model_dump(exclude={"harness", "max_steps"}) == base.model_dump(exclude={"harness", "max_steps"})
    assert split_agent_config({"harness": None, "model": {}}, base) == (base, {"model": {}})
    with pytest.raises(ValidationError):
        split_agent_config({"step_limit": 0}, base)
    recipe = load_recipe("tiny")
    with patch.object(RolloutConfig, "agent_config_data", return_value=yaml_data):
        settings = RolloutSettings.from_recipe(recipe)
    assert settings.rollout == recipe.rollout and settings.agent_config == {"agent": {"system_template": "s"}}
