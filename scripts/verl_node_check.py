"""One short run of the verl backend on a GPU node with verl + vLLM: start, rollout round trip, update, weight sync.

    python scripts/verl_node_check.py --out DIR [--gpus N] [--sao] [--no-rollout]

A random-init small Qwen3 model (no hub access), `VerlBackend.start()`, tool-calling chat completions
(mini-swe-agent's `tools=[bash]`) against every replica turned into `Sample`s, release -> update -> a throughput update on long synthetic
samples -> `sync_weights(1)`; DIR/node_check.json holds timings, tokens/s, GPU memory, metrics and
pass/fail per stage (docs/verl.md). Exit status 0 only if every stage passed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from swerl.log import configure, get_logger

log = get_logger("swerl.node_check")


def build_model(out: Path, *, hidden: int = 256, layers: int = 4, heads: int = 4, seed: int = 0) -> tuple[Path, Any]:
    """Random-init Qwen3 causal LM + tiny BPE tokenizer saved as a Hugging Face directory."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    from swerl.models import build_tiny_tokenizer

    tok = build_tiny_tokenizer(out / "tokenizer-cache")
    cfg = Qwen3Config(vocab_size=-(-len(tok) // 64) * 64, hidden_size=hidden, intermediate_size=3 * hidden,
                      num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=heads,
                      head_dim=hidden // heads, max_position_embeddings=8192, tie_word_embeddings=False,
                      eos_token_id=tok.convert_tokens_to_ids("<|im_end|>"),
                      pad_token_id=tok.convert_tokens_to_ids("<|endoftext|>"), architectures=["Qwen3ForCausalLM"])
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(cfg).to(torch.bfloat16)
    path = out / "model"
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path, tok


def check_recipe(gpus: int, sao: bool, gpu_gib: float) -> Any:
    """The qwen9b(-sao) recipe shrunk to the small model and one node of `gpus` GPUs."""
    from swerl.config import load_recipe

    sets = [f"verl.gpus_per_node={gpus}", "verl.nnodes=1", f"verl.gpu_memory_gb={gpu_gib:.0f}", "verl.ulysses_sp=1",
            "verl.max_token_len_per_gpu=4096", "verl.rollout_gpu_memory_utilization=0.3", "verl.optimizer_offload=false",
            "model.max_context=2048", "model.hidden_size=256", "model.num_layers=4", "model.vocab_size=8192",
            "rollout.max_tokens=128", "rollout.n_per_task=4", "train.rollouts_per_step=16", "train.lr=1e-5",
            "verl.overrides=[actor_rollout_ref.rollout.enforce_eager=true,actor_rollout_ref.rollout.max_num_seqs=64,"
            "actor_rollout_ref.rollout.max_num_batched_tokens=4096]", "verl.params_b=null"]
    if sao:  # one warm-up step, so the second update trains policy and critic
        sets.append("algorithm.critic_warmup_steps=1")
    return load_recipe("qwen9b-sao" if sao else "qwen9b", sets)


BASH_TOOL = {"type": "function", "function": {
    "name": "bash", "description": "Execute a bash command",
    "parameters": {"type": "object", "properties": {"command": {"type": "string",
                                                                "description": "The bash command to execute"}},
                   "required": ["command"]}}}
"""mini-swe-agent's tool (`minisweagent.models.utils.actions_toolcall.BASH_TOOL`, kept equal by a test): the
node check sends what the recipe's harness sends, so an engine launched without tool calling fails here."""


def tool_call_body(model: str, t: int, k: int) -> dict[str, Any]:
    """A chat request as tool-calling mini-swe-agent makes it: `tools=[bash]`, `tool_choice: auto`, and on
    odd `k` a history holding an earlier tool call and its result (the chat template renders both)."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": f"Task {t}: list the files."}]
    if k % 2:
        messages += [{"role": "assistant", "content": "", "tool_calls": [
                         {"id": f"call_{t}_{k}", "type": "function",
                          "function": {"name": "bash", "arguments": json.dumps({"command": "ls"})}}]},
                     {"role": "tool", "tool_call_id": f"call_{t}_{k}", "content": "README.md\nsetup.py"}]
    return {"model": model, "messages": messages, "tools": [BASH_TOOL], "tool_choice": "auto",
            "max_tokens": 48, "temperature": 1.0, "logprobs": True, "return_token_ids": True}


def chat_samples(urls: list[str], tok: Any, *, tasks: int = 4, per_task: int = 4, seed: int = 0,
                 report: dict[str, Any] | None = None) -> list[Any]:
    """One tool-calling chat completion per rollout against the replicas (round robin), recorded like the
    gateway does. `report["tool_calls_parsed"]` counts answers the engine's tool parser turned into calls
    (a random-init model rarely writes one; the check is that tool requests are served at all)."""
    import httpx

    from swerl.train.schema import Sample

    rng = np.random.default_rng(seed)
    out = []
    parsed = 0
    with httpx.Client(timeout=120) as client:
        model = client.get(f"{urls[0]}/models").json()["data"][0]["id"]  # urls end in /v1
        for t in range(tasks):
            for k in range(per_task):
                url = urls[(t * per_task + k) % len(urls)]
                resp = client.post(f"{url}/chat/completions", json=tool_call_body(model, t, k))
                if resp.status_code != 200:
                    raise RuntimeError(f"replica {url}: a tools request got {resp.status_code}: {resp.text[:300]}")
                js = resp.json()
                parsed += len(js["choices"][0]["message"].get("tool_calls") or [])
                prompt, choice = js["prompt_token_ids"], js["choices"][0]
                ids, lps = choice["token_ids"], [x["logprob"] for x in choice["logprobs"]["content"]]
                if len(ids) != len(lps) or not ids:
                    raise RuntimeError(f"replica {url}: {len(ids)} token ids but {len(lps)} logprobs")
                mask = np.r_[np.zeros(len(prompt), np.int8), np.ones(len(ids), np.int8)]
                out.append(Sample(input_ids=np.r_[prompt, ids], loss_mask=mask,
                                  rollout_logprobs=np.r_[np.zeros(len(prompt)), lps].astype(np.float32),
                                  rollout_id=f"t{t}.{k}", group_id=f"t{t}", sample_index=0,
                                  reward=float(rng.integers(0, 2)), policy_versions=[0]))
    if report is not None:
        report["tool_calls_parsed"] = report.get("tool_calls_parsed", 0) + parsed
    return out


def long_samples(vocab: int, *, rollouts: int = 32, tokens: int = 1024, seed: int = 1) -> list[Any]:
    """Synthetic multi-turn rollouts (2 samples each, alternating action/observation spans) for throughput."""
    from swerl.train.schema import Sample

    rng = np.random.default_rng(seed)
    out = []
    for r in range(rollouts):
        reward = float(r % 2)
        for j in range(2):
            mask = np.zeros(tokens, np.int8)
            for start in range(tokens // 4, tokens, 128):
                mask[start:start + 64] = 1
            out.append(Sample(input_ids=rng.integers(0, vocab - 64, tokens), loss_mask=mask,
                              rollout_logprobs=np.where(mask > 0, -2.0 - rng.random(tokens), 0.0).astype(np.float32),
                              rollout_id=f"long{r}", group_id=f"lg{r // 4}", sample_index=j, reward=reward,
                              policy_versions=[0]))
    return out


def nvidia_smi_used_mib() -> list[int]:
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                           capture_output=True, text=True, timeout=30, check=True)
        return [int(x) for x in q.stdout.split()]
    except (OSError, subprocess.SubprocessError, ValueError):
        return []


def run(report: dict[str, Any], out: Path, gpus: int, sao: bool, with_rollout: bool) -> None:
    """Run the stages, filling `report` as they go (so a failure still leaves what was measured)."""
    import torch

    from swerl.train.advantage import compute_advantages
    from swerl.train.backends.verl.backend import VerlBackend

    report.update(gpus=gpus, sao=sao, rollout=with_rollout, stages={}, device=torch.cuda.get_device_name(0))
    stages = report["stages"]

    def stage(name: str, fn: Any) -> Any:
        t0 = time.perf_counter()
        try:
            value = fn()
            stages[name] = {"ok": True, "s": round(time.perf_counter() - t0, 2)}
            log.info("stage_ok", stage=name, s=stages[name]["s"])
            return value
        except Exception as exc:  # the report must say which stage broke, then stop
            stages[name] = {"ok": False, "s": round(time.perf_counter() - t0, 2), "error": repr(exc),
                            "traceback": traceback.format_exc()[-4000:]}
            log.error("stage_failed", stage=name, error=repr(exc))
            raise

    gpu_gib = torch.cuda.get_device_properties(0).total_memory / 2**30
    model_dir, tok = stage("build_model", lambda: build_model(out))
    recipe = check_recipe(gpus, sao, gpu_gib)
    backend = VerlBackend(recipe, model_path=str(model_dir), checkpoint_dir=str(out / "ckpt"), with_rollout=with_rollout)
    try:
        stage("start", backend.start)
        report["engine_urls"] = backend.engine_urls()
        vocab = len(tok)
        urls = backend.engine_urls()
        samples = stage("rollout_round_trip", lambda: chat_samples(urls, tok, report=report)) if with_rollout \
            else long_samples(vocab, rollouts=16, tokens=256)
        report["memory_after_rollout_mib"] = nvidia_smi_used_mib()
        stage("release_engine", backend.release_engine)
        report["memory_engine_asleep_mib"] = nvidia_smi_used_mib()
        adv = None if sao else compute_advantages(samples)
        report["update_1"] = stage("update_1", lambda: backend.update(samples, adv))
        big = long_samples(vocab)
        report["update_2"] = m2 = stage("update_2_throughput", lambda: backend.update(big, None if sao else
                                                                                       compute_advantages(big)))
        report["trained_tokens_per_s"] = m2.get("perf/tokens_per_s")
        report["max_memory_allocated_gb"] = m2.get("perf/max_memory_allocated_gb")
        report["memory_during_update_mib"] = nvidia_smi_used_mib()
        report["sync_s"] = stage("sync_weights", lambda: backend.sync_weights(1))
        if with_rollout:
            stage("serve_after_sync", lambda: chat_samples(backend.engine_urls(), tok, tasks=1, per_task=2, seed=3,
                                                                   report=report))
        stage("checkpoint", backend.state_dict)
    finally:
        backend.shutdown()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "node_check_out")))
    p.add_argument("--gpus", type=int, default=1)
    p.add_argument("--sao", action="store_true", help="the SAO recipe: critic with frozen attention, DIS")
    p.add_argument("--no-rollout", action="store_true", help="skip vLLM (trainer only)")
    args = p.parse_args(argv)
    configure("INFO")
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {}
    code = 0
    try:
        run(report, args.out, args.gpus, args.sao, not args.no_rollout)
    except Exception as exc:
        report.setdefault("error", repr(exc))
        code = 1
    finally:
        path = args.out / "node_check.json"
        path.write_text(json.dumps(report, indent=2, default=str))
        sys.stderr.write(f"node_check: report at {path}\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
