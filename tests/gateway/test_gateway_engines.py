"""Embedded (real tiny Qwen2 model) and scripted engines behind the gateway: tokens round-trip exactly."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
import torch
from gateway_helpers import GatewayHandle
from scripted_engine import ScriptedEngine, scripted_logprob

from swerl.gateway.engines import InferenceEngine, RemoteEngine
from swerl.gateway.engines.embedded import EmbeddedEngine, ServedEngine

MSGS = [{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "The test fails. Fix it."}]


class _Srv:
    """The served engine's address in the shape the tests use (`srv.url`, no /v1)."""

    def __init__(self, served: ServedEngine) -> None:
        self.url = served.urls()[0].removesuffix("/v1")


@pytest.fixture
def embedded(tiny_tok: Any, tiny_model: Any) -> Iterator[tuple[EmbeddedEngine, _Srv]]:
    served = ServedEngine(EmbeddedEngine(tiny_model, tiny_tok, default_max_tokens=12))
    yield served.engine, _Srv(served)  # type: ignore[misc]
    served.close()


def _check_against_engine(ev: dict, produced: dict) -> None:
    assert ev["prompt_ids"] == produced["prompt_ids"]
    assert ev["response_ids"] == produced["token_ids"]
    assert ev["response_logprobs"] == produced["logprobs"]  # bit-exact, not approximately
    assert ev["finish_reason"] == produced["finish_reason"]


def test_recorded_tokens_and_logprobs_equal_what_the_engine_produced(
        embedded: tuple[EmbeddedEngine, _Srv], gateway_factory: Any, tiny_tok: Any, tiny_model: Any) -> None:
    eng, srv = embedded
    g: GatewayHandle = gateway_factory(upstreams=[srv.url])
    tok = g.create("emb")
    c = g.rollout_client("emb", tok)
    r1 = c.post("/chat/completions", json={"model": "x", "messages": MSGS, "temperature": 1.0, "seed": 3})
    with c.stream("POST", "/chat/completions", json={"messages": MSGS, "stream": True, "max_tokens": 6}) as s:
        streamed = [ln for ln in s.iter_lines() if ln.startswith("data: ")]
    r3 = c.post("/completions", json={"prompt": [5, 6, 7, 8], "max_tokens": 5, "temperature": 0})
    assert [r1.status_code, s.status_code, r3.status_code] == [200, 200, 200]
    assert streamed[-1] == "data: [DONE]"
    evs = g.events("emb", kind="model_request")
    assert [e["mode"] for e in evs] == ["chat", "chat", "completion"]
    produced = list(eng.history)
    assert len(produced) == 3
    for ev, p in zip(evs, produced, strict=True):
        _check_against_engine(ev, p)
    # the chat prompt is the chat template rendered and tokenised (what vLLM does)
    rendered = tiny_tok.apply_chat_template(MSGS, tokenize=False, add_generation_prompt=True)
    assert evs[0]["prompt_ids"] == tiny_tok.encode(rendered, add_special_tokens=False)
    assert evs[2]["prompt_ids"] == [5, 6, 7, 8]
    assert r1.json()["choices"][0]["message"]["content"] == tiny_tok.decode(evs[0]["response_ids"],
                                                                          skip_special_tokens=True)
    # and the logprobs are the model's: raw log-softmax at each sampled token (teacher-forced check)
    ids = torch.tensor([evs[0]["prompt_ids"] + evs[0]["response_ids"]])
    with torch.inference_mode():
        logits = tiny_model(ids).logits[0].float()
    n = len(evs[0]["prompt_ids"])
    ref = [float(torch.log_softmax(logits[n - 1 + j], -1)[t]) for j, t in enumerate(evs[0]["response_ids"])]
    assert ref == pytest.approx(evs[0]["response_logprobs"], abs=1e-4)


def test_load_weights_bumps_version_and_changes_the_policy(gateway_factory: Any, tiny_tok: Any,
                                                           tiny_model: Any) -> None:
    new: dict[str, Any] = {}
    served = ServedEngine(EmbeddedEngine(tiny_model, tiny_tok, default_max_tokens=12), weights=lambda: new)
    eng = served.engine
    g: GatewayHandle = gateway_factory(upstreams=served.urls())
    tok = g.create("w")
    c = g.rollout_client("w", tok)
    body = {"messages": MSGS, "temperature": 0, "max_tokens": 8}
    before = c.post("/chat/completions", json=body).json()
    original = {k: v.clone() for k, v in tiny_model.state_dict().items()}
    try:
        g.admin().post("/admin/pause")
        served.release()
        new.update({k: v + 0.5 * torch.randn_like(v) if v.is_floating_point() else v for k, v in original.items()})
        served.load_weights(1)  # the engine interface: the weights provider's state dict, as version 1
        assert eng.version == 1
        g.admin().post("/admin/resume", json={"policy_version": eng.version})
        after = c.post("/chat/completions", json=body)
    finally:
        eng.load_weights(original, version=0)
        served.close()
    evs = g.events("w", kind="model_request")
    assert [e["policy_version"] for e in evs] == [0, 1]
    assert evs[0]["response_logprobs"] != evs[1]["response_logprobs"]
    assert [h["version"] for h in eng.history] == [0, 1]
    assert before["choices"][0]["finish_reason"] in ("stop", "length") and after.status_code == 200


def test_continuous_token_mode_keeps_a_rollout_one_sequence(
        embedded: tuple[EmbeddedEngine, _Srv], gateway_factory: Any, tiny_tok: Any) -> None:
    eng, srv = embedded
    g: GatewayHandle = gateway_factory(upstreams=[srv.url], continuous_tokens=True, tokenizer=tiny_tok)
    tok = g.create("ct")
    c = g.rollout_client("ct", tok)
    msgs = list(MSGS)
    modes = []
    for step in range(3):
        body = {"messages": msgs, "temperature": 1.0, "max_tokens": 6 + step}
        if step < 2:
            r = c.post("/chat/completions", json=body)
            assert r.status_code == 200
            reply = r.json()["choices"][0]["message"]
        else:  # streamed calls continue the token sequence too
            with c.stream("POST", "/chat/completions", json={**body, "stream": True}) as r:
                chunks = [orjson.loads(ln[6:]) for ln in r.iter_lines() if ln.startswith("data: {")]
            assert chunks[0]["object"] == "chat.completion.chunk"
            reply = {"role": "assistant", "content": "".join(ch["choices"][0]["delta"].get("content") or ""
                                                             for ch in chunks)}
        modes.append(r.headers["x-swerl-mode"])
        msgs += [reply, {"role": "user", "content": f"observation {step}"}]
    # an edited history (the harness summarised) does not extend the last call: plain chat again
    edited = [msgs[0], {"role": "user", "content": "summary so far"}]
    assert c.post("/chat/completions", json={"messages": edited}).headers["x-swerl-mode"] == "chat"
    assert modes == ["chat", "continuous", "continuous"]
    evs = g.events("ct", kind="model_request")
    assert [e["mode"] for e in evs] == ["chat", "continuous", "continuous", "chat"]
    for prev, nxt in itertools.pairwise(evs[:3]):
        seq = prev["prompt_ids"] + prev["response_ids"]
        assert nxt["prompt_ids"][:len(seq)] == seq  # exact prior tokens, then only the new turn
    for ev, p in zip(evs, eng.history, strict=True):
        _check_against_engine(ev, p)
    assert tiny_tok.decode(evs[2]["response_ids"], skip_special_tokens=True) == msgs[-2]["content"]
    delta = tiny_tok.decode(evs[1]["prompt_ids"][len(evs[0]["prompt_ids"]) + len(evs[0]["response_ids"]):])
    assert delta.endswith("<|im_start|>user\nobservation 0<|im_end|>\n<|im_start|>assistant\n")


def test_continuer_bridges_the_end_of_turn_exactly(tiny_tok: Any) -> None:
    from swerl.gateway.continuous import Continuer, LastCall

    cont = Continuer(tiny_tok)
    p1 = tiny_tok.encode(tiny_tok.apply_chat_template(MSGS, tokenize=False, add_generation_prompt=True),
                         add_special_tokens=False)
    reply = "Let me look.\n```bash\nls\n```"
    eos = tiny_tok.eos_token_id
    nxt = {"messages": [*MSGS, {"role": "assistant", "content": reply}, {"role": "user", "content": "out"}]}
    full = tiny_tok.apply_chat_template(nxt["messages"], tokenize=False, add_generation_prompt=True)
    for ended in (True, False):  # sampled <|im_end|> vs cut by max_tokens
        a1 = tiny_tok.encode(reply, add_special_tokens=False) + ([eos] if ended else [])
        prompt = cont.plan(LastCall([(m["role"], m["content"]) for m in MSGS], p1, a1, reply), nxt)
        assert prompt is not None and prompt[:len(p1) + len(a1)] == p1 + a1
        assert tiny_tok.decode(prompt) == full  # same text as a fresh render, but the sampled ids kept
        assert prompt.count(eos) == full.count("<|im_end|>")
    assert cont.plan(None, nxt) is None
    last = LastCall([(m["role"], m["content"]) for m in MSGS], p1, [eos], "other text")
    assert cont.plan(last, nxt) is None  # the harness sent back something else
    assert cont.plan(LastCall([(m["role"], m["content"]) for m in MSGS], p1, [eos], reply),
                     {**nxt, "tools": [{"type": "function"}]}) is None


def test_continuer_falls_back_when_the_template_rewrites_history(tiny_tok: Any) -> None:
    from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE

    from swerl.gateway.continuous import Continuer, LastCall

    tok = copy.deepcopy(tiny_tok)
    tok.chat_template = QWEN3_THINK_DROPPING_TEMPLATE
    reply = "<think>\nhmm\n</think>\n\nls"
    msgs = [*MSGS, {"role": "assistant", "content": reply}, {"role": "user", "content": "out"}]
    last = LastCall([(m["role"], m["content"]) for m in MSGS], [1, 2], [3, tok.eos_token_id], reply)
    assert Continuer(tiny_tok).plan(last, {"messages": msgs}) is not None  # Qwen2.5's template keeps it
    assert Continuer(tok).plan(last, {"messages": msgs}) is None  # Qwen3's drops the think block: fall back


def test_scripted_engine_plays_its_script_with_real_token_ids(gateway_factory: Any, tiny_tok: Any) -> None:
    script = ["THOUGHT: look\n```bash\nls\n```", "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"]
    served = ServedEngine(ScriptedEngine(tiny_tok, script))
    try:
        g: GatewayHandle = gateway_factory(upstreams=served.urls())
        tok = g.create("sc")
        c = g.rollout_client("sc", tok)
        msgs = list(MSGS)
        for step in range(3):
            r = c.post("/chat/completions", json={"messages": msgs})
            content = r.json()["choices"][0]["message"]["content"]
            assert content == script[min(step, 1)]
            msgs += [{"role": "assistant", "content": content}, {"role": "user", "content": "ok"}]
        evs = g.events("sc", kind="model_request", include_json=True)
        for step, ev in enumerate(evs):
            want = [*tiny_tok.encode(script[min(step, 1)], add_special_tokens=False), tiny_tok.eos_token_id]
            assert ev["response_ids"] == want
            assert ev["response_logprobs"] == [scripted_logprob(j) for j in range(len(want))]
            assert orjson.loads(orjson.dumps(ev["request"]))["messages"][-1]["role"] == "user"
        served.load_weights(4)  # no weights to load: the version still moves on
        assert served.engine.version == 4 and served.busy_seconds()[1] == sum(len(e["response_ids"]) for e in evs)
    finally:
        served.close()


def test_every_engine_kind_speaks_the_one_interface(tiny_tok: Any, fake: Any) -> None:
    calls: list[tuple] = []

    class Owner:  # what verl's backend does with its vLLM replicas
        def release_engine(self) -> None:
            calls.append(("release",))

        def sync_weights(self, version: int) -> None:
            calls.append(("sync", version))

        def shutdown(self) -> None:
            calls.append(("shutdown",))

    remote = RemoteEngine(["http://10.0.0.1:8000/v1"], Owner())
    served = ServedEngine(ScriptedEngine(tiny_tok, ["hi"]))
    try:
        for e in (remote, served, fake):
            assert isinstance(e, InferenceEngine)
            assert all(u.endswith("/v1") for u in e.urls())
        remote.release()
        remote.load_weights(2)
        remote.close()
        assert calls == [("release",), ("sync", 2), ("shutdown",)]
        assert RemoteEngine(["http://x/v1"]).busy_seconds() == (0.0, 0)  # unowned: lifecycle is not ours
        models = httpx.get(served.urls()[0] + "/models").json()["data"][0]
        assert models["max_model_len"] == served.engine.max_model_len  # the context limit the gateway checks
    finally:
        served.close()


def test_a_prompt_past_the_context_is_the_clients_400_not_an_engine_fault(tiny_tok: Any, tiny_model: Any,
                                                                          gateway_factory: Any) -> None:
    """The embedded engine refuses a prompt that fills its context the way vLLM does (400, "maximum context
    length"), so the gateway passes a 400 on and the rollout classifier sees a context overflow, not an outage
    to retry (`rollout.context_overflow`)."""
    from swerl.rollout.classify import is_context_overflow

    served = ServedEngine(EmbeddedEngine(tiny_model, tiny_tok, default_max_tokens=4, max_context=16))
    try:
        g: GatewayHandle = gateway_factory(upstreams=[_Srv(served).url])
        c = g.rollout_client("long", g.create("long"))
        r = c.post("/completions", json={"prompt": list(range(5, 25)), "max_tokens": 4})
        assert r.status_code == 400, r.text
        assert "maximum context length is 16 tokens" in r.text

        class Refused(Exception):
            status_code = r.status_code

        assert is_context_overflow(Refused(r.text))
        ok = c.post("/completions", json={"prompt": [5, 6, 7], "max_tokens": 4, "temperature": 0})
        assert ok.status_code == 200  # a prompt that fits is served as before
    finally:
        served.close()
