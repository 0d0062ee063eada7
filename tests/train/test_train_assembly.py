"""Sample assembly (docs/algorithms.md secs. 1-2): merging, retries, attempts, failure causes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE, TraceConfig, make_rollout_events

from swerl.errors import DataError
from swerl.train.assembly import assemble, classify_merge_failure
from swerl.train.schema import MERGE_FAILURE_CAUSES, Event


def call(rid: str, seq: int, prompt: list[int], response: list[int], *, group: str = "g", version: int = 0,
         attempt: int = 0) -> dict[str, Any]:
    return {"kind": "model_request", "rollout_id": rid, "group_id": group, "seq": seq, "attempt": attempt,
            "prompt_ids": prompt, "response_ids": response,
            "response_logprobs": [-(seq + 1) / 10 - k / 100 for k in range(len(response))], "policy_version": version}


def reward(rid: str, value: float, seq: int = 100, group: str = "g") -> dict[str, Any]:
    return {"kind": "reward", "rollout_id": rid, "group_id": group, "seq": seq, "value": value}


def test_prefix_extension_merges_and_aligns_mask_and_logprobs() -> None:
    p1, a1 = [1, 2, 3], [10, 11]
    p2 = [*p1, *a1, 4, 5]  # S ++ observation
    a2 = [12]
    samples, stats = assemble([call("r", 0, p1, a1, version=3), call("r", 1, p2, a2, version=4), reward("r", 1.0)])
    assert stats.num_samples == 1 and stats.single_sample_fraction == 1.0
    (s,) = samples
    assert s.input_ids.tolist() == [1, 2, 3, 10, 11, 4, 5, 12]
    assert s.loss_mask.tolist() == [0, 0, 0, 1, 1, 0, 0, 1]
    np.testing.assert_allclose(s.rollout_logprobs, [0, 0, 0, -0.1, -0.11, 0, 0, -0.2], rtol=1e-6)
    assert s.policy_versions == [3, 4] and s.reward == 1.0 and s.sample_index == 0 and s.group_id == "g"
    assert s.num_response_tokens == 3


def test_mismatch_closes_and_never_stitches() -> None:
    p1, a1 = [1, 2, 3], [10, 11]
    p2 = [1, 2, 3, 10, 99, 4]  # the harness re-rendered a1 differently
    samples, stats = assemble([call("r", 0, p1, a1), call("r", 1, p2, [12]), reward("r", 0.0)])
    assert [s.input_ids.tolist() for s in samples] == [[1, 2, 3, 10, 11], [1, 2, 3, 10, 99, 4, 12]]
    assert [s.loss_mask.tolist() for s in samples] == [[0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0, 1]]
    assert [s.sample_index for s in samples] == [0, 1]
    assert stats.mean_samples_per_rollout == 2.0 and stats.samples_per_rollout == {2: 1}
    assert sum(stats.merge_failures.values()) == 1


def test_retries_keep_only_the_latest_and_attempts_supersede() -> None:
    p1 = [1, 2, 3]
    events = [
        call("r", 0, p1, [7, 7]),  # retried: dropped
        call("r", 1, p1, [10, 11]),  # the retry that the harness used
        call("r", 2, [1, 2, 3, 10, 11, 5], [12]),
        reward("r", 1.0, seq=3),
        # an earlier infra-failed attempt of rollout q, then its retry
        call("q", 0, [9, 9], [1], attempt=1), reward("q", 0.0, seq=1) | {"attempt": 1},
        call("q", 0, [8, 8], [2], attempt=2), reward("q", 1.0, seq=1) | {"attempt": 2},
        {**call("q", 1, [8, 8, 2, 3], [4], attempt=2), "error": "upstream 502", "response_ids": None},
    ]
    samples, stats = assemble(events)
    r = [s for s in samples if s.rollout_id == "r"]
    assert len(r) == 1 and r[0].input_ids.tolist() == [1, 2, 3, 10, 11, 5, 12]
    q = [s for s in samples if s.rollout_id == "q"]
    assert len(q) == 1 and q[0].input_ids.tolist() == [8, 8, 2] and q[0].reward == 1.0
    assert stats.num_retries_dropped == 1 and stats.num_superseded_attempt_events == 2
    assert stats.num_failed_calls == 1 and stats.num_calls == 3


def test_per_call_mode_and_rewards() -> None:
    events = [call("a", 0, [1], [2]), call("a", 1, [1, 2, 3], [4]), reward("a", 0.0, seq=5), reward("a", 1.0, seq=6),
              call("b", 0, [5], [6]), {"kind": "reward", "rollout_id": "b", "group_id": "g", "seq": 2, "reward": 0.5}]
    samples, stats = assemble(events, mode="per_call")
    assert [(s.rollout_id, s.input_ids.tolist()) for s in samples] == [("a", [1, 2]), ("a", [1, 2, 3, 4]), ("b", [5, 6])]
    assert [s.reward for s in samples] == [1.0, 1.0, 0.5]  # latest reward wins; gateway's `reward` field accepted
    assert stats.merge_failures == dict.fromkeys(MERGE_FAILURE_CAUSES, 0)
    merged, _ = assemble(events)
    assert len(merged) == 2


def test_bad_events_name_the_field() -> None:
    with pytest.raises(DataError, match=r"event 1 \(rollout_id='r', seq=1\): field response_logprobs"):
        assemble([call("r", 0, [1], [2]), {**call("r", 1, [1, 2], [3, 4]), "response_logprobs": "x"}])
    with pytest.raises(DataError, match="response_logprobs has 1 values for 2 response_ids"):
        assemble([{**call("r", 0, [1], [2, 3]), "response_logprobs": [0.0]}])
    with pytest.raises(DataError, match="field prompt_ids"):
        assemble([call("r", 0, [1, -5], [2])])
    with pytest.raises(DataError, match="field group_id"):
        assemble([call("r", 0, [1], [2], group="a"), call("r", 1, [1, 2], [3], group="b")])
    with pytest.raises(DataError, match=r"mode .stitch."):
        assemble([], mode="stitch")  # type: ignore[arg-type]


def test_events_accept_arrays_and_gateway_blobs() -> None:
    prompt = np.array([5, 6, 7], dtype=np.int32)
    ev = Event.model_validate({"kind": "model_request", "rollout_id": "r", "seq": 1, "prompt_ids": prompt.tobytes(),
                               "response_ids": np.array([8, 9]), "response_logprobs": np.array([-1.0, -2.5], dtype="<f4").tobytes()})
    assert ev.prompt_ids.tolist() == [5, 6, 7] and ev.response_logprobs.tolist() == [-1.0, -2.5]
    samples, _ = assemble([ev])
    assert samples[0].group_id == "r"  # no group: a group of one


# ---- failure causes with token-level evidence (no tokenizer) -------------------------------------------

THINK, END_THINK = 151667, 151668


def test_classify_context_edit_and_shortened_history() -> None:
    seq = np.array([1, 2, 3, 10, 11, 4, 5, 12])
    spans = [(3, 5), (7, 8)]
    assert classify_merge_failure(seq, spans, np.array([1, 2, 3, 10, 11, 4, 6, 12, 9])) == "context_edit"
    assert classify_merge_failure(seq, spans, np.array([1, 9, 3])) == "context_edit"
    assert classify_merge_failure(seq, spans, np.array([1, 2, 3, 10])) == "context_edit"  # history shortened


def test_classify_think_drift_rewrite_without_tokenizer() -> None:
    prompt = [1, 2, 3]
    resp = [THINK, 20, 21, END_THINK, 30, 31, 32, 33, 151645]
    seq = np.array(prompt + resp)
    spans = [(3, 3 + len(resp))]
    dropped = np.array([*prompt, 30, 31, 32, 33, 151645, 7, 8])
    assert classify_merge_failure(seq, spans, dropped) == "think_dropped"
    drift = np.array([*prompt, THINK, 20, 21, END_THINK, 30, 40, 41, 32, 33, 151645, 7])  # token 31 -> 40, 41
    assert classify_merge_failure(seq, spans, drift) == "retokenize_drift"
    inside_think = np.array([*prompt, THINK, 20, 50, 51, END_THINK, 30, 31, 32, 33, 151645, 7])
    assert classify_merge_failure(seq, spans, inside_think) == "retokenize_drift"
    rewritten = np.array([*prompt, THINK, 20, 21, END_THINK, 60, 61, 62, 63, 64, 65, 151645, 7])
    assert classify_merge_failure(seq, spans, rewritten) == "rewritten_output"
    # Qwen3.5: the generation prompt ends with `<think>` "\n", the reply is the reasoning's body onwards; the
    # re-rendered history drops the whole block, so the first difference is the prompt's `<think>`
    gen = [1, 2, 3, THINK, 9]
    seq35 = np.array([*gen, 20, 21, END_THINK, 30, 31, 32, 33, 151645])
    dropped35 = np.array([1, 2, 3, 30, 31, 32, 33, 151645, 7, 8])
    assert classify_merge_failure(seq35, [(len(gen), len(seq35))], dropped35) == "think_dropped"


# ---- the real Qwen2.5 tokenizer and chat templates -----------------------------------------------------

def _qwen_conversation_events(tok: Any, responses: list[list[int]], template: str | None) -> list[dict[str, Any]]:
    msgs: list[dict[str, str]] = [{"role": "system", "content": "You are a shell agent."},
                                  {"role": "user", "content": "Fix the failing test in src/app.py."}]
    events = []
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    for i, resp in enumerate(responses):
        text = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True, chat_template=template)
        events.append(call("r", i, tok.encode(text, add_special_tokens=False), [*resp, im_end]))
        msgs += [{"role": "assistant", "content": tok.decode(resp)},
                 {"role": "user", "content": f"<returncode>0</returncode>\n<output>\nline {i}\n</output>"}]
    return [*events, reward("r", 1.0)]


REPLIES = [
    "<think>\nThe test fails; look at the file first.\n</think>\n\nTHOUGHT: Read the source.\n\n```bash\ncat src/app.py\n```",
    "<think>\nThe bug is an off-by-one.\n</think>\n\nTHOUGHT: Fix it.\n\n```bash\nsed -i 's/< n/<= n/' src/app.py\n```",
    "<think>\nRun the tests.\n</think>\n\nTHOUGHT: Verify.\n\n```bash\npython -m pytest -q\n```",
    "THOUGHT: Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
]


def test_qwen_history_keeping_template_merges_into_one_sample(qwen_tok: Any) -> None:
    responses = [qwen_tok.encode(r, add_special_tokens=False) for r in REPLIES]
    events = _qwen_conversation_events(qwen_tok, responses, None)
    samples, stats = assemble(events, tokenizer=qwen_tok)
    assert stats.num_samples == 1 and stats.merge_failures == dict.fromkeys(MERGE_FAILURE_CAUSES, 0)
    (s,) = samples
    last = events[-2]
    assert s.input_ids.tolist() == last["prompt_ids"] + last["response_ids"]
    # every sampled response appears under mask 1, in order, with nothing else masked in
    assert s.input_ids[s.loss_mask > 0].tolist() == [t for e in events[:-1] for t in e["response_ids"]]


def test_qwen_think_dropping_template_splits_as_think_dropped(qwen_tok: Any) -> None:
    responses = [qwen_tok.encode(r, add_special_tokens=False) for r in REPLIES]
    events = _qwen_conversation_events(qwen_tok, responses, QWEN3_THINK_DROPPING_TEMPLATE)
    for tok in (qwen_tok, None):
        _samples, stats = assemble(events, tokenizer=tok)
        assert stats.num_samples == 4
        assert stats.merge_failures["think_dropped"] == 3 and sum(stats.merge_failures.values()) == 3


def test_qwen_retokenize_boundary_drift(qwen_tok: Any) -> None:
    # The model sampled "\n" "\n" as two tokens; rendering the decoded text and re-encoding it gives
    # one "\n\n" token: Tok(Decode(a)) != a at a token boundary.
    head = qwen_tok.encode("THOUGHT: Read the source.\n", add_special_tokens=False)
    tail = qwen_tok.encode("\n```bash\ncat src/app.py\n```", add_special_tokens=False)
    sampled = head + tail
    assert qwen_tok.encode(qwen_tok.decode(sampled), add_special_tokens=False) != sampled
    responses = [sampled, qwen_tok.encode(REPLIES[3], add_special_tokens=False)]
    events = _qwen_conversation_events(qwen_tok, responses, None)
    for tok in (qwen_tok, None):
        _samples, stats = assemble(events, tokenizer=tok)
        assert stats.num_samples == 2 and stats.merge_failures["retokenize_drift"] == 1, tok


def test_qwen_drift_across_the_template_boundary(qwen_tok: Any) -> None:
    # A reply starting with "\n": the template's "assistant\n" and the reply's "\n" re-encode as one
    # "\n\n" token, so the first mismatch is one token *before* the response, in template text.
    sampled = qwen_tok.encode("\nTHOUGHT: Read it.\n\n```bash\ncat src/app.py\n```", add_special_tokens=False)
    events = _qwen_conversation_events(qwen_tok, [sampled, qwen_tok.encode(REPLIES[3], add_special_tokens=False)], None)
    for tok in (qwen_tok, None):
        _samples, stats = assemble(events, tokenizer=tok)
        assert stats.num_samples == 2 and stats.merge_failures["retokenize_drift"] == 1, (tok, stats.merge_failures)
    # a real edit of the same template text is still a context edit
    seq = np.array(events[0]["prompt_ids"] + events[0]["response_ids"])
    s = len(events[0]["prompt_ids"])
    edited = seq.copy()
    edited[s - 1] = qwen_tok.encode(":", add_special_tokens=False)[0]
    for tok in (qwen_tok, None):
        assert classify_merge_failure(seq, [(s, len(seq))], edited, tokenizer=tok) == "context_edit"


def test_qwen_rewritten_output_and_template_trim(qwen_tok: Any) -> None:
    im_end = qwen_tok.convert_tokens_to_ids("<|im_end|>")
    prompt = qwen_tok.encode(qwen_tok.apply_chat_template([{"role": "user", "content": "go"}], tokenize=False,
                                                          add_generation_prompt=True), add_special_tokens=False)
    sampled = [*qwen_tok.encode('<tool_call>\n{"name":"bash","arguments":{"command":"ls"}}\n</tool_call>\n', add_special_tokens=False), im_end]
    seq = np.array(prompt + sampled)
    spans = [(len(prompt), len(seq))]

    def rendered(content: str) -> np.ndarray:
        msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": content},
                {"role": "user", "content": "ok"}]
        text = qwen_tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
        return np.array(qwen_tok.encode(text, add_special_tokens=False))

    parser_json = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>'
    assert classify_merge_failure(seq, spans, rendered(parser_json), tokenizer=qwen_tok) == "rewritten_output"
    trimmed = '<tool_call>\n{"name":"bash","arguments":{"command":"ls"}}\n</tool_call>'  # trailing "\n" stripped
    assert classify_merge_failure(seq, spans, rendered(trimmed), tokenizer=qwen_tok) == "other"


def test_generated_traces_cover_every_detected_cause(qwen_tok: Any) -> None:
    cases = {
        "think_dropped": (TraceConfig(thinking=True, turns_min=3, turns_max=4), QWEN3_THINK_DROPPING_TEMPLATE),
        "retokenize_drift": (TraceConfig(drift_prob=1.0, turns_min=3, turns_max=4), None),
        "context_edit": (TraceConfig(context_edit_prob=1.0, turns_min=4, turns_max=5, obs_lines_max=20), None),
    }
    for cause, (cfg, template) in cases.items():
        events = make_rollout_events(qwen_tok, rollout_id="r", group_id="g", seed=1, config=cfg,
                                     chat_template=template, reward=1.0)
        _, stats = assemble(events, tokenizer=qwen_tok)
        assert stats.merge_failures[cause] >= 1, (cause, stats.merge_failures)
        assert sum(stats.merge_failures.values()) == stats.merge_failures[cause], stats.merge_failures


# ---- invariants ----------------------------------------------------------------------------------------

@st.composite
def rollouts(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Random call chains where each prompt either extends S or is a fresh/perturbed prompt."""
    events: list[dict[str, Any]] = []
    for r in range(draw(st.integers(1, 3))):
        prev: list[int] = []
        for seq in range(draw(st.integers(1, 6))):
            kind = draw(st.sampled_from(["extend", "extend", "fresh", "retry"])) if prev else "fresh"
            if kind == "extend":
                prompt = prev + draw(st.lists(st.integers(0, 50), min_size=0, max_size=4))
            elif kind == "retry" and events and events[-1]["kind"] == "model_request":
                prompt = list(events[-1]["prompt_ids"])
            else:
                prompt = draw(st.lists(st.integers(0, 50), min_size=1, max_size=6))
            resp = draw(st.lists(st.integers(0, 50), min_size=1, max_size=4))
            events.append(call(f"r{r}", seq, prompt, resp))
            prev = prompt + resp
        events.append(reward(f"r{r}", float(r % 2)))
    return events


@settings(max_examples=60, deadline=None)
@given(rollouts())
def test_assembly_loses_and_duplicates_no_response_token(events: list[dict[str, Any]]) -> None:
    samples, stats = assemble(events)
    _, per_call = assemble(events, mode="per_call")
    assert stats.num_calls == per_call.num_calls
    assert stats.num_response_tokens == per_call.num_response_tokens  # each kept response trained exactly once
    for s in samples:
        assert s.loss_mask[0] == 0  # never a response at position 0
        assert np.all(s.rollout_logprobs[s.loss_mask == 0] == 0)
    by_rollout: dict[str, list[int]] = {}
    for s in samples:
        by_rollout.setdefault(s.rollout_id, []).append(s.sample_index)
    assert all(v == list(range(len(v))) for v in by_rollout.values())
    assert stats.num_rollouts == len(by_rollout) and stats.num_samples == len(samples)
    assert stats.num_samples - stats.num_rollouts == sum(stats.merge_failures.values())
