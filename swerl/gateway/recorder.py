"""What the proxy records from a call, and what it hands back to the harness.

The gateway asks the engine for token ids and logprobs (vLLM's `return_token_ids`, `logprobs`);
the harness gets the ordinary OpenAI response without the fields it did not ask for. Stored
request/response JSON has secrets redacted and no token arrays (those live in compact columns).
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from typing import Any

import orjson

REDACTED = "[REDACTED]"
_SECRET_KEY = re.compile(r"(api[_-]?key|authorization|secret|password|passwd|token$|access[_-]?token|bearer)",
                         re.IGNORECASE)
# Keys whose *values* are data, not secrets, even though the name matches (e.g. max_tokens).
_NOT_SECRET = frozenset({"max_tokens", "max_completion_tokens", "return_token_ids", "prompt_token_ids",
                         "token_ids", "stop_token_ids", "logit_bias"})


class BadUpstreamResponse(Exception):
    """The engine answered 200 but without usable token ids/logprobs."""


@dataclass(slots=True)
class Tokens:
    prompt_ids: array | None = None
    response_ids: array | None = None
    logprobs: array | None = None
    finish_reason: str | None = None
    text: str = ""
    problems: list[str] = field(default_factory=list)

    def checked(self) -> Tokens:
        """Self, with a problem noted if the log-probs do not match the response ids one for one."""
        if self.logprobs is not None and self.response_ids is not None and len(self.logprobs) != len(self.response_ids):
            self.problems.append(f"{len(self.logprobs)} logprobs for {len(self.response_ids)} response ids")
        return self


def _secretish(key: str) -> bool:
    return key not in _NOT_SECRET and _SECRET_KEY.search(key) is not None


def _redact(obj: Any) -> tuple[Any, bool]:
    if isinstance(obj, dict):
        changed = False
        out = {}
        for k, v in obj.items():
            if isinstance(k, str) and _secretish(k) and v is not None:
                out[k] = REDACTED
                changed = True
            else:
                out[k], c = _redact(v)
                changed |= c
        return (out, True) if changed else (obj, False)
    if isinstance(obj, list):
        items = [_redact(v) for v in obj]
        if any(c for _, c in items):
            return [v for v, _ in items], True
        return obj, False
    return obj, False


# Conversation payloads: walking them per call is costly and their secrets are caught by value below.
_PAYLOAD_KEYS = frozenset({"messages", "prompt", "tools", "functions"})


def redacted_json(raw: bytes, parsed: Any, secrets: tuple[str, ...]) -> bytes:
    """The request as stored: secret-named keys blanked and any known token string removed."""
    if isinstance(parsed, dict):
        top = {k: v for k, v in parsed.items() if k not in _PAYLOAD_KEYS}
        red, changed = _redact(top)
        obj = {**parsed, **red} if changed else parsed
    else:
        obj, changed = _redact(parsed)
    out = orjson.dumps(obj) if changed else raw
    for s in secrets:
        if s and s.encode() in out:
            out = out.replace(s.encode(), REDACTED.encode())
    return out


def _int_array(x: Any, what: str) -> array:
    if not isinstance(x, list):
        raise BadUpstreamResponse(f"{what} missing")
    try:
        return array("i", x)
    except (TypeError, OverflowError) as exc:
        raise BadUpstreamResponse(f"{what} are not int32 token ids") from exc


def extract(d: dict[str, Any], chat: bool) -> Tokens:
    """Token ids and logprobs of a vLLM-style chat or text completion.

    Chat: prompt ids top-level (or on the choice), logprobs in `logprobs.content[].logprob`;
    completion: prompt ids on the choice (or top-level), logprobs in `logprobs.token_logprobs`.
    """
    t = Tokens()
    choices = d.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise BadUpstreamResponse("no choices")
    ch = choices[0]
    t.finish_reason = ch.get("finish_reason") if isinstance(ch.get("finish_reason"), str) else None
    text = ch.get("message", {}).get("content") if chat and isinstance(ch.get("message"), dict) else ch.get("text")
    t.text = text if isinstance(text, str) else ""
    top, own = d.get("prompt_token_ids"), ch.get("prompt_token_ids")
    prompt = (top if "prompt_token_ids" in d else own) if chat else (own if "prompt_token_ids" in ch else top)
    for name, val in (("prompt_ids", prompt), ("response_ids", ch.get("token_ids"))):
        try:
            setattr(t, name, _int_array(val, name))
        except BadUpstreamResponse as exc:
            t.problems.append(str(exc))
    lp = ch.get("logprobs")
    values = lp.get("content" if chat else "token_logprobs") if isinstance(lp, dict) else None
    if isinstance(values, list):
        try:
            t.logprobs = array("f", [e["logprob"] for e in values] if chat else values)
        except (TypeError, KeyError):
            t.problems.append("logprobs malformed")
    else:
        t.problems.append("logprobs missing")
    return t.checked()


def strip_for_client(d: dict[str, Any], want_ids: bool, want_logprobs: bool) -> dict[str, Any]:
    """Remove (in place) what the gateway added to the request; returns d."""
    if not want_ids:
        d.pop("prompt_token_ids", None)
    choices = d.get("choices")
    if isinstance(choices, list):
        for ch in choices:
            if not isinstance(ch, dict):
                continue
            if not want_ids:
                ch.pop("token_ids", None)
                ch.pop("prompt_token_ids", None)
            if not want_logprobs and "logprobs" in ch:
                ch["logprobs"] = None
    return d


def for_storage(d: dict[str, Any]) -> bytes:
    """The response as stored: token arrays and logprobs live in their own columns, not here."""
    out = {k: v for k, v in d.items() if k != "prompt_token_ids"}
    choices = d.get("choices")
    if isinstance(choices, list):
        out["choices"] = [{k: v for k, v in ch.items() if k not in ("token_ids", "prompt_token_ids", "logprobs")}
                          if isinstance(ch, dict) else ch for ch in choices]
    return orjson.dumps(out)


def error_json(message: str, type_: str, code: int | str | None) -> bytes:
    return orjson.dumps({"error": {"message": message, "type": type_, "code": code}})


# ---- delta-encoded request JSON: a harness re-sends its whole conversation every call, so a request
# whose `messages` (or `prompt`) starts with an earlier one's is stored against it (`req_parent`,
# `req_shared`: how many leading messages, prompt characters or ids are the parent's).

PAYLOAD_KEYS = ("messages", "prompt")
"""The request fields that grow every turn (chat, completions) and are stored as a shared prefix + tail."""


@dataclass(slots=True)
class RequestHead:
    """A stored request that later requests of the rollout may be stored against (parsed, full)."""

    event_id: int
    request: dict[str, Any]
    key: str  # the payload key: "messages" or "prompt"


def _payload(req: Any) -> str | None:
    if not isinstance(req, dict):
        return None
    for key in PAYLOAD_KEYS:
        if isinstance(req.get(key), list | str):
            return key
    return None


def _common(a: list | str, b: list | str) -> int:
    """Length of the longest common prefix of two lists (element equality) or two strings."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    if isinstance(a, str):  # binary search on slices: log(n) memcmps instead of a Python loop per character
        lo, hi = 0, n - 1  # a[:lo] == b[:lo] holds, a[:hi + 1] != b[:hi + 1]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if a[:mid] == b[:mid]:
                lo = mid
            else:
                hi = mid - 1
        return lo
    i = 0
    while a[i] == b[i]:
        i += 1
    return i


def encode_request(stored: bytes, parsed: Any, heads: list[RequestHead]
                   ) -> tuple[bytes, int | None, int | None, RequestHead | None, bool]:
    """(bytes to store, parent event id, shared length, this request as a head once committed, whether it
    extends the parent's whole payload, so the parent head can be dropped).

    `stored` is the (redacted) request as stored whole, `parsed` the same parsed. Against the head
    sharing the longest payload prefix, the record is `{"key": payload key, "keys": every key in
    order, "new": the payload's tail, "set": {keys whose value differs from the parent's}}`; sharing
    nothing, the request is stored whole. `decode_request` inverts it exactly.
    """
    key = _payload(parsed)
    if key is None:
        return stored, None, None, None, False
    payload = parsed[key]
    best: RequestHead | None = None
    shared = 0
    for h in heads:
        other = h.request[key] if h.key == key else None
        if other is None or type(other) is not type(payload) or min(len(other), len(payload)) <= shared:
            continue
        s = _common(other, payload)
        if s > shared:
            best, shared = h, s
    me = RequestHead(0, parsed, key)
    if best is None:
        return stored, None, None, me, False
    base = best.request
    extends = shared == len(base[key])
    record = {"key": key, "keys": list(parsed), "new": payload[shared:],
              "set": {k: v for k, v in parsed.items() if k != key and (k not in base or base[k] != v)}}
    try:
        return orjson.dumps(record), best.event_id, shared, me, extends
    except (TypeError, orjson.JSONEncodeError):  # cannot happen for parsed JSON; never lose a request over it
        return stored, None, None, me, False


def decode_request(record: dict[str, Any], shared: int, parent: dict[str, Any]) -> dict[str, Any]:
    """The full request of a delta record (`encode_request`), given its parent's full request."""
    key, changed = record["key"], record["set"]
    out: dict[str, Any] = {}
    for k in record["keys"]:
        if k == key:
            out[k] = parent[key][:shared] + record["new"]
        else:
            out[k] = changed[k] if k in changed else parent[k]
    return out


def add_head(heads: list[RequestHead], new: RequestHead, parent: int | None, extends: bool, k: int = 4) -> list:
    """The rollout's request heads after `new` committed: it replaces a parent it extends; at most k kept."""
    keep = [h for h in heads if not (extends and h.event_id == parent)]
    return [new, *keep][:k]
