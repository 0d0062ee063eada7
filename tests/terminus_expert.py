"""A scripted expert through Terminus-2: a token engine whose answers are Terminus-2 JSON actions that fix a task.

What `swerl data expert` is for mini-swe-agent, here for harbor's Terminus-2 (unchanged): the
"model" is `ExpertEngine`, a `TokenEngine` served on loopback behind the real gateway, whose
answer is the action after the last `[expert step N]` in its prompt (`expert_reply`), so it
also continues correctly after Terminus-2 summarised its context.
The answers are keystrokes for Terminus-2's tmux session: read the file, undo the task's bug
(the row's SWE-smith `patch`, base64 so no keystroke is special), run the failing tests, then
`task_complete` twice (Terminus-2 asks for a confirmation). Every call is recorded by the
gateway with the engine's token ids, so an expert run is also a token-exact trajectory.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from swerl.gateway.engines.openai_server import Generation, Sampling, TokenEngine

_FILE = re.compile(r"^diff --git a/(\S+) b/", re.MULTILINE)
MARK = "[expert step {}]"
_MARK = re.compile(r"\[expert step (\d+)\]")
# The openings of Terminus-2's three summarisation sub-agent prompts (summary, questions, answers).
SUBAGENT_PROMPTS = ("You are about to hand off your work to another AI agent",
                    "You are picking up work from a previous AI agent",
                    "The next agent has a few questions for you")


def action(step: int, analysis: str, plan: str, keystrokes: list[str], complete: bool = False,
           duration: float = 1.0) -> str:
    """One Terminus-2 JSON answer (its `terminus-json-plain` format); the plan carries `[expert step N]`, which
    tells the engine how far the expert got, also after Terminus-2 replaced its history with a summary."""
    return json.dumps({"analysis": analysis, "plan": f"{MARK.format(step)} {plan}",
                       "commands": [{"keystrokes": k, "duration": duration} for k in keystrokes],
                       "task_complete": complete}, indent=2)


def expert_answers(row: dict[str, Any]) -> list[str]:
    """The expert's answers for one task row (`patch`: the bug as SWE-smith stores it, `FAIL_TO_PASS`)."""
    files = _FILE.findall(row["patch"])
    if not files:
        raise ValueError(f"row {row.get('instance_id')!r}: its patch names no file")
    blob = base64.b64encode(row["patch"].encode()).decode()
    tests = sorted({t.split("::")[0] for t in row["FAIL_TO_PASS"]})
    return [
        action(1, "The report describes a bug; I have not looked at the code yet.", f"Read {files[0]}.",
               [f"head -n 60 {files[0]}\n"], duration=0.5),
        action(2, f"The bug is in {', '.join(files)}.", "Undo the faulty change with patch.",
               [f"echo {blob} | base64 -d | patch -p1 -R\n"], duration=1.0),
        action(3, "The fix is applied.", "Run the failing tests.",
               [f"python -m pytest -q -p no:cacheprovider {' '.join(tests)} 2>&1 | tail -n 3\n"], duration=5.0),
        action(4, "The tests pass.", "Mark the task complete.", [], complete=True),
        action(5, "The tests pass and the fix is in place.", "Confirm completion.", [], complete=True),
    ]


def expert_reply(script: list[str], prompt_text: str, user_header: str = "<|im_start|>user") -> str:
    """The expert's reply to a rendered prompt: the next step after the highest `[expert step N]` in it, or, to a
    summarisation sub-agent, plain text naming that step (so the agent after the handoff continues from it)."""
    done = max((int(m) for m in _MARK.findall(prompt_text)), default=0)
    last_user = prompt_text.rsplit(user_header, 1)[-1]
    if any(h in last_user for h in SUBAGENT_PROMPTS):
        return f"Progress so far: {MARK.format(done)} of the fix is done; continue with the next step."
    return script[min(done, len(script) - 1)]


class ExpertEngine(TokenEngine):
    """Answers `expert_reply(script, prompt)` tokenised by `tokenizer` (+ end of turn), with a fixed logprob
    pattern: stateless (the prompt says how far the expert got), so several rollouts can share it."""

    def __init__(self, tokenizer: Any, script: list[str], model_name: str = "swerl-expert") -> None:
        if not script:
            raise ValueError("script: needs at least one answer")
        super().__init__(tokenizer, model_name)
        self.script, self.eos_id = list(script), tokenizer.eos_token_id

    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation:
        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        ids = [*self.tokenizer.encode(expert_reply(self.script, text), add_special_tokens=False), self.eos_id]
        finish = "stop"
        if len(ids) > params.max_tokens:
            ids, finish = ids[:params.max_tokens], "length"
        return Generation(ids, [-0.03125 * (1 + j % 8) for j in range(len(ids))], finish)


def run_terminus_expert(task: Any, sandbox: Any, out: Path, *, tokenizer: Any, max_turns: int = 10,
                        max_tokens: int = 4096, agent_config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The expert on one `SandboxTask` through the real path: `ExpertEngine` on loopback, a gateway (SQLite
    `out/expert.gateway.sqlite`) recording every call, the runner with `rollout.harness: terminus-2` (sandbox,
    grading in a fresh sandbox, reward). Returns the outcome's summary; the trajectory is `out/<id>.traj.json`.
    `max_tokens` must hold the patch step (base64 is ~1 token per 1-2 characters in a small BPE): a reply cut
    there is re-asked by Terminus-2, and the expert would go on without the fix."""
    from swerl.config import RolloutConfig
    from swerl.gateway.server import ServerThread
    from swerl.rollout.localgw import LocalGateway
    from swerl.rollout.runner import Runner
    from swerl.rollout.schema import HARNESS_TERMINUS, RolloutSettings

    engine = ExpertEngine(tokenizer, expert_answers(task.row))
    srv = ServerThread(engine.app()).start()
    rid = "expert-" + re.sub(r"[^A-Za-z0-9_.-]", "-", task.instance_id)
    try:
        with LocalGateway(out / "expert.gateway.sqlite", [srv.url]) as gw:
            assert gw.client is not None
            gw.client.create_rollout(rid, group_id="expert", max_attempts=1,
                                     metadata={"instance_id": task.instance_id})
            limits = RolloutConfig(harness=HARNESS_TERMINUS, max_steps=max_turns, max_tokens=max_tokens,
                                   max_infra_retries=0)
            settings = RolloutSettings(rollout=limits, model="swerl-expert", trajectories_dir=out,
                                       agent_config=dict(agent_config or {}))
            outcome = Runner(gw.client, sandbox, lambda _iid: task, settings).run(rid)
            calls = gw.client.events(rid, kinds=["model_request"])
    finally:
        srv.stop()
    return {"instance_id": task.instance_id, "resolved": bool(outcome.resolved), "state": outcome.state,
            "exit_status": outcome.agent.exit_status if outcome.agent else None, "calls": len(calls),
            "error": outcome.error}


__all__ = ["ExpertEngine", "action", "expert_answers", "expert_reply", "run_terminus_expert"]
