"""Benchmark sample assembly (ALGORITHMS.md sec. 2) on generated mini-swe-agent-like traces, real Qwen vocab.

Traces: `swerl.train.synthetic` renders each call's prompt with a real chat template
and the real Qwen2.5 tokenizer (system prompt, task, THOUGHT + bash replies, noisy
tool output: tracebacks, long lines, unicode, ANSI codes). Scenarios:

- plain:        no reasoning, history-keeping template (Qwen2.5)
- think-keep:   `<think>` replies, history-keeping template
- think-drop:   `<think>` replies, Qwen3-style template that drops earlier reasoning
- drift+edits:  plain, plus non-canonical sampled tokenisations (5%/turn) and harness
                context edits (3%/turn, truncating an old observation)

Measured in one run, on the same traces:
- samples per rollout and failure causes per scenario (the distribution AL1 reports);
- assembly tokens/s (all prompt+response tokens of all calls) of `swerl.train.assemble`
  against a straightforward pure-Python list-prefix implementation (element-by-element
  prefix test, list concatenation), both producing identical samples. swerl gets token ids
  as int32 arrays (as the gateway stores them: int32 blobs); the baseline gets lists. The
  cost of converting Python lists first is reported too (not the goal metric).

Usage: .venv/bin/python bench/assembly.py [--rollouts 12] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from swerl.train.assembly import assemble
from swerl.train.models import QWEN3_THINK_DROPPING_TEMPLATE, build_qwen_tokenizer
from swerl.train.synthetic import TraceConfig, make_rollout_events

GOAL_SPEEDUP = 10.0

SCENARIOS: dict[str, tuple[TraceConfig, str | None]] = {
    "plain": (TraceConfig(turns_min=6, turns_max=24), None),
    "think-keep": (TraceConfig(turns_min=6, turns_max=24, thinking=True), None),
    "think-drop": (TraceConfig(turns_min=6, turns_max=24, thinking=True), QWEN3_THINK_DROPPING_TEMPLATE),
    "drift+edits": (TraceConfig(turns_min=6, turns_max=24, drift_prob=0.05, context_edit_prob=0.03), None),
}


# ---- the baseline: straightforward pure Python over lists -------------------------------------------------

def _is_prefix(s: list[int], p: list[int]) -> bool:
    if len(s) > len(p):
        return False
    for i in range(len(s)):  # noqa: SIM110 - the explicit loop is the point of the baseline
        if s[i] != p[i]:
            return False
    return True


def baseline_assemble(events: list[dict[str, Any]]) -> list[tuple[str, list[int], list[int], list[float]]]:
    """Best-effort merging as one would first write it: lists, a loop per token, concatenation."""
    by_rollout: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        by_rollout.setdefault(e["rollout_id"], []).append(e)
    out = []
    for rid, evs in by_rollout.items():
        calls = sorted((e for e in evs if e["kind"] == "model_request"), key=lambda e: e["seq"])
        latest = {tuple(c["prompt_ids"]): i for i, c in enumerate(calls)}
        calls = [c for i, c in enumerate(calls) if latest[tuple(c["prompt_ids"])] == i]
        seq: list[int] | None = None
        mask: list[int] = []
        logp: list[float] = []
        for c in calls:
            p, a = c["prompt_ids"], c["response_ids"]
            if seq is not None and _is_prefix(seq, p):
                mask = mask + [0] * (len(p) - len(seq)) + [1] * len(a)
                logp = logp + [0.0] * (len(p) - len(seq)) + list(c["response_logprobs"])
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=12, help="rollouts per scenario")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t0 = time.perf_counter()
    tok = build_qwen_tokenizer()
    print(f"qwen tokenizer ready in {time.perf_counter() - t0:.1f}s (len {len(tok)})")
    total_tokens = 0
    t_swerl = t_base = t_lists = 0.0
    print(f"{'scenario':<12} {'calls':>6} {'tokens':>10} {'1-sample':>9} {'mean N':>7}  samples/rollout      causes")
    for name, (cfg, template) in SCENARIOS.items():
        g0 = time.perf_counter()
        events = generate(tok, cfg, template, args.rollouts, seed=1000)
        gen_s = time.perf_counter() - g0
        tokens = sum(len(e["prompt_ids"]) + len(e["response_ids"]) for e in events if e["kind"] == "model_request")
        _, (samples, stats) = best_of(lambda ev=events: assemble(ev, tokenizer=tok), 1)  # with cause decoding
        ts, (fast, _) = best_of(lambda ev=events: assemble(ev), args.repeat)
        lists = as_lists(events)
        tb, base = best_of(lambda ev=lists: baseline_assemble(ev), args.repeat)
        tl, _ = best_of(lambda ev=lists: assemble(ev), args.repeat)
        # both implementations must produce the same samples
        assert len(base) == len(fast), (name, len(base), len(fast))
        for (rid, ids, mask, logp), s in zip(base, fast, strict=True):
            assert rid == s.rollout_id and ids == s.input_ids.tolist() and mask == s.loss_mask.tolist()
            assert np.allclose(logp, s.rollout_logprobs)
        causes = ", ".join(f"{k}={v}" for k, v in stats.merge_failures.items() if v) or "-"
        hist = " ".join(f"{k}:{v}" for k, v in stats.samples_per_rollout.items())
        print(f"{name:<12} {stats.num_calls:>6} {tokens:>10} {stats.single_sample_fraction:>9.0%} "
              f"{stats.mean_samples_per_rollout:>7.2f}  {hist:<20} {causes}")
        print(f"{'':<12} swerl {tokens / ts / 1e6:7.1f} Mtok/s | from lists {tokens / tl / 1e6:6.1f} Mtok/s | "
              f"baseline {tokens / tb / 1e6:5.1f} Mtok/s | trace generation {gen_s:.1f}s")
        total_tokens += tokens
        t_swerl += ts
        t_base += tb
        t_lists += tl
        del events, lists, base, fast, samples

    speedup = t_base / t_swerl
    print(f"\nall scenarios: {total_tokens} tokens; swerl {total_tokens / t_swerl / 1e6:.1f} Mtok/s, "
          f"baseline {total_tokens / t_base / 1e6:.2f} Mtok/s; from Python lists (incl. conversion) "
          f"{total_tokens / t_lists / 1e6:.1f} Mtok/s = {t_base / t_lists:.1f}x the baseline")
    print(f"total bench time {time.perf_counter() - t0:.0f}s")
    print(f"BENCH assembly_speedup {speedup:.1f} x goal >={GOAL_SPEEDUP:g} {'met' if speedup >= GOAL_SPEEDUP else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
