"""Assembly straight from delta-encoded prompts gives exactly what whole prompts give.

Assembly has one reader, the `TokenBatch`; events are encoded into one. A batch of whole prompts
(`from_events(encode=False)`: no parents) takes the comparing branch of every prefix test, so it is
the reference the delta encoding's shortcuts (extensions by construction, mismatches known from the
shared length) are checked against.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE, TraceConfig, make_rollout_events
from token_helpers import Rows, to_bytes

from swerl.errors import DataError
from swerl.tokens import TokenBatch, from_events
from swerl.train.assembly import assemble


def call(rid: str, seq: int, prompt: list[int], response: list[int], *, attempt: int = 0,
         version: int | None = 0) -> dict[str, Any]:
    return {"kind": "model_request", "rollout_id": rid, "group_id": f"g-{rid[:2]}", "seq": seq, "attempt": attempt,
            "prompt_ids": prompt, "response_ids": response, "policy_version": version,
            "response_logprobs": [-(seq + 1) / 10 - k / 100 for k in range(len(response))]}


def reward(rid: str, value: float, seq: int = 100, attempt: int = 0) -> dict[str, Any]:
    return {"kind": "reward", "rollout_id": rid, "group_id": f"g-{rid[:2]}", "seq": seq, "value": value,
            "attempt": attempt}


def same_result(events: list[dict[str, Any]], *, tokenizer: Any = None, through_bytes: bool = True) -> None:
    """Both modes: delta-encoded prompts (and the events themselves, which assembly encodes) give the samples
    (ids, masks, log-probs, provenance) and statistics of whole prompts."""
    batch = from_events(events)
    if through_bytes:
        batch = TokenBatch.from_bytes(to_bytes(batch))
    whole = from_events(events, encode=False)
    assert (whole.parent < 0).all()
    for mode in ("best_effort", "per_call"):
        want, want_stats = assemble(whole, mode=mode, tokenizer=tokenizer)  # type: ignore[arg-type]
        for got, got_stats in (assemble(batch, mode=mode, tokenizer=tokenizer),  # type: ignore[arg-type]
                               assemble(events, mode=mode, tokenizer=tokenizer)):  # type: ignore[arg-type]
            assert got_stats.model_dump() == want_stats.model_dump()
            assert len(got) == len(want)
            for g, w in zip(got, want, strict=True):
                assert (g.rollout_id, g.group_id, g.sample_index, g.reward, g.policy_versions) == \
                    (w.rollout_id, w.group_id, w.sample_index, w.reward, w.policy_versions)
                assert g.input_ids.dtype == np.int32 and g.input_ids.tolist() == w.input_ids.tolist()
                assert g.loss_mask.tolist() == w.loss_mask.tolist()
                np.testing.assert_array_equal(g.rollout_logprobs, w.rollout_logprobs)


def test_extension_break_retry_attempts_and_failures_match_assemble() -> None:
    p1, a1 = [1, 2, 3], [10, 11]
    events = [
        call("r", 0, p1, [7, 7]),  # retried: dropped
        call("r", 1, p1, a1),
        call("r", 2, [*p1, *a1, 5], [12], version=None),
        call("r", 3, [1, 2, 3, 10, 11, 5, 12, 6], [13]),
        call("r", 4, [1, 2, 3, 10, 99, 4], [14]),  # break inside a response
        reward("r", 1.0, seq=5),
        call("q", 0, [9, 9], [1], attempt=1), reward("q", 0.0, seq=1, attempt=1),
        call("q", 0, [8, 8], [2], attempt=2), reward("q", 1.0, seq=1, attempt=2),
        {**call("q", 1, [8, 8, 2, 3], [4], attempt=2), "error": "upstream 502", "response_ids": None},
        call("z", 0, [4], [5]),  # no reward
    ]
    same_result(events)
    samples, stats = assemble(from_events(events))
    r = [s for s in samples if s.rollout_id == "r"]
    assert [s.input_ids.tolist() for s in r] == [[1, 2, 3, 10, 11, 5, 12, 6, 13], [1, 2, 3, 10, 99, 4, 14]]
    assert r[0].loss_mask.tolist() == [0, 0, 0, 1, 1, 0, 1, 0, 1]
    assert stats.num_retries_dropped == 1 and stats.num_superseded_attempt_events == 2
    assert stats.num_failed_calls == 1 and stats.merge_failures["rewritten_output"] + \
        stats.merge_failures["retokenize_drift"] == 1


def test_unencoded_batch_and_assemble_dispatch_agree() -> None:
    events = [call("r", 0, [1, 2], [3]), call("r", 1, [1, 2, 3, 4], [5]), reward("r", 0.5)]
    whole = from_events(events, encode=False)
    assert whole.parent.tolist() == [-1, -1, -1]
    a, _ = assemble(whole)  # assemble() takes a TokenBatch too
    b, _ = assemble(from_events(events))
    assert [s.input_ids.tolist() for s in a] == [s.input_ids.tolist() for s in b] == [[1, 2, 3, 4, 5]]


def test_gateway_style_parent_that_is_not_the_chain_end() -> None:
    """A recorder may name any earlier call as parent; the chain test then compares, and still merges."""
    b = Rows()
    kw: dict[str, Any] = {"rollout_id": "r", "group_id": "g", "attempt": 0, "kind": "model_request"}
    b.add(event_id=1, seq=1, prompt=[1, 2], response=[3], logprobs=[-0.1], **kw)
    b.add(event_id=2, seq=2, parent=1, shared=3, prompt=[4], response=[5], logprobs=[-0.2], **kw)
    # extends event 2's sequence but is stored against event 1 with a longer suffix
    b.add(event_id=3, seq=3, parent=1, shared=3, prompt=[4, 5, 6], response=[7], logprobs=[-0.3], **kw)
    b.add(event_id=4, seq=4, kind="reward", rollout_id="r", group_id="g", attempt=0, reward=1.0)
    samples, stats = assemble(b.build())
    assert stats.num_samples == 1
    assert samples[0].input_ids.tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert samples[0].loss_mask.tolist() == [0, 0, 1, 0, 1, 0, 1]


def test_reward_without_value_and_bad_mode() -> None:
    b = Rows()
    b.add(event_id=1, rollout_id="r", group_id=None, attempt=0, seq=1, kind="model_request", prompt=[1], response=[2],
          logprobs=[0.0])
    b.add(event_id=2, rollout_id="r", group_id=None, attempt=0, seq=2, kind="reward")
    with pytest.raises(DataError, match=r"event 2 \(rollout_id='r', seq=2\): value"):
        assemble(b.build())
    with pytest.raises(DataError, match="mode"):
        assemble(b.build(), mode="stitch")  # type: ignore[arg-type]


def test_real_templates_and_tokenizer_causes_match(qwen_tok: Any) -> None:
    cases = [
        (TraceConfig(turns_min=4, turns_max=7), None),
        (TraceConfig(thinking=True, turns_min=3, turns_max=5), QWEN3_THINK_DROPPING_TEMPLATE),
        (TraceConfig(drift_prob=0.5, context_edit_prob=0.3, turns_min=4, turns_max=7, obs_lines_max=20), None),
    ]
    for i, (cfg, template) in enumerate(cases):
        events = []
        for r in range(3):
            events += make_rollout_events(qwen_tok, rollout_id=f"r{i}{r}", group_id=f"g{i}", seed=10 * i + r,
                                          config=cfg, chat_template=template, reward=float(r % 2))
        same_result(events, tokenizer=qwen_tok)
        same_result(events, through_bytes=False)


@st.composite
def streams(draw: st.DrawFn) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for r in range(draw(st.integers(1, 3))):
        prev: list[int] = []
        attempt = 0
        for seq in range(draw(st.integers(1, 7))):
            how = draw(st.sampled_from(["extend", "extend", "extend", "break", "fresh", "retry", "failed",
                                        "attempt"])) if prev else "fresh"
            if how == "attempt":
                attempt += 1
                prev = []
                how = "fresh"
            if how == "extend":
                prompt = prev + draw(st.lists(st.integers(0, 20), max_size=4))
            elif how == "break":
                cut = draw(st.integers(0, len(prev)))
                prompt = prev[:cut] + draw(st.lists(st.integers(0, 20), min_size=1, max_size=5))
            elif how == "retry" and events and events[-1]["kind"] == "model_request":
                prompt = list(events[-1]["prompt_ids"])
            else:
                prompt = draw(st.lists(st.integers(0, 20), min_size=1, max_size=6))
            resp = draw(st.lists(st.integers(0, 20), min_size=1, max_size=4))
            ev = call(f"r{r}", seq, prompt, resp, attempt=attempt, version=draw(st.sampled_from([None, 0, 3])))
            if draw(st.booleans()):  # arrival order decides between retries the harness did not visibly use
                ev["t_arrival"] = draw(st.sampled_from([1.0, 2.0, 3.0]))
            if how == "failed":
                ev |= {"error": "upstream 502", "response_ids": None, "response_logprobs": None}
            events.append(ev)
            if how != "failed":
                prev = prompt + resp
        if draw(st.booleans()):
            events.append(reward(f"r{r}", float(r % 2), seq=50 + draw(st.integers(0, 3)), attempt=attempt))
    if draw(st.booleans()):
        events = draw(st.permutations(events))
    return events


@settings(max_examples=120, deadline=None)
@given(streams())
def test_any_stream_assembles_identically_from_the_encoding(events: list[dict[str, Any]]) -> None:
    same_result(events)


def test_only_the_named_rollouts_are_assembled() -> None:
    events = [call("a", 0, [1], [2]), reward("a", 1.0), call("b", 0, [3], [4]), reward("b", 0.0)]
    batch = from_events(events)
    assert batch.rows_by_rollout() == {"a": [0, 1], "b": [2, 3]}
    samples, stats = assemble(batch, rollouts=["b"])
    assert [s.rollout_id for s in samples] == ["b"] and stats.num_rollouts == 1 and stats.num_calls == 1


def test_rollout_filter_on_event_lists_and_failed_call_with_short_logprobs() -> None:
    events = [call("a", 0, [1], [2]), reward("a", 1.0), call("b", 0, [3], [4]), reward("b", 0.0)]
    samples, _ = assemble(events, rollouts={"a"})
    assert [s.rollout_id for s in samples] == ["a"]
    b = Rows()
    b.add(event_id=1, rollout_id="r", group_id=None, attempt=0, seq=1, kind="model_request", prompt=[1],
          response=[2, 3], logprobs=[-0.5], error="1 logprobs for 2 response ids")  # kept for the record
    b.add(event_id=2, rollout_id="r", group_id=None, attempt=0, seq=2, kind="model_request", prompt=[1],
          response=[4], logprobs=[-0.25])
    samples, stats = assemble(b.build())
    assert stats.num_failed_calls == 1 and [s.input_ids.tolist() for s in samples] == [[1, 4]]


def test_event_lists_are_numbered_by_position_and_unanswered_calls_fail() -> None:
    """Events gathered from several fetches may repeat ids: assembly numbers them by position (errors name the
    index). A call answered other than 200 (499: the harness never saw it) is failed, as the store's batch
    marks it, and a rollout's group is the first one its events name."""
    events = [call("a", 0, [1], [2]) | {"id": 7, "group_id": None}, call("a", 1, [1, 2, 3], [4]) | {"id": 7},
              call("a", 2, [1, 2, 3, 4, 5], [6]) | {"id": 3, "http_status": 499}, reward("a", 1.0) | {"id": 7}]
    samples, stats = assemble(events)
    assert [s.input_ids.tolist() for s in samples] == [[1, 2, 3, 4]] and stats.num_failed_calls == 1
    assert samples[0].group_id == "g-a"
    with pytest.raises(DataError, match=r"event 3 \(rollout_id='a', seq=100\): field"):
        assemble([*events[:3], {"kind": "reward", "rollout_id": "a", "seq": 100}])
