"""Benchmark sample assembly (docs/algorithms.md sec. 2) on generated mini-swe-agent-like traces, real Qwen vocab.

Traces: `bench/synthetic_traces.py` renders each call's prompt with a real chat template
and the real Qwen2.5 tokenizer (system prompt, task, THOUGHT + bash replies, noisy
tool output: tracebacks, long lines, unicode, ANSI codes). Scenarios:

- plain:        no reasoning, history-keeping template (Qwen2.5)
- think-keep:   `<think>` replies, history-keeping template
- think-drop:   `<think>` replies, Qwen3-style template that drops earlier reasoning
- drift+edits:  plain, plus non-canonical sampled tokenisations (5%/turn) and harness
                context edits (3%/turn, truncating an old observation)

Measured in one run, on the same traces:
- samples per rollout and failure causes per scenario (the distribution AL1 reports);
- assembly tokens/s (all prompt+response tokens of all calls: logical tokens) of
  `swerl.train.assemble` against the plain list-slice merge in pure Python (prefix test
  `seq == p[:len(seq)]`, compared in C; mask and log-probs extended in place), all producing
  identical samples. swerl runs on three inputs: delta-encoded prompts (`swerl.tokens`
  batch, what the gateway serves the trainer), full prompts as int32 arrays, and full prompts
  as Python lists (conversion included); the baseline gets Python lists.

Usage: .venv/bin/python bench/assembly.py [--rollouts 12] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE, TraceConfig, make_rollout_events

from swerl.models import build_qwen_tokenizer
from swerl.tokens import from_events
from swerl.train.assembly import assemble

GOAL_ENCODED = 10.0
GOAL_ARRAYS = 2.0

SCENARIOS: dict[str, tuple[TraceConfig, str | None]] = {
    "plain": (TraceConfig(turns_min=6, turns_max=24), None),
    "think-keep": (TraceConfig(turns_min=6, turns_max=24, thinking=True), None),
    "think-drop": (TraceConfig(turns_min=6, turns_max=24, thinking=True), QWEN3_THINK_DROPPING_TEMPLATE),
    "drift+edits": (TraceConfig(turns_min=6, turns_max=24, drift_prob=0.05, context_edit_prob=0.03), None),
}


# ---- the baseline: the plain list-slice merge over Python lists --------------------------------------------

def _latest_of_identical(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Retries: among identical prompts keep the latest (bucketed by length and ends, confirmed by list ==)."""
    kept: list[dict[str, Any] | None] = []
    buckets: dict[tuple, list[int]] = {}
    for c in calls:
        p = c["prompt_ids"]
        bucket = buckets.setdefault((len(p), tuple(p[:8]), tuple(p[-8:])), [])
        for j in bucket:
            prev = kept[j]
            if prev is not None and prev["prompt_ids"] == p:
                kept[j] = None
                break
        bucket.append(len(kept))
        kept.append(c)
    return [c for c in kept if c is not None]


def baseline_assemble(events: list[dict[str, Any]]) -> list[tuple[str, list[int], list[int], list[float]]]:
    """Best-effort merging as one would write it well in plain Python: the prefix test is one list-slice
    comparison (`seq == p[:len(seq)]`, compared in C), the mask and log-probs are extended in place."""
    by_rollout: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        by_rollout.setdefault(e["rollout_id"], []).append(e)
    out = []
    for rid, evs in by_rollout.items():
        calls = sorted((e for e in evs if e["kind"] == "model_request"), key=lambda e: e["seq"])
        calls = _latest_of_identical(calls)
        seq: list[int] | None = None
        mask: list[int] = []
        logp: list[float] = []
        for c in calls:
            p, a = c["prompt_ids"], c["response_ids"]
            if seq is not None and len(p) >= len(seq) and p[:len(seq)] == seq:
                gap = len(p) - len(seq)
                mask += [0] * gap
                mask += [1] * len(a)
                logp += [0.0] * gap
                logp += c["response_logprobs"]
            else:
                if seq is not None:
                    out.append((rid, seq, mask, logp))
                mask = [0] * len(p) + [1] * len(a)
                logp = [0.0] * len(p) + list(c["response_logprobs"])
            seq = p + a
        if seq is not None:
            out.append((rid, seq, mask, logp))
    return out


# ---- run -----------------------------------------------------------------------------------------------

def generate(tok: Any, cfg: TraceConfig, template: str | None, n: int, seed: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for r in range(n):
        evs = make_rollout_events(tok, rollout_id=f"r{r}", group_id=f"g{r // 4}", seed=seed + r, config=cfg,
                                  chat_template=template, reward=float(r % 2))
        for e in evs:  # keep memory flat: store ids compactly, make lists only for the baseline's turn
            for k in ("prompt_ids", "response_ids"):
                if k in e:
                    e[k] = np.asarray(e[k], dtype=np.int32)
            if "response_logprobs" in e:
                e["response_logprobs"] = np.asarray(e["response_logprobs"], dtype=np.float32)
        events += evs
    return events


def as_lists(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in e.items()} for e in events]


def best_of(fn: Any, repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def check_same(name: str, base: list[Any], got: list[Any]) -> None:
    assert len(base) == len(got), (name, len(base), len(got))
    for (rid, ids, mask, logp), s in zip(base, got, strict=True):
        assert rid == s.rollout_id and ids == s.input_ids.tolist() and mask == s.loss_mask.tolist(), name
        assert np.allclose(logp, s.rollout_logprobs), name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=12, help="rollouts per scenario")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    t0 = time.perf_counter()
    tok = build_qwen_tokenizer()
    print(f"qwen tokenizer ready in {time.perf_counter() - t0:.1f}s (len {len(tok)})")
    total_tokens = 0
    t_arr = t_enc = t_base = t_lists = 0.0
    print(f"{'scenario':<12} {'calls':>6} {'tokens':>10} {'1-sample':>9} {'mean N':>7}  samples/rollout      causes")
    for name, (cfg, template) in SCENARIOS.items():
        g0 = time.perf_counter()
        events = generate(tok, cfg, template, args.rollouts, seed=1000)
        gen_s = time.perf_counter() - g0
        tokens = sum(len(e["prompt_ids"]) + len(e["response_ids"]) for e in events if e["kind"] == "model_request")
        batch = from_events(events)
        _, (samples, stats) = best_of(lambda ev=events: assemble(ev, tokenizer=tok), 1)  # with cause decoding
        ta, (arr, _) = best_of(lambda ev=events: assemble(ev), args.repeat)
        te, (enc, enc_stats) = best_of(lambda b=batch: assemble(b), args.repeat)
        lists = as_lists(events)
        tb, base = best_of(lambda ev=lists: baseline_assemble(ev), args.repeat)
        tl, _ = best_of(lambda ev=lists: assemble(ev), args.repeat)
        check_same(name, base, arr)  # every implementation must produce the same samples
        check_same(name, base, enc)
        assert enc_stats.merge_failures == assemble(events)[1].merge_failures
        causes = ", ".join(f"{k}={v}" for k, v in stats.merge_failures.items() if v) or "-"
        hist = " ".join(f"{k}:{v}" for k, v in stats.samples_per_rollout.items())
        unique = batch.prompt_pool.size + batch.resp_pool.size
        print(f"{name:<12} {stats.num_calls:>6} {tokens:>10} {stats.single_sample_fraction:>9.0%} "
              f"{stats.mean_samples_per_rollout:>7.2f}  {hist:<20} {causes}")
        print(f"{'':<12} swerl encoded {tokens / te / 1e6:7.1f} | arrays {tokens / ta / 1e6:6.1f} | lists "
              f"{tokens / tl / 1e6:5.1f} | list-slice baseline {tokens / tb / 1e6:5.1f} Mtok/s | "
              f"{tokens / unique:.1f} logical tokens per stored token | trace generation {gen_s:.1f}s")
        total_tokens += tokens
        t_arr += ta
        t_enc += te
        t_base += tb
        t_lists += tl
        del events, lists, base, arr, enc, samples, batch

    enc_x, arr_x = t_base / t_enc, t_base / t_arr
    print(f"\nall scenarios: {total_tokens} tokens; swerl encoded {total_tokens / t_enc / 1e6:.1f} Mtok/s, arrays "
          f"{total_tokens / t_arr / 1e6:.1f} Mtok/s, lists (incl. conversion) {total_tokens / t_lists / 1e6:.1f} "
          f"Mtok/s ({t_base / t_lists:.1f}x); list-slice baseline {total_tokens / t_base / 1e6:.1f} Mtok/s")
    print(f"total bench time {time.perf_counter() - t0:.0f}s")
    print(f"BENCH assembly_encoded_vs_list_slice {enc_x:.1f} x goal >={GOAL_ENCODED:g} "
          f"{'met' if enc_x >= GOAL_ENCODED else 'missed'}")
    print(f"BENCH assembly_arrays_vs_list_slice {arr_x:.1f} x goal >={GOAL_ARRAYS:g} "
          f"{'met' if arr_x >= GOAL_ARRAYS else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
