"""Generated mini-swe-agent-like rollouts as gateway events, rendered with a real chat template.

Used by tests and `bench/assembly.py` to exercise assembly on realistic token
streams without a model: each call's prompt is the chat template applied to the
whole conversation so far and encoded (exactly what an OpenAI-compatible engine
does), and the "sampled" response is the response text's tokens plus `<|im_end|>`.

Knobs that make merging fail the way real traces do:

- `thinking`: responses start with a `<think>` block (a template that drops earlier
  reasoning then splits every turn);
- `drift_prob`: per turn, the response is sampled as a non-canonical tokenisation
  (one token split into two that decode to the same text), so the re-rendered
  history re-encodes differently;
- `context_edit_prob`: per turn, the harness shortens the oldest long observation;
- noisy tool output (tracebacks, long lines, unicode, ANSI colour codes) everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from swerl.models.corpus import diff_text, identifier, python_block, sentence, traceback_text
from swerl.models.templates import (  # the pieces QWEN_CHAT_TEMPLATE is made of
    _SYSTEM_AND_TOOLS,
    _TURN_END,
    _USER_TURN,
)

QWEN3_THINK_DROPPING_TEMPLATE: str = (
    _SYSTEM_AND_TOOLS
    + r"""
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
        {%- set ns.multi_step_tool = false %}
        {%- set ns.last_query_index = index %}
    {%- endif %}
{%- endfor %}"""
    + _USER_TURN
    + r"""        {%- set content = message.content or '' %}
        {%- set reasoning_content = '' %}
        {%- if '</think>' in content %}
            {%- set reasoning_content = content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') %}
            {%- set content = content.split('</think>')[-1].lstrip('\n') %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index and (loop.last or reasoning_content) %}
            {{- '<|im_start|>' + message.role + '\n<think>\n' + reasoning_content.strip('\n') + '\n</think>\n\n' + content.lstrip('\n') }}
        {%- else %}
            {{- '<|im_start|>' + message.role + '\n' + content }}
        {%- endif %}"""
    + _TURN_END
    + r"""
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %}
"""
).strip()
"""Qwen3-style: drops `<think>` blocks of assistant turns before the last user query."""

SYSTEM_PROMPT = (
    "You are a helpful assistant that can interact multiple times with a computer shell to solve "
    "programming tasks.\nYour response must contain exactly ONE bash code block with ONE command (or commands "
    "connected with && or ||).\nInclude a THOUGHT section before your command where you explain your reasoning "
    "process.\nFormat your response as shown in <format_example>.\n\n<format_example>\nTHOUGHT: Your reasoning "
    "and analysis here\n\n```bash\nyour_command_here\n```\n</format_example>\n\nFailure to follow these rules "
    "will cause your response to be rejected.\n"
)

_COMMANDS = ("ls -la", "cat {f}", "grep -rn '{i}' .", "sed -n '1,80p' {f}", "python -m pytest -q {f}",
             "python reproduce.py", "find . -name '*.py' | head -50", "sed -i 's/{i}/{j}/' {f}")
_NOISE = ("\x1b[31mERROR\x1b[0m ", "⚠ ", "café ", "日本語 ", "\t", "…", "→ ", "😀 ", "\\u00e9 ")


@dataclass
class TraceConfig:
    """Shape of generated rollouts (token counts are rough; they come from the real tokenizer)."""

    turns_min: int = 6
    turns_max: int = 20
    thinking: bool = False
    drift_prob: float = 0.0
    context_edit_prob: float = 0.0
    obs_lines_max: int = 60
    task_paragraphs: int = 4


def _observation(rng: random.Random, max_lines: int) -> str:
    kind = rng.random()
    if kind < 0.25:
        body = traceback_text(rng)
    elif kind < 0.5:
        body = "\n".join(python_block(rng) for _ in range(rng.randint(1, 4)))
    elif kind < 0.6:
        body = diff_text(rng)
    else:
        lines = []
        for _ in range(rng.randint(1, max_lines)):
            noise = rng.choice(_NOISE) if rng.random() < 0.2 else ""
            long = " ".join(identifier(rng) for _ in range(rng.randint(1, 30)))
            lines.append(f"{noise}{identifier(rng)}.py:{rng.randint(1, 999)}: {long}")
        body = "\n".join(lines)
    return f"<returncode>{rng.choice((0, 0, 0, 1, 2))}</returncode>\n<output>\n{body}\n</output>"


def _response(rng: random.Random, thinking: bool, last: bool) -> str:
    cmd = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" if last else rng.choice(_COMMANDS).format(
        f=f"src/{identifier(rng)}.py", i=identifier(rng), j=identifier(rng))
    thought = " ".join(sentence(rng) for _ in range(rng.randint(1, 5)))
    text = f"THOUGHT: {thought}\n\n```bash\n{cmd}\n```"
    if thinking:
        reasoning = "\n".join(sentence(rng) for _ in range(rng.randint(2, 12)))
        text = f"<think>\n{reasoning}\n</think>\n\n{text}"
    return text


def _non_canonical(tokenizer: Any, ids: list[int], rng: random.Random) -> list[int]:
    """Split one token into two vocabulary tokens with the same bytes (a sampled non-canonical path)."""
    vocab = tokenizer.get_vocab()
    candidates = list(range(len(ids)))
    rng.shuffle(candidates)
    for k in candidates:
        piece = tokenizer.convert_ids_to_tokens(ids[k])
        if piece is None or len(piece) < 2 or piece.startswith("<"):
            continue
        for cut in range(1, len(piece)):
            left, right = vocab.get(piece[:cut]), vocab.get(piece[cut:])
            if left is not None and right is not None:
                return [*ids[:k], left, right, *ids[k + 1:]]
    return ids


def make_rollout_events(
    tokenizer: Any,
    *,
    rollout_id: str,
    group_id: str,
    seed: int,
    config: TraceConfig | None = None,
    chat_template: str | None = None,
    reward: float | None = None,
    policy_version: int = 0,
) -> list[dict[str, Any]]:
    """Events (dicts, gateway schema) of one generated rollout; deterministic in `seed`."""
    cfg = config or TraceConfig()
    rng = random.Random(seed)
    im_end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    task = "\n\n".join(" ".join(sentence(rng) for _ in range(rng.randint(2, 6))) for _ in range(cfg.task_paragraphs))
    messages: list[dict[str, str]] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"<pr_description>\n{task}\n</pr_description>"},
    ]
    turns = rng.randint(cfg.turns_min, cfg.turns_max)
    events: list[dict[str, Any]] = []
    for t in range(turns):
        text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                             chat_template=chat_template)
        prompt = tokenizer.encode(text, add_special_tokens=False)
        reply = _response(rng, cfg.thinking, last=t == turns - 1)
        response = tokenizer.encode(reply, add_special_tokens=False)
        if rng.random() < cfg.drift_prob:
            response = _non_canonical(tokenizer, response, rng)
        response = [*response, im_end]
        logprobs = [round(-rng.random() * 2, 4) for _ in response]
        events.append({"kind": "model_request", "rollout_id": rollout_id, "group_id": group_id, "seq": t,
                       "policy_version": policy_version, "prompt_ids": prompt, "response_ids": response,
                       "response_logprobs": logprobs})
        messages.append({"role": "assistant", "content": reply})
        messages.append({"role": "user", "content": _observation(rng, cfg.obs_lines_max)})
        if rng.random() < cfg.context_edit_prob:
            for m in messages[3:-1:2]:  # observations already shown to the model, oldest first
                if len(m["content"]) > 200:
                    m["content"] = m["content"][:120] + "\n... (output truncated) ...\n</output>"
                    break
    if reward is not None:
        events.append({"kind": "reward", "rollout_id": rollout_id, "group_id": group_id, "seq": turns,
                       "value": reward})
    return events


__all__ = ["SYSTEM_PROMPT", "TraceConfig", "make_rollout_events"]
