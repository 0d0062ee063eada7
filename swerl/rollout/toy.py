"""The toy harness: a two-turn tool-use task that a tiny random-init model can learn on CPU.

Turn 1 the agent must run the tool (`toy.tool_word`) and gets the task's secret digit back; turn
2 it must answer that digit (reward 1). Learning means calling the tool *and* copying its output,
i.e. real multi-turn credit assignment. Each turn samples one token restricted to the tool word
and digits (`allowed_token_ids`); the gateway records the full-vocabulary log-prob, so the
trainer's ratios stay consistent. `delay_s`/`delay_sigma` add a log-normal environment time (the
long tail of real rollouts).
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import httpx

from swerl.config import ToyConfig
from swerl.errors import ConfigError
from swerl.rollout.runner import Attempt, AttemptContext

# Short on purpose: at random init attention is spread evenly over the context, so the fewer
# tokens around the secret, the stronger the signal to copy it (half the prompt: ~2x faster learning).
SYSTEM = "Run {tool}."
QUESTION = "secret?"


def toy_tasks(cfg: ToyConfig, split: str, seed: int) -> list[dict[str, Any]]:
    """Deterministic tasks: `{"id", "secret"}`; the val split uses its own ids and draws."""
    n = cfg.train_tasks if split == "train" else cfg.val_tasks
    rng = random.Random(f"toy-{split}-{seed}")
    return [{"id": f"toy-{split}-{i:05d}", "secret": str(rng.randrange(cfg.secrets))} for i in range(n)]


def single_token_ids(tokenizer: Any, words: list[str]) -> list[int]:
    """Ids of words that must each be exactly one token of `tokenizer` (a ConfigError names the one that is not)."""
    ids = []
    for w in words:
        enc = tokenizer.encode(w, add_special_tokens=False)
        if len(enc) != 1:
            raise ConfigError(f"toy.tool_word / digits: {w!r} is {len(enc)} tokens in this tokenizer; "
                              "the toy needs single-token words (try toy.tool_word=cat)")
        ids.append(int(enc[0]))
    return ids


def _seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:7], "little")


class _Infra(Exception):
    """Not the agent's doing: the model call failed, or the runner is stopping (the attempt ends at a turn)."""


class ToyHarness:
    """Thread-safe; one shared HTTP client (creating one per rollout costs ~20 ms of TLS setup).
    `tasks` maps a task id to `{"id", "secret"}` (`toy_tasks`)."""

    name = "toy"

    def __init__(self, cfg: ToyConfig, tokenizer: Any, tasks: list[dict[str, Any]], *, model: str = "policy",
                 timeout_s: float = 600.0) -> None:
        self.cfg = cfg
        self.words = [cfg.tool_word] + [str(i) for i in range(cfg.secrets)]
        self.allowed = single_token_ids(tokenizer, self.words)
        self.tasks = {t["id"]: t for t in tasks}
        self.model = model
        self.http = httpx.Client(timeout=httpx.Timeout(timeout_s, connect=10.0))

    def close(self) -> None:
        self.http.close()

    def _call(self, ctx: AttemptContext, messages: list[dict[str, str]], turn: int) -> str:
        if ctx.stop.is_set():
            raise _Infra(f"rollout {ctx.rollout_id}: stopping")
        body = {"model": self.model, "messages": messages, "max_tokens": 1,
                "temperature": ctx.endpoint.rollout.temperature,
                "seed": _seed(ctx.seed, ctx.attempt, turn) & ((1 << 31) - 1),
                "allowed_token_ids": self.allowed}
        try:
            r = self.http.post(f"{ctx.endpoint.base_url}/chat/completions", json=body,
                               headers={"Authorization": f"Bearer {ctx.endpoint.api_key.get_secret_value()}"})
        except httpx.HTTPError as exc:
            raise _Infra(f"toy: gateway unreachable: {exc!r}") from exc
        if r.status_code != 200:
            raise _Infra(f"toy: model call failed with HTTP {r.status_code}: {r.text[:200]}")
        return (r.json()["choices"][0]["message"].get("content") or "").strip()

    def _delay(self, ctx: AttemptContext) -> None:
        if self.cfg.delay_s <= 0:
            return
        rng = random.Random(_seed(ctx.seed, ctx.attempt, "delay"))
        ctx.stop.wait(self.cfg.delay_s * math.exp(self.cfg.delay_sigma * rng.gauss(0.0, 1.0)))

    def run(self, ctx: AttemptContext) -> Attempt:
        secret = str(self.tasks[ctx.instance_id]["secret"])
        messages = [{"role": "system", "content": SYSTEM.format(tool=self.cfg.tool_word)},
                    {"role": "user", "content": QUESTION}]
        try:
            self._delay(ctx)
            first = self._call(ctx, messages, 1)
            called = first == self.cfg.tool_word
            answer = first
            if called:
                messages += [{"role": "assistant", "content": first}, {"role": "tool", "content": secret}]
                answer = self._call(ctx, messages, 2)
        except _Infra as exc:
            return Attempt(None, "failed_infra", error=str(exc))
        reward = float(called and answer == secret)
        return Attempt(None, "succeeded", reward=reward, resolved=bool(reward),
                       data={"called_tool": called, "answer": answer, "secret": secret})


__all__ = ["ToyHarness", "single_token_ids", "toy_tasks"]
