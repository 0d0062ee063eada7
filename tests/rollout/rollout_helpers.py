"""Helpers for rollout tests: engines and gateways on loopback, the scripts the scripted engine plays."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

from scripted_engine import ScriptedEngine

from swerl.gateway.engines.openai_server import Generation
from swerl.gateway.server import ServerThread
from swerl.rollout.localgw import LocalGateway

ADMIN = "rollout-test-admin-token-0123456789"


def bash(cmd: str, thought: str = "next step") -> str:
    """One text-based action (mini-swe-agent's ```mswea_bash_command block)."""
    return f"THOUGHT: {thought}\n\n```mswea_bash_command\n{cmd}\n```"


SUBMIT = bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "the fix is done; submitting")
FIX_MEDIAN = "sed -i 's/(ordered\\[mid\\] + ordered\\[mid + 1\\])/(ordered[mid - 1] + ordered[mid])/' calc/stats.py"
WRONG_MEDIAN = "sed -i 's/(ordered\\[mid\\] + ordered\\[mid + 1\\]) \\/ 2/ordered[mid]/' calc/stats.py"
# A cheat: make the failing test pass by editing the test instead of the code.
CHEAT_MEDIAN = "sed -i 's/== 2.5/== 3.5/' tests/test_stats.py"

SOLVE_MEDIAN = [bash("cat calc/stats.py", "read the code"), bash(FIX_MEDIAN, "average the two middle values"),
                bash("python -m pytest -q tests/test_stats.py 2>&1 | tail -3", "check"), SUBMIT]
WRONG_FIX_MEDIAN = [bash(WRONG_MEDIAN, "take the upper middle"), SUBMIT]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HermesScriptedEngine(ScriptedEngine):
    """The scripted engine answering like vLLM with `--tool-call-parser hermes`: `<tool_call>{json}</tool_call>`
    in the generated text becomes OpenAI `tool_calls` (the token ids stay the generated ones)."""

    _CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)

    def chat_body(self, req: dict[str, Any], gen: Generation, prompt: list[int]) -> dict[str, Any]:
        body = super().chat_body(req, gen, prompt)
        msg = body["choices"][0]["message"]
        calls = [json.loads(m) for m in self._CALL.findall(msg["content"] or "")]
        if calls and req.get("tools"):
            msg["content"] = self._CALL.sub("", msg["content"]).strip() or None
            msg["tool_calls"] = [{"id": f"call_{len(prompt)}_{i}", "type": "function",
                                  "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                                 for i, c in enumerate(calls)]
            body["choices"][0]["finish_reason"] = "tool_calls"
        return body


def tool_call(cmd: str, thought: str = "next step") -> str:
    return f"{thought}\n<tool_call>\n{json.dumps({'name': 'bash', 'arguments': {'command': cmd}})}\n</tool_call>"


class Engines:
    """Engines served on loopback; all stopped at teardown."""

    def __init__(self, tok: Any) -> None:
        self.tok = tok
        self.servers: list[ServerThread] = []

    def serve(self, engine: Any, port: int = 0) -> str:
        srv = ServerThread(engine.app(), port=port).start()
        self.servers.append(srv)
        return srv.url

    def scripted(self, script: list[str], port: int = 0, cls: type = ScriptedEngine) -> tuple[Any, str]:
        eng = cls(self.tok, script)
        return eng, self.serve(eng, port)

    def stop(self) -> None:
        for s in self.servers:
            s.stop()


class Gateways:
    """Real gateways (the app in a uvicorn thread) with SQLite stores under the test's tmp dir."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.started: list[LocalGateway] = []

    def start(self, upstreams: list[str], **kw: Any) -> LocalGateway:
        kw.setdefault("retry_backoff_s", 0.01)
        kw.setdefault("retry_attempts", 2)
        gw = LocalGateway(self.tmp / f"gw{len(self.started)}.sqlite", upstreams, admin_token=ADMIN, **kw).start()
        self.started.append(gw)
        return gw

    def stop(self) -> None:
        for g in self.started:
            g.stop()


def events(gw: LocalGateway, rid: str, kind: str | None = None, include_json: bool = False) -> list[dict]:
    assert gw.client is not None
    return gw.client.events(rid, kinds=[kind] if kind else None, include_json=include_json)


def live_sandboxes() -> list[str]:
    """Handles started and not stopped in this process (swerl.sandbox.base tracks them for atexit)."""
    from swerl.sandbox import base

    with base._LIVE_LOCK:
        return list(base._LIVE)


class SlowScriptedEngine(ScriptedEngine):
    """The scripted engine taking `delay_s` per answer (keeps rollouts in flight for kill/restart tests)."""

    delay_s = 1.0

    def generate(self, prompt_ids: list[int], params: Any) -> Generation:
        import time

        time.sleep(self.delay_s)
        return super().generate(prompt_ids, params)


ROOT = Path(__file__).resolve().parents[2]


def swerl_argv(*args: str) -> list[str]:
    """`python -m swerl.rollout ...` (the worker/controller entry point) with this checkout importable."""
    import sys

    return [sys.executable, "-m", "swerl.rollout", *args]


def textbased_flags(timeout_s: int = 120) -> list[str]:
    return ["--set", "rollout.harness=mini-swe-agent-textbased", "--set", "model.path=scripted",
            "--set", "rollout.max_tokens=256", "--set", f"sandbox.rollout_timeout_s={timeout_s}"]
