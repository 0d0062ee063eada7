"""harbor's Terminus-2, unchanged, as a swerl harness (`rollout.harness: terminus-2`).

Real parts only: Terminus-2 from harbor 0.25.0 in .venv-harbor (scripts/setup-harbor.sh), its
commands run in a real bwrap sandbox (rootfs with tmux), its model calls go over loopback HTTP
to the real gateway, which records them; the "model" is `ExpertEngine` answering Terminus-2
JSON actions with the tiny tokenizer's real token ids. Grading runs in a fresh sandbox.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from terminus_expert import expert_answers, run_terminus_expert

from swerl.errors import ConfigError
from swerl.rollout.terminus import harbor_python, terminus_rootfs, terminus_settings, worker_config

MEDIAN = "swerl-taskpack__calc.median_even"


@pytest.fixture(scope="module")
def tok() -> Any:
    from swerl.models import build_tiny_tokenizer

    return build_tiny_tokenizer()


@pytest.fixture(scope="module")
def sandbox() -> Any:
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    return BwrapSandbox(SandboxSettings(command_timeout_s=30, rollout_timeout_s=180,
                                        bwrap=BwrapSettings(rootfs=terminus_rootfs())))


@pytest.fixture(scope="module")
def pack() -> dict[str, Any]:
    from swerl.sandbox.tasks import load_taskpack

    return load_taskpack()[1]


def test_settings_merge_and_reject_unknown_keys() -> None:
    s = terminus_settings({"terminus": {"proactive_summarization_threshold": 100}})
    assert s["terminus"]["parser_name"] == "json" and s["terminus"]["proactive_summarization_threshold"] == 100
    assert "{problem_statement}" in s["instruction"]
    with pytest.raises(ConfigError, match="unknown keys"):
        terminus_settings({"agent": {"step_limit": 3}})


def test_worker_gets_the_recipes_turn_limit_and_sampling(tmp_path: Path) -> None:
    """Terminus-2's `max_turns` is the recipe's `rollout.max_steps`, read from the endpoint's typed section (no
    default of its own), as are temperature and max_tokens."""
    from swerl.config import RolloutConfig
    from swerl.rollout.schema import ModelEndpoint
    from swerl.sandbox.schema import SandboxTask

    ep = ModelEndpoint(base_url="http://127.0.0.1:9/v1", rollout=RolloutConfig(max_steps=7, temperature=0.5,
                                                                                 max_tokens=99))
    task = SandboxTask(instance_id="t__x.1", repo="t/x", branch="bug", repo_dir=tmp_path)
    cfg = worker_config(task, "fix it", ep, terminus_settings(), tmp_path / "logs")
    assert (cfg["max_turns"], cfg["temperature"], cfg["max_tokens"]) == (7, 0.5, 99)
    assert worker_config(task, "", ModelEndpoint(base_url="u"), terminus_settings(), tmp_path)["max_turns"] == (
        RolloutConfig().max_steps)


def test_missing_harbor_interpreter_is_a_config_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SWERL_HARBOR_PYTHON", str(tmp_path / "nope"))
    with pytest.raises(ConfigError, match="setup-harbor"):
        harbor_python()


def test_harbor_is_installed_unchanged() -> None:
    """The worker's interpreter imports harbor's own Terminus2 (no swerl copy of it exists)."""
    import subprocess

    out = subprocess.run([str(harbor_python()), "-c", "import harbor, importlib.metadata as m; "
                          "from harbor.agents.terminus_2.terminus_2 import Terminus2; "
                          "print(m.version('harbor'), Terminus2.name())"], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0.25.0", "terminus-2"]


def test_expert_resolves_a_bundled_task_through_terminus_gateway_bwrap(tmp_path: Path, tok: Any, sandbox: Any,
                                                                      pack: dict[str, Any]) -> None:
    from swerl.rollout.localgw import LocalGateway
    from swerl.train.assembly import assemble

    task = pack[MEDIAN]
    res = run_terminus_expert(task, sandbox, tmp_path, tokenizer=tok)
    assert (res["resolved"], res["state"], res["exit_status"]) == (True, "succeeded", "Submitted")
    # five answers: read, patch, test, task_complete, and the confirmation Terminus-2 asks for
    assert res["calls"] == 5

    with LocalGateway(tmp_path / "expert.gateway.sqlite", []) as gw:
        assert gw.client is not None
        rid = "expert-" + MEDIAN
        calls = gw.client.events(rid, kinds=["model_request"], include_json=True)
        every = gw.client.events(rid, include_json=True)
    answers = expert_answers(task.row)
    # recorded token-exact: each response is the expert's answer in the tiny tokenizer plus end of turn
    assert [c["response_ids"] for c in calls] == [[*tok.encode(a, add_special_tokens=False), tok.eos_token_id]
                                                  for a in answers]
    assert all(c["http_status"] == 200 and c["error"] is None for c in calls)
    first = tok.decode(calls[0]["prompt_ids"])
    assert "keystrokes" in first and "git is disabled" in first  # Terminus-2's own prompt, swerl's instruction
    samples, stats = assemble(every, tokenizer=tok)
    assert stats.num_calls == 5 and stats.num_rollouts == 1
    assert stats.mean_samples_per_rollout == 1.0 and not any(stats.merge_failures.values())
    assert samples[0].reward == 1.0
    trajs = list(tmp_path.glob("*.traj.json"))
    assert trajs and "swr_" not in trajs[0].read_text()  # the rollout token is redacted


def test_expert_continues_after_terminus_summarises_its_context(tmp_path: Path, tok: Any, sandbox: Any,
                                                                 pack: dict[str, Any]) -> None:
    """A 4000-token context with harbor's proactive summarisation at 2000 free tokens: after the patch step
    Terminus-2 runs its three sub-agents (summary, questions, answers) and restarts its chat from a handoff.
    The task is still resolved; the recorded calls split into 4 samples, each split a `context_edit`."""
    from swerl.rollout.localgw import LocalGateway
    from swerl.train.assembly import assemble

    cfg = {"terminus": {"model_info": {"max_input_tokens": 4000, "max_output_tokens": 1024,
                                       "input_cost_per_token": 0.0, "output_cost_per_token": 0.0},
                        "proactive_summarization_threshold": 2000}}
    res = run_terminus_expert(pack[MEDIAN], sandbox, tmp_path, tokenizer=tok, agent_config=cfg)
    assert (res["resolved"], res["exit_status"]) == (True, "Submitted")
    assert res["calls"] == 8  # 5 actions + 3 summarisation sub-agent calls
    with LocalGateway(tmp_path / "expert.gateway.sqlite", []) as gw:
        assert gw.client is not None
        every = gw.client.events("expert-" + MEDIAN, include_json=True)
    _, stats = assemble(every, tokenizer=tok)
    assert stats.num_samples == 4
    assert {k: v for k, v in stats.merge_failures.items() if v} == {"context_edit": 3}


@pytest.mark.slow
def test_tiny_terminus_recipe_trains_two_updates(tmp_path: Path) -> None:
    """`swerl train --recipe tiny-terminus`: the real tiny model through Terminus-2, two updates, every call
    recorded token-exact (the embedded engine's tokens), merge statistics reported."""
    from swerl.config import load_recipe
    from swerl.train.loop import train
    from swerl.train.loop.metrics import read_metrics

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    run = tmp_path / "run"
    res = train(load_recipe("tiny-terminus", ["train.tensorboard=false"]), run)
    assert res.steps == 2
    lines = read_metrics(run / "metrics.jsonl")
    assert len(lines) == 2 and all(ln["train/rollouts"] >= 4 for ln in lines)
    assert all(ln["assembly/samples_per_rollout"] >= 1.0 for ln in lines)
    assert list((run / "trajectories").glob("*.traj.json"))
