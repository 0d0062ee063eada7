"""A scripted engine for end-to-end tests: answers from a list of assistant messages, with real token ids.

A tiny random model never solves a task, yet the end-to-end tests must see a reward of 1
through the real path (harness -> gateway -> engine -> sandbox). Its i-th answer is
`script[i]`, where i is the number of assistant turns already in the prompt (stateless, any
number of rollouts at once); token ids are `encode(reply) + [eos]` from a real tokenizer and
logprobs a fixed pattern, so everything the gateway records is checkable.
"""

from __future__ import annotations

from typing import Any

from swerl.gateway.engines.openai_server import Generation, Sampling, TokenEngine


def scripted_logprob(j: int) -> float:
    """The logprob reported for the j-th token of every answer."""
    return -0.03125 * (1 + j % 8)


class ScriptedEngine(TokenEngine):
    def __init__(self, tokenizer: Any, script: list[str], model_name: str = "scripted",
                 assistant_header: str = "<|im_start|>assistant") -> None:
        if not script:
            raise ValueError("script: needs at least one reply")
        super().__init__(tokenizer, model_name)
        self.script = list(script)
        self.header = assistant_header
        self.eos_id = tokenizer.eos_token_id

    def turn(self, prompt_ids: list[int]) -> int:
        """Assistant turns before this one (the prompt ends with one opened for the answer)."""
        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        return max(0, text.count(self.header) - 1)

    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation:
        reply = self.script[min(self.turn(prompt_ids), len(self.script) - 1)]
        ids = [*self.tokenizer.encode(reply, add_special_tokens=False), self.eos_id]
        finish = "stop"
        if len(ids) > params.max_tokens:
            ids, finish = ids[:params.max_tokens], "length"
        return Generation(ids, [scripted_logprob(j) for j in range(len(ids))], finish)
