"""What the proxy records from a call, and what it hands back to the harness.

The gateway asks the engine for token ids and logprobs (vLLM's
`return_token_ids`, `logprobs`); the harness gets the ordinary OpenAI response
without the fields it did not ask for. Stored request/response JSON has
secrets redacted and the (bulky) token arrays removed: those live in compact
columns.
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
    _fill(t, (top if "prompt_token_ids" in d else own) if chat else (own if "prompt_token_ids" in ch else top),
          ch.get("token_ids"))
    lp = ch.get("logprobs")
    values = lp.get("content" if chat else "token_logprobs") if isinstance(lp, dict) else None
    if isinstance(values, list):
        try:
            t.logprobs = array("d", [e["logprob"] for e in values] if chat else values)
        except (TypeError, KeyError):
            t.problems.append("logprobs malformed")
    else:
        t.problems.append("logprobs missing")
    _check(t)
    return t


def _fill(t: Tokens, prompt: Any, response: Any) -> None:
    for name, val in (("prompt_ids", prompt), ("response_ids", response)):
        try:
            setattr(t, name, _int_array(val, name))
        except BadUpstreamResponse as exc:
            t.problems.append(str(exc))


def _check(t: Tokens) -> None:
    if t.logprobs is not None and t.response_ids is not None and len(t.logprobs) != len(t.response_ids):
        t.problems.append(f"{len(t.logprobs)} logprobs for {len(t.response_ids)} response ids")


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
