"""Sample assembly: recorded calls -> training samples by best-effort prefix merging (docs/algorithms.md secs. 1-2).

For each rollout, walk its calls in `seq` order keeping a current sequence
`S = p_i ++ a_i`. If `S` is an exact token prefix of the next prompt `p_{i+1}`,
extend (`S = p_{i+1} ++ a_{i+1}`); otherwise close `S` as a sample and start over.
Sampled tokens are never stitched into a later prompt (that prompt is not what the
next action was conditioned on).

One reader: assembly reads a delta-encoded `swerl.tokens.TokenBatch` (what the gateway
serves the trainer); `Event`s / dicts are validated and encoded into one first. A call stored
against the chain's last call with all of it shared is an extension by construction: nothing
is compared, so a rollout costs O(T) Python operations plus, for events, the encoding's one
memcmp per call (~T*n*4 bytes). Other prefix tests compare only past the shared part.

Why merges fail (`MERGE_FAILURE_CAUSES`), decided from token-level evidence at the
first mismatching position `m` between `S` and the next prompt `q`:

- `reply_dropped`: `m` is at the start of the last response and that response is nowhere
  in `q` (the harness rejected the reply, e.g. a mini-swe-agent format error, and left it
  out of its history: `rollout.keep_rejected_replies` keeps it).
- `context_edit`: `m` lies in a prompt/observation region of `S` (the harness changed
  earlier context: summarisation, truncated observations, a sub-agent), or `q` is a
  strict prefix of `S` (history shortened).
- `think_dropped`: `m` lies in a response region, or at most two tokens before one, and
  `S` holds a complete `<think>...</think>` block at or after `m` of which `q` has fewer
  `<think>` tokens over that span (the chat template dropped earlier reasoning, as
  Qwen3's does; Qwen3.5's generation prompt itself ends with `<think>`, so there the
  difference starts just before the response).
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

import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
from pydantic import ValidationError

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.tokens import F_CUT, F_ERROR, KIND_CODE, USABLE, TokenBatch, from_events
from swerl.train.io import field_errors
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


def _describe(index: int, raw: Any, exc: ValidationError) -> str:
    where = f"event {index}"
    if isinstance(raw, Mapping):
        where += f" (rollout_id={raw.get('rollout_id')!r}, seq={raw.get('seq')!r})"
    return f"{where}: {field_errors(exc, 'event')}"


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


def _probes(seq: np.ndarray, s: int, e: int, width: int = 4) -> list[np.ndarray]:
    """A few tokens from the head and the tail of response [s, e), off its edges (which may re-encode
    differently): if neither is anywhere in the next prompt, the reply is not there."""
    if e - s <= 2 + width:
        return [seq[s:e]]
    return [seq[s + 1:s + 1 + width], seq[e - 1 - width:e - 1]]


def _appears(hay: np.ndarray, needle: np.ndarray) -> bool:
    """Is `needle` a contiguous run of `hay` (token ids)?"""
    if needle.size == 0:
        return True
    h, n = np.asarray(hay, dtype=np.int32).tobytes(), np.asarray(needle, dtype=np.int32).tobytes()
    i = h.find(n)
    while i >= 0 and i % 4:
        i = h.find(n, i + 1)
    return i >= 0


def classify_merge_failure(
    seq: np.ndarray,
    response_spans: Sequence[tuple[int, int]],
    next_prompt: np.ndarray,
    *,
    tokenizer: Decoder | None = None,
    think_token_ids: tuple[int, int] | None = QWEN_THINK_TOKEN_IDS,
    first_mismatch: int | None = None,
) -> str:
    """Why `seq` (the current S, with its response spans [s, e)) is not a prefix of `next_prompt`.

    Returns one of `MERGE_FAILURE_CAUSES`; the rules are in the module docstring. `first_mismatch`:
    the first differing position when the caller already knows it (a delta record's shared length),
    which saves a scan of the whole sequence.
    """
    q = next_prompt
    n = min(len(seq), len(q))
    if first_mismatch is not None:
        m = first_mismatch
    else:
        neq = np.flatnonzero(seq[:n] != q[:n])
        m = int(neq[0]) if neq.size else n
    if m >= len(q):
        return "context_edit"
    if response_spans:  # the harness left its last reply out of the history (a rejected reply)
        s_last, e_last = response_spans[-1]
        if s_last - _BOUNDARY <= m <= s_last and not any(_appears(q[m:], p) for p in _probes(seq, s_last, e_last)):
            return "reply_dropped"
    # the response containing m, or starting within _BOUNDARY tokens after it (a template token
    # such as "assistant\n" can merge with the start of the response when re-encoded)
    span = next(((s, e) for s, e in response_spans if s - _BOUNDARY <= m < e), None)
    if span is None:
        return "context_edit"
    s, e = span
    in_response = m >= s
    if _think_dropped(seq, q, m, e, think_token_ids):  # also when `<think>` opened in the generation prompt
        return "think_dropped"  # (Qwen3.5's ends with it, so the first difference is just before the reply)
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
    events: Iterable[Event | Mapping[str, Any]] | TokenBatch,
    mode: Literal["best_effort", "per_call"] = "best_effort",
    *,
    tokenizer: Decoder | None = None,
    think_token_ids: tuple[int, int] | None = None,
    rollouts: Collection[str] | None = None,
) -> tuple[list[Sample], AssemblyStats]:
    """Turn gateway events into training samples (docs/algorithms.md secs. 1-2).

    `events`: a `swerl.tokens.TokenBatch` (delta-encoded prompts, the binary form the gateway
    serves the trainer) or `Event`s / dicts, validated and encoded into one: with `kind`,
    `rollout_id`, `group_id`, `seq`, and for `model_request` `prompt_ids`, `response_ids`,
    `response_logprobs`, `policy_version`;
    `reward` events carry `value` (the latest by `seq` wins). Events of an earlier `attempt`
    of a rollout (retried after an infrastructure failure) are discarded. Of retried requests
    (identical prompt) only the one the harness saw is kept. Failed calls (`error` set, or no
    tokens/log-probs) are skipped and counted.

    `mode="best_effort"` merges by exact token prefix; `"per_call"` (ablation) emits one
    sample per call. `tokenizer` (optional) sharpens failure-cause detection by
    decoding; `think_token_ids` defaults to the tokenizer's `<think>`/`</think>`, else Qwen's.
    `rollouts`: assemble only these rollout ids (e.g. the ones kept after the staleness filter).

    Returns samples (rollouts in order of first appearance, `sample_index` 0..N_rho-1)
    and `AssemblyStats`. Bad events raise `DataError` naming the event (its index in `events`),
    its rollout_id, seq and field.
    """
    return _assemble(_Rows(_as_batch(events)), mode, tokenizer, think_token_ids, rollouts)


@dataclass(slots=True)
class _Rollout:
    attempt: int = -1
    calls: list[int] = field(default_factory=list)
    rewards: list[int] = field(default_factory=list)
    dropped_attempt_events: int = 0
    failed_calls: int = 0


def _validated(events: Iterable[Event | Mapping[str, Any]]) -> Iterator[Event]:
    """Each event as an `Event`, in order; a bad one raises `DataError` naming its index, rollout_id, seq and
    field (the batch has no pydantic schema to report against, so this is where a user learns which row to fix).
    A rollout's events must agree on its group: one group id per rollout is what the advantage baseline groups by.
    """
    groups: dict[str, str] = {}
    for i, raw in enumerate(events):
        try:
            ev = raw if isinstance(raw, Event) else Event.model_validate(raw)
        except ValidationError as exc:
            raise DataError(_describe(i, raw, exc)) from None
        if ev.group_id is not None:
            seen = groups.setdefault(ev.rollout_id, ev.group_id)
            if seen != ev.group_id:
                raise DataError(f"event {i} (rollout_id={ev.rollout_id!r}, seq={ev.seq}): field group_id: "
                                f"{ev.group_id!r} differs from {seen!r} seen earlier for this rollout")
        yield ev


def _as_batch(events: Iterable[Event | Mapping[str, Any]] | TokenBatch) -> TokenBatch:
    """The one form assembly reads: a `TokenBatch` as given, or events validated and delta-encoded.

    Encoding full prompts is one memcmp per call that extends its predecessor (plus a copy of its
    prompt), and it turns every exact extension into a merge that compares nothing; events are
    numbered by position, so errors name the event's index in `events`.
    """
    if isinstance(events, TokenBatch):
        return events
    return from_events(_validated(events), use_ids=False)


class _Rows:
    """A batch's rows as Python lists (cheap indexing) with materialised prompts/sequences cached: only
    failures and closes need them, and materialising costs the chain's unique tokens, not its calls x context."""

    def __init__(self, b: TokenBatch) -> None:
        self.b = b
        self.rollouts = list(b.rollouts)  # (rollout_id, group_id) per rollout index
        self.event_id, self.rollout, self.attempt = b.event_id.tolist(), b.rollout.tolist(), b.attempt.tolist()
        self.kind, self.seq = b.kind.tolist(), b.seq.tolist()
        self.version = b.policy_version.tolist()  # -1: none
        flags = b.flags.tolist()
        self.usable = [f & (USABLE | F_ERROR) == USABLE for f in flags]
        # the response stopped at the call's max_tokens (sec. 13, per-call budget)
        self.cut = [bool(f & F_CUT) and u for f, u in zip(flags, self.usable, strict=True)]
        self.reward, self.arrival = b.reward.tolist(), b.arrival.tolist()  # NaN: none / unknown
        self.plen = b.prompt_len.tolist()
        self.flen = b.full_len.tolist()
        self.parent = b.parent_row.tolist()
        self.shared = b.shared.tolist()
        self._full: dict[int, np.ndarray] = {}
        self._prompt: dict[int, np.ndarray] = {}

    def logprobs(self, r: int) -> np.ndarray:
        return self.b.logprobs(r)

    def full(self, r: int) -> np.ndarray:
        """prompt ++ response of row r: from the parent's cached sequence when there is one, else the chain."""
        a = self._full.get(r)
        if a is None:
            base = self._full.get(self.parent[r])
            if base is not None:
                a = np.concatenate([base[:self.shared[r]], self.b.suffix(r), self.b.response(r)])
            else:
                a = self.b.full(r)
            self._full[r] = a
        return a

    def prompt(self, r: int) -> np.ndarray:
        a = self._prompt.get(r)
        if a is None:
            if r in self._full:
                a = self._full[r][:self.plen[r]]
            elif self.parent[r] in self._full:
                a = np.concatenate([self._full[self.parent[r]][:self.shared[r]], self.b.suffix(r)])
            else:
                a = self.b.prompt(r)
            self._prompt[r] = a
        return a

    def extends(self, last: int, c: int) -> bool:
        """Is full(last) an exact prefix of prompt(c)? Free when c's stored parent is `last` with everything shared."""
        if self.parent[c] == last and self.shared[c] == self.flen[last]:
            return True  # prompt(c) = full(last) ++ suffix by construction: nothing to compare
        if self.parent[c] == last and self.shared[c] < self.plen[c]:
            # the stored prefix is a common prefix, so the first difference can only be at or after `shared`
            n = self.flen[last]
            if self.plen[c] < n:
                return False
            seq = self.full(last)
            k = self.shared[c]
            return self.b.suffix(c)[:n - k].tobytes() == seq[k:n].tobytes()
        n = self.flen[last]
        if self.plen[c] < n:
            return False
        seq = self.full(last)  # first: the cause classifier needs it, and prompt(c) may build on it
        return self.prompt(c)[:n].tobytes() == seq.tobytes()

    def mismatch_at(self, last: int, c: int) -> int | None:
        """Where prompt(c) first differs from full(last), when the delta record says so (else None: scan)."""
        k = self.shared[c]
        if self.parent[c] != last or k >= self.flen[last]:
            return None
        if k >= self.plen[c]:
            return k  # the prompt ends inside full(last): it is a strict prefix
        return k if self.b.prompt_pool[self.b.prompt_off[c]] != self.full(last)[k] else None

    def same_prompt(self, a: int, c: int) -> bool:
        if self.plen[a] != self.plen[c]:
            return False
        if self.parent[a] == self.parent[c] and self.shared[a] == self.shared[c]:
            return self.b.suffix(a).tobytes() == self.b.suffix(c).tobytes()
        return self.prompt(a).tobytes() == self.prompt(c).tobytes()


def _dedupe_retries(ch: _Rows, calls: list[int]) -> tuple[list[int], int]:
    """Sec. 1: among attempts of one call (identical prompts) keep the one the harness saw.

    That is the attempt whose prompt ++ response a later, different prompt starts with; when
    none does (the harness edited its context) or several do (equal answers), the latest by
    arrival (`t_arrival`, else seq). Completion order says nothing: an orphaned attempt held
    through a pause can complete after the resend the harness used. Abandoned calls (status
    499) never get here: they are not usable. Returns the kept rows in seq order and the count dropped.
    """
    seqs, arrival = ch.seq, ch.arrival
    calls = sorted(calls, key=lambda r: seqs[r])
    groups: list[list[int]] = []
    by_len: dict[int, list[int]] = {}
    for r in calls:
        bucket = by_len.setdefault(ch.plen[r], [])
        j = next((j for j in bucket if ch.same_prompt(groups[j][0], r)), None)
        if j is None:
            bucket.append(len(groups))
            groups.append([r])
        else:
            groups[j].append(r)
    kept = [g[0] for g in groups if len(g) == 1]
    for g in groups:
        if len(g) > 1:
            later = [c for h in groups if h is not g for c in h if seqs[c] > seqs[g[0]]]
            seen = [c for c in g if any(ch.extends(c, x) for x in later)]
            kept.append(max(seen or g, key=lambda c: (seqs[c] if arrival[c] != arrival[c] else arrival[c], seqs[c])))
    kept.sort(key=seqs.__getitem__)
    return kept, len(calls) - len(kept)


def _close(ch: _Rows, chain: list[int], index: int, reward: float | None) -> Sample:
    """Materialise S with its loss mask (1 on every response of the chain) and aligned rollout log-probs."""
    rollout_id, group_id = ch.rollouts[ch.rollout[chain[0]]]
    ids = ch.full(chain[-1])
    mask = np.zeros(len(ids), dtype=np.int8)
    logp = np.zeros(len(ids), dtype=np.float32)
    for c in chain:
        s, e = ch.plen[c], ch.flen[c]
        mask[s:e] = 1
        logp[s:e] = ch.logprobs(c)
    versions = [None if ch.version[c] < 0 else ch.version[c] for c in chain]
    return Sample.model_construct(input_ids=ids, loss_mask=mask, rollout_logprobs=logp, rollout_id=rollout_id,
                                  group_id=group_id, sample_index=index, reward=reward, policy_versions=versions)


def _group_by_rollout(ch: _Rows, wanted: set[str] | None) -> dict[int, _Rollout]:
    """Bucket rows per rollout, keeping only the latest attempt (earlier attempts hit infra failures)."""
    per: dict[int, _Rollout] = {}
    for r in range(len(ch.rollout)):
        ri = ch.rollout[r]
        ro = per.get(ri)
        if ro is None:
            if wanted is not None and ch.rollouts[ri][0] not in wanted:
                continue
            ro = per[ri] = _Rollout()
        if ch.attempt[r] < ro.attempt:
            ro.dropped_attempt_events += 1
            continue
        if ch.attempt[r] > ro.attempt:
            ro.dropped_attempt_events += len(ro.calls) + len(ro.rewards) + ro.failed_calls
            ro.calls, ro.rewards, ro.attempt, ro.failed_calls = [], [], ch.attempt[r], 0
        if ch.kind[r] == KIND_CODE["model_request"]:
            if ch.usable[r]:
                ro.calls.append(r)
            else:
                ro.failed_calls += 1
        elif ch.kind[r] == KIND_CODE["reward"]:
            if math.isnan(ch.reward[r]):
                raise DataError(f"event {ch.event_id[r]} (rollout_id={ch.rollouts[ri][0]!r}, seq={ch.seq[r]}): "
                                "value (or reward) is required for a reward event")
            ro.rewards.append(r)
    return per


def _assemble(ch: _Rows, mode: str, tokenizer: Decoder | None, think_token_ids: tuple[int, int] | None,
              rollouts: Collection[str] | None) -> tuple[list[Sample], AssemblyStats]:
    if mode not in ("best_effort", "per_call"):
        raise DataError(f"mode {mode!r}: expected 'best_effort' or 'per_call'")
    think_ids = think_token_ids if think_token_ids is not None else _think_ids_of(tokenizer)
    stats = AssemblyStats(mode=mode)  # type: ignore[arg-type]
    samples: list[Sample] = []
    hist: dict[int, int] = {}
    for ri, ro in _group_by_rollout(ch, None if rollouts is None else set(rollouts)).items():
        stats.num_superseded_attempt_events += ro.dropped_attempt_events
        stats.num_failed_calls += ro.failed_calls
        if not ro.calls:
            log.warning("rollout has no model calls; skipped", rollout_id=ch.rollouts[ri][0])
            continue
        calls, dropped = _dedupe_retries(ch, ro.calls)
        stats.num_retries_dropped += dropped
        stats.num_calls += len(calls)
        stats.num_calls_cut += sum(ch.cut[c] for c in calls)
        reward = ch.reward[max(ro.rewards, key=ch.seq.__getitem__)] if ro.rewards else None
        stats.num_rollouts_without_reward += reward is None
        chains: list[list[int]] = []
        if mode == "per_call":
            chains = [[c] for c in calls]
        else:
            chain = [calls[0]]
            for c in calls[1:]:
                last = chain[-1]
                if ch.extends(last, c):
                    chain.append(c)
                    continue
                spans = [(ch.plen[x], ch.flen[x]) for x in chain]
                cause = classify_merge_failure(ch.full(last), spans, ch.prompt(c), tokenizer=tokenizer,
                                               think_token_ids=think_ids, first_mismatch=ch.mismatch_at(last, c))
                stats.merge_failures[cause] += 1
                chains.append(chain)
                chain = [c]
            chains.append(chain)
        for j, chain in enumerate(chains):
            sample = _close(ch, chain, j, reward)
            stats.num_tokens += sample.num_tokens
            stats.num_response_tokens += sum(ch.flen[c] - ch.plen[c] for c in chain)
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
