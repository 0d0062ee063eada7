"""Sample assembly: recorded calls -> training samples by best-effort prefix merging (ALGORITHMS.md secs. 1-2).

For each rollout, walk its calls in `seq` order keeping a current sequence
`S = p_i ++ a_i`. If `S` is an exact token prefix of the next prompt `p_{i+1}`,
extend (`S = p_{i+1} ++ a_{i+1}`); otherwise close `S` as a sample and start over.
Sampled tokens are never stitched into a later prompt (that prompt is not what the
next action was conditioned on).

Speed: token ids are int32 numpy arrays; the prefix test is two `bytes.startswith`
calls (memcmp), so a rollout with T calls of ~n-token prompts costs O(T) Python
operations plus ~T*n*4 bytes of memcmp, instead of T*n Python comparisons.

Why merges fail (`MERGE_FAILURE_CAUSES`), decided from token-level evidence at the
first mismatching position `m` between `S` and the next prompt `q`:

- `context_edit`: `m` lies in a prompt/observation region of `S` (the harness changed
  earlier context: summarisation, truncated observations, a sub-agent), or `q` is a
  strict prefix of `S` (history shortened).
- `think_dropped`: `m` lies in a response region that holds a complete
  `<think>...</think>` block at or after `m`, and `q` has fewer `<think>` tokens over
  that span (the chat template dropped earlier reasoning, as Qwen3's does).
- `retokenize_drift`: `m` lies in a response region, or at most two tokens before one
  (the template's text before a response can merge with its first token), and the text
  reappears unchanged in `q` (with a tokenizer: decoded text equal; without one: the
  token streams re-synchronise after a few tokens, a different number on each side, and
  the rest of the response matches exactly). `Tok(Decode(a)) != a`: the model sampled a non-canonical tokenisation, or a
  boundary merged differently when the rendered text was re-encoded.
- `rewritten_output`: `m` lies in a response region and its content differs (e.g. a
  tool-call parser re-serialised the call).
- `other`: with a tokenizer, the texts differ only in leading/trailing whitespace (a
  template that trims content). Without a tokenizer this case looks like drift.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
from pydantic import ValidationError

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.train.schema import MERGE_FAILURE_CAUSES, AssemblyStats, Event, Sample

log = get_logger(__name__)

QWEN_THINK_TOKEN_IDS: tuple[int, int] = (151667, 151668)
"""`<think>` / `</think>` in the Qwen2.5/Qwen3 vocabulary; the default when no tokenizer is given."""

_RESYNC_WINDOW = 4
_BOUNDARY = 2


class Decoder(Protocol):
    """What assembly needs from a tokenizer: decoding and token lookup (any HF tokenizer fits)."""

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = ...) -> str: ...

    def convert_tokens_to_ids(self, tokens: str) -> int | None: ...


@dataclass(slots=True)
class _Call:
    seq: int
    prompt: np.ndarray
    response: np.ndarray
    logprobs: np.ndarray
    version: int | None
    pb: bytes
    ab: bytes


@dataclass(slots=True)
class _Rollout:
    group_id: str | None = None
    attempt: int = -1
    calls: list[Event] = field(default_factory=list)
    rewards: list[Event] = field(default_factory=list)
    dropped_attempt_events: int = 0
    failed_calls: int = 0


def _describe(index: int, raw: Any, exc: ValidationError) -> str:
    where = f"event {index}"
    if isinstance(raw, Mapping):
        where += f" (rollout_id={raw.get('rollout_id')!r}, seq={raw.get('seq')!r})"
    errs = exc.errors()
    parts = []
    for err in errs[:3]:
        loc = ".".join(str(x) for x in err["loc"]) or "event"
        parts.append(f"field {loc}: {err['msg']}")
    return f"{where}: " + "; ".join(parts)


def _to_event(index: int, raw: Any) -> Event:
    if isinstance(raw, Event):
        return raw
    try:
        return Event.model_validate(raw)
    except ValidationError as exc:
        raise DataError(_describe(index, raw, exc)) from None


def _group_by_rollout(events: Iterable[Any]) -> dict[str, _Rollout]:
    """Bucket events per rollout, keeping only the latest attempt (earlier attempts hit infra failures)."""
    rollouts: dict[str, _Rollout] = {}
    for i, raw in enumerate(events):
        ev = _to_event(i, raw)
        ro = rollouts.setdefault(ev.rollout_id, _Rollout())
        if ev.group_id is not None:
            if ro.group_id is not None and ro.group_id != ev.group_id:
                raise DataError(f"event {i} (rollout_id={ev.rollout_id!r}, seq={ev.seq}): field group_id: "
                                f"{ev.group_id!r} differs from {ro.group_id!r} seen earlier for this rollout")
            ro.group_id = ev.group_id
        if ev.attempt < ro.attempt:
            ro.dropped_attempt_events += 1
            continue
        if ev.attempt > ro.attempt:
            ro.dropped_attempt_events += len(ro.calls) + len(ro.rewards) + ro.failed_calls
            ro.calls, ro.rewards, ro.attempt, ro.failed_calls = [], [], ev.attempt, 0
        if ev.kind == "model_request":
            if ev.usable:
                ro.calls.append(ev)
            else:
                ro.failed_calls += 1
        elif ev.kind == "reward":
            ro.rewards.append(ev)
    return rollouts


def _dedupe_retries(calls: list[Event]) -> tuple[list[_Call], int]:
    """Sec. 1: among calls with an identical prompt, keep only the latest (by seq)."""
    calls = sorted(calls, key=lambda e: e.seq)
    kept: list[_Call | None] = []
    index: dict[tuple[int, bytes, bytes], list[int]] = {}
    dropped = 0
    for ev in calls:
        assert ev.prompt_ids is not None and ev.response_ids is not None and ev.response_logprobs is not None
        pb = np.ascontiguousarray(ev.prompt_ids).tobytes()
        call = _Call(ev.seq, ev.prompt_ids, ev.response_ids, ev.response_logprobs, ev.policy_version,
                     pb, np.ascontiguousarray(ev.response_ids).tobytes())
        key = (len(pb), pb[:64], pb[-64:])  # cheap pre-filter; equality is confirmed by memcmp
        bucket = index.setdefault(key, [])
        for j in bucket:
            prev = kept[j]
            if prev is not None and prev.pb == pb:
                kept[j] = None
                dropped += 1
                break
        bucket.append(len(kept))
        kept.append(call)
    return [c for c in kept if c is not None], dropped


def _extends(last: _Call, nxt: _Call) -> bool:
    """Is S = p_last ++ a_last an exact token prefix of the next prompt? (sec. 2; two memcmps, no copies)."""
    lp = len(last.pb)
    return len(nxt.pb) >= lp + len(last.ab) and nxt.pb.startswith(last.pb) and nxt.pb.startswith(last.ab, lp)


def _close(chain: list[_Call], rollout_id: str, group_id: str, index: int, reward: float | None) -> Sample:
    """Materialise S with its loss mask (1 on every response of the chain) and aligned rollout log-probs."""
    last = chain[-1]
    ids = np.concatenate([last.prompt, last.response])
    mask = np.zeros(len(ids), dtype=np.int8)
    logp = np.zeros(len(ids), dtype=np.float32)
    for c in chain:
        s = len(c.prompt)
        e = s + len(c.response)
        mask[s:e] = 1
        logp[s:e] = c.logprobs
    return Sample.model_construct(
        input_ids=ids, loss_mask=mask, rollout_logprobs=logp, rollout_id=rollout_id, group_id=group_id,
        sample_index=index, reward=reward, policy_versions=[c.version for c in chain],
    )


def _think_dropped(seq: np.ndarray, q: np.ndarray, m: int, e: int, think_ids: tuple[int, int] | None) -> bool:
    if think_ids is None:
        return False
    open_id, close_id = think_ids
    opens = np.flatnonzero(seq[m:e] == open_id)
    if not opens.size:
        return False
    if not np.any(seq[m + int(opens[0]):e] == close_id):  # an unfinished block is never rewritten by templates
        return False
    return int(np.count_nonzero(q[m:m + (e - m)] == open_id)) < opens.size


def _resyncs(seq: np.ndarray, q: np.ndarray, m: int, e: int) -> bool:
    """Token-only drift evidence: after skipping i tokens of `seq` and j != i of `q` (a few each), the rest
    of the response matches exactly. Re-tokenising the same text splits or merges tokens, so the counts
    differ; an equal-length substitution is an edit, not drift."""
    for i in range(1, _RESYNC_WINDOW + 1):
        tail = seq[m + i:e]
        if not tail.size:
            break
        for j in range(1, _RESYNC_WINDOW + 1):
            if j != i and np.array_equal(q[m + j:m + j + tail.size], tail):
                return True
    return False


def classify_merge_failure(
    seq: np.ndarray,
    response_spans: Sequence[tuple[int, int]],
    next_prompt: np.ndarray,
    *,
    tokenizer: Decoder | None = None,
    think_token_ids: tuple[int, int] | None = QWEN_THINK_TOKEN_IDS,
) -> str:
    """Why `seq` (the current S, with its response spans [s, e)) is not a prefix of `next_prompt`.

    Returns one of `MERGE_FAILURE_CAUSES`; the rules are in the module docstring.
    """
    q = next_prompt
    n = min(len(seq), len(q))
    neq = np.flatnonzero(seq[:n] != q[:n])
    m = int(neq[0]) if neq.size else n
    if m >= len(q):
        return "context_edit"
    # the response containing m, or starting within _BOUNDARY tokens after it (a template token
    # such as "assistant\n" can merge with the start of the response when re-encoded)
    span = next(((s, e) for s, e in response_spans if s - _BOUNDARY <= m < e), None)
    if span is None:
        return "context_edit"
    s, e = span
    in_response = m >= s
    if in_response and _think_dropped(seq, q, m, e, think_token_ids):
        return "think_dropped"
    if tokenizer is None:
        if _resyncs(seq, q, m, e):
            return "retokenize_drift"
        return "rewritten_output" if in_response else "context_edit"
    start = min(s, m)
    window = q[start:start + 2 * (e - start) + 16].tolist()
    old = tokenizer.decode(seq[start:e].tolist(), skip_special_tokens=False)
    if tokenizer.decode(window, skip_special_tokens=False).startswith(old):
        return "retokenize_drift"
    if not in_response:
        return "context_edit"
    old_core = tokenizer.decode(seq[s:e].tolist(), skip_special_tokens=True).strip()
    if old_core and tokenizer.decode(window, skip_special_tokens=True).lstrip().startswith(old_core):
        return "other"
    return "rewritten_output"


def _think_ids_of(tokenizer: Decoder | None) -> tuple[int, int] | None:
    if tokenizer is None:
        return QWEN_THINK_TOKEN_IDS
    ids = tokenizer.convert_tokens_to_ids("<think>"), tokenizer.convert_tokens_to_ids("</think>")
    unk = getattr(tokenizer, "unk_token_id", None)
    if any(i is None or i == unk for i in ids):
        return None
    return int(ids[0]), int(ids[1])  # type: ignore[arg-type]


def assemble(
    events: Iterable[Event | Mapping[str, Any]],
    mode: Literal["best_effort", "per_call"] = "best_effort",
    *,
    tokenizer: Decoder | None = None,
    think_token_ids: tuple[int, int] | None = None,
) -> tuple[list[Sample], AssemblyStats]:
    """Turn gateway events into training samples (ALGORITHMS.md secs. 1-2).

    `events`: `Event`s or dicts with `kind`, `rollout_id`, `group_id`, `seq`, and for
    `model_request` `prompt_ids`, `response_ids`, `response_logprobs`, `policy_version`;
    `reward` events carry `value` (the latest by `seq` wins). Events of an earlier
    `attempt` of a rollout (retried after an infrastructure failure) are discarded.
    Retried requests (identical prompt) keep only the latest. Failed calls (`error` set,
    or no tokens/log-probs) are skipped and counted.

    `mode="best_effort"` merges by exact token prefix; `"per_call"` (ablation) emits one
    sample per call. `tokenizer` (optional) sharpens failure-cause detection by
    decoding; `think_token_ids` defaults to the tokenizer's `<think>`/`</think>`, else Qwen's.

    Returns samples (rollouts in order of first appearance, `sample_index` 0..N_rho-1)
    and `AssemblyStats`. Bad events raise `DataError` naming the event and field.
    """
    if mode not in ("best_effort", "per_call"):
        raise DataError(f"mode {mode!r}: expected 'best_effort' or 'per_call'")
    think_ids = think_token_ids if think_token_ids is not None else _think_ids_of(tokenizer)
    stats = AssemblyStats(mode=mode)
    samples: list[Sample] = []
    hist: dict[int, int] = {}
    for rollout_id, ro in _group_by_rollout(events).items():
        stats.num_superseded_attempt_events += ro.dropped_attempt_events
        stats.num_failed_calls += ro.failed_calls
        if not ro.calls:
            log.warning("rollout has no model calls; skipped", rollout_id=rollout_id)
            continue
        calls, dropped = _dedupe_retries(ro.calls)
        stats.num_retries_dropped += dropped
        stats.num_calls += len(calls)
        reward = max(ro.rewards, key=lambda e: e.seq).value if ro.rewards else None
        stats.num_rollouts_without_reward += reward is None
        group_id = ro.group_id if ro.group_id is not None else rollout_id
        chains: list[list[_Call]] = []
        if mode == "per_call":
            chains = [[c] for c in calls]
        else:
            chain = [calls[0]]
            for c in calls[1:]:
                if _extends(chain[-1], c):
                    chain.append(c)
                    continue
                last = chain[-1]
                seq = np.concatenate([last.prompt, last.response])
                spans = [(len(x.prompt), len(x.prompt) + len(x.response)) for x in chain]
                cause = classify_merge_failure(seq, spans, c.prompt, tokenizer=tokenizer, think_token_ids=think_ids)
                stats.merge_failures[cause] += 1
                chains.append(chain)
                chain = [c]
            chains.append(chain)
        for j, chain in enumerate(chains):
            sample = _close(chain, rollout_id, group_id, j, reward)
            stats.num_tokens += sample.num_tokens
            stats.num_response_tokens += sum(len(c.response) for c in chain)
            samples.append(sample)
        hist[len(chains)] = hist.get(len(chains), 0) + 1
        stats.num_rollouts += 1
    stats.num_samples = len(samples)
    stats.samples_per_rollout = dict(sorted(hist.items()))
    if stats.num_rollouts:
        stats.single_sample_fraction = hist.get(1, 0) / stats.num_rollouts
        stats.mean_samples_per_rollout = stats.num_samples / stats.num_rollouts
    log.info("assembled", mode=mode, rollouts=stats.num_rollouts, samples=stats.num_samples,
             failures={k: v for k, v in stats.merge_failures.items() if v})
    return samples, stats


__all__ = ["MERGE_FAILURE_CAUSES", "QWEN_THINK_TOKEN_IDS", "assemble", "classify_merge_failure"]
