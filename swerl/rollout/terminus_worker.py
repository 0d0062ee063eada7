"""Terminus-2 (harbor's agent, unchanged) in its own interpreter, its commands answered by the swerl process.

harbor needs Python >= 3.12 and swerl's .venv is 3.11, so Terminus-2 runs in `.venv-harbor`
(`scripts/setup-harbor.sh`) as `python terminus_worker.py`. This file imports harbor and the
standard library only, never swerl. Its harbor `Environment` (`BridgeEnvironment`) owns no
sandbox: every `exec`/`upload_file`/`download_file` is one JSON line to the parent
(`swerl.rollout.terminus`) on fd SWERL_TERMINUS_REQ, which runs it in the swerl sandbox
(bwrap: no network, no token) and answers on fd SWERL_TERMINUS_RESP. The model calls go
from here straight to the gateway's per-rollout proxy (litellm, chat completions), so the
gateway records each one. The first line on the response fd is the run's configuration; the
last request is `{"op": "done", ...}` with the outcome.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shlex
import sys
import traceback
from pathlib import Path
from typing import Any

from harbor.agents.terminus_2.terminus_2 import Terminus2
from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.models.agent.context import AgentContext

CONFIRM = "Are you sure you want to mark the task as complete?"
HELD_S_HEADER = "x-swerl-held-s"  # swerl.gateway.schema.HELD_S_HEADER (this file imports no swerl)


class Channel:
    """Request/response JSON lines over two inherited pipe fds (one request in flight: the agent is sequential)."""

    def __init__(self, req_fd: int, resp_fd: int) -> None:
        self.out = os.fdopen(req_fd, "w", buffering=1)
        self.inp = os.fdopen(resp_fd, "r")
        self.held_s: str | None = None  # the last held-time header a model answer carried, sent with each request

    def read(self) -> dict[str, Any]:
        line = self.inp.readline()
        if not line:
            raise RuntimeError("swerl parent closed the command channel")
        return json.loads(line)

    def call(self, req: dict[str, Any]) -> dict[str, Any]:
        if self.held_s is not None:  # the parent keeps the time budget without asking the gateway
            req = {**req, "held_s": self.held_s}
        self.out.write(json.dumps(req) + "\n")
        if req["op"] == "done":
            return {}
        resp = self.read()
        if "abort" in resp:  # the parent's time budget ran out or its sandbox failed: stop the agent now
            raise SystemExit(3)
        return resp


class BridgeEnvironment(BaseEnvironment):
    """A harbor environment whose commands run in the parent's swerl sandbox. `__init__` sets only what
    Terminus-2 reads (`default_user`, `session_id`, `trial_paths`, `logger`); compose, mounts, networks and
    resources are the sandbox's business, so harbor's validators of those are not run."""

    def __init__(self, channel: Channel, session_id: str) -> None:
        self.channel = channel
        self.session_id = session_id
        self.default_user = None
        self.trial_paths = None  # type: ignore[assignment]  # only read when terminal recording is on (it is off)
        self.logger = logging.getLogger("swerl.terminus.env")

    @staticmethod
    def type() -> str:
        return "swerl"

    def _validate_definition(self) -> None:
        """Nothing to validate: the sandbox is defined and started by swerl."""

    async def start(self, force_build: bool) -> None:
        """Started by the parent before this process."""

    async def stop(self, delete: bool) -> None:
        """Stopped by the parent after this process."""

    async def exec(self, command: str, cwd: str | None = None, env: dict[str, str] | None = None,
                   timeout_sec: int | None = None, user: str | int | None = None) -> ExecResult:
        if env:
            command = "".join(f"export {k}={shlex.quote(str(v))}; " for k, v in env.items()) + command
        r = self.channel.call({"op": "exec", "command": command, "cwd": cwd, "timeout": timeout_sec})
        return ExecResult(stdout=r.get("output", ""), stderr="", return_code=int(r.get("rc", 1)))

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        r = self.channel.call({"op": "upload", "src": str(source_path), "dest": target_path})
        if r.get("rc", 1) != 0:
            raise RuntimeError(f"upload {source_path} -> {target_path}: {r.get('output')}")

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        await self.upload_file(source_dir, target_dir)

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        r = self.channel.call({"op": "download", "src": source_path, "dest": str(target_path)})
        if r.get("rc", 1) != 0:
            raise RuntimeError(f"download {source_path} -> {target_path}: {r.get('output')}")

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        await self.download_file(source_dir, target_dir)


def watch_held_time(channel: Channel) -> None:
    """Keep the gateway's held-time header of every model answer (harbor calls `litellm.acompletion`; litellm
    keeps the HTTP headers on its response as `_response_headers`) for the next request to the parent."""
    import litellm

    inner = litellm.acompletion

    async def acompletion(*args: Any, **kw: Any) -> Any:
        response = await inner(*args, **kw)
        value = (getattr(response, "_response_headers", None) or {}).get(HELD_S_HEADER)
        if value is not None:
            channel.held_s = str(value)
        return response

    litellm.acompletion = acompletion


def make_agent(cfg: dict[str, Any]) -> Terminus2:
    """Terminus-2 against the gateway proxy (`openai/<model>` over chat completions); `cfg["terminus"]` holds
    Terminus-2's own keyword arguments (recipes/agents/terminus-2.yaml)."""
    llm_kwargs = {"max_tokens": cfg["max_tokens"], "timeout": cfg["timeout_s"], "api_key": cfg["api_key"],
                  "num_retries": 0}
    kwargs = dict(cfg.get("terminus") or {})
    return Terminus2(logs_dir=Path(cfg["logs_dir"]), model_name=f"openai/{cfg['model']}", api_base=cfg["api_base"],
                     temperature=cfg["temperature"], max_turns=cfg["max_turns"], llm_kwargs=llm_kwargs,
                     record_terminal_session=False, suppress_max_turns_warning=True, **kwargs)


def completed(agent: Terminus2) -> bool:
    """True when the agent confirmed `task_complete` (Terminus-2 asks once more; the second yes ends its loop).
    The loop also ends at `max_turns`, so a pending first yes alone is not a submission."""
    chat = getattr(agent, "_chat", None)
    msgs = list(getattr(chat, "messages", []) or [])
    users = [m for m in msgs if m.get("role") == "user"]
    return bool(getattr(agent, "_pending_completion", False) and users and CONFIRM in str(users[-1].get("content")))


async def run(cfg: dict[str, Any], channel: Channel) -> dict[str, Any]:
    agent = make_agent(cfg)
    env = BridgeEnvironment(channel, cfg.get("session_id", "swerl"))
    context = AgentContext()
    out: dict[str, Any] = {"exit_status": "Unknown"}
    try:
        await agent.setup(env)
        await agent.run(cfg["instruction"], env, context)
        out["exit_status"] = "Submitted" if completed(agent) else "LimitsExceeded"
    except Exception as exc:  # reported to the parent, which classifies it (agent vs infra)
        out["exit_status"] = type(exc).__name__
        out["error"] = f"{type(exc).__name__}: {exc}"[:4000]
        out["traceback"] = traceback.format_exc()[-4000:]
    meta = context.metadata or {}
    out |= {"n_episodes": int(meta.get("n_episodes", getattr(agent, "_n_episodes", 0))),
            "summarization_count": int(meta.get("summarization_count", 0)),
            "messages": list(getattr(getattr(agent, "_chat", None), "messages", []) or [])}
    return out


def main() -> int:
    logging.basicConfig(level=os.environ.get("SWERL_TERMINUS_LOG", "WARNING"), stream=sys.stderr)
    channel = Channel(int(os.environ["SWERL_TERMINUS_REQ"]), int(os.environ["SWERL_TERMINUS_RESP"]))
    cfg = channel.read()
    watch_held_time(channel)
    result = asyncio.run(run(cfg, channel))
    channel.call({"op": "done", "result": result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
