"""A scripted expert through Terminus-2: a token engine whose answers are Terminus-2 JSON actions that fix a task.

What `swerl data expert` is for mini-swe-agent, here for harbor's Terminus-2 (unchanged): the
"model" is `ExpertEngine`, a `TokenEngine` served on loopback behind the real gateway, whose
i-th answer (i = assistant turns already in the prompt) is the i-th action of `expert_answers`.
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


def action(analysis: str, plan: str, keystrokes: list[str], complete: bool = False, duration: float = 1.0) -> str:
    """One Terminus-2 JSON answer (its `terminus-json-plain` format)."""
    return json.dumps({"analysis": analysis, "plan": plan,
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
        action("The report describes a bug; I have not looked at the code yet.", f"Read {files[0]}.",
               [f"head -n 60 {files[0]}\n"], duration=0.5),
        action(f"The bug is in {', '.join(files)}.", "Undo the faulty change with patch.",
               [f"echo {blob} | base64 -d | patch -p1 -R\n"], duration=1.0),
        action("The fix is applied.", "Run the failing tests.",
               [f"python -m pytest -q -p no:cacheprovider {' '.join(tests)} 2>&1 | tail -n 3\n"], duration=5.0),
        action("The tests pass.", "Mark the task complete.", [], complete=True),
        action("The tests pass and the fix is in place.", "Confirm completion.", [], complete=True),
    ]


class ExpertEngine(TokenEngine):
    """Answers `script[i]` for the i-th assistant turn, tokenised by `tokenizer` (+ end of turn), with a fixed
    logprob pattern: stateless, so several rollouts of the same task can share it."""

    def __init__(self, tokenizer: Any, script: list[str], model_name: str = "swerl-expert",
                 assistant_header: str = "<|im_start|>assistant") -> None:
        if not script:
            raise ValueError("script: needs at least one answer")
        super().__init__(tokenizer, model_name)
        self.script, self.header, self.eos_id = list(script), assistant_header, tokenizer.eos_token_id

    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation:
        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        turn = max(0, text.count(self.header) - 1)
        ids = [*self.tokenizer.encode(self.script[min(turn, len(self.script) - 1)], add_special_tokens=False),
               self.eos_id]
        finish = "stop"
        if len(ids) > params.max_tokens:
            ids, finish = ids[:params.max_tokens], "length"
        return Generation(ids, [-0.03125 * (1 + j % 8) for j in range(len(ids))], finish)


def run_terminus_expert(task: Any, sandbox: Any, out: Path, *, tokenizer: Any, max_turns: int = 10,
                        max_tokens: int = 1024) -> dict[str, Any]:
    """The expert on one `SandboxTask` through the real path: `ExpertEngine` on loopback, a gateway (SQLite
    `out/expert.gateway.sqlite`) recording every call, the runner with `rollout.harness: terminus-2` (sandbox,
    grading in a fresh sandbox, reward). Returns the outcome's summary; the trajectory is `out/<id>.traj.json`."""
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
            settings = RolloutSettings(harness=HARNESS_TERMINUS, step_limit=max_turns, model="swerl-expert",
                                       max_tokens=max_tokens, max_infra_retries=0, trajectories_dir=out)
            outcome = Runner(gw.client, sandbox, lambda _iid: task, settings).run(rid)
            calls = gw.client.events(rid, kinds=["model_request"])
    finally:
        srv.stop()
    return {"instance_id": task.instance_id, "resolved": bool(outcome.resolved), "state": outcome.state,
            "exit_status": outcome.agent.exit_status if outcome.agent else None, "calls": len(calls),
            "error": outcome.error}


__all__ = ["ExpertEngine", "action", "expert_answers", "run_terminus_expert"]
