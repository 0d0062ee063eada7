"""A small synchronous client of the gateway's admin API, for the trainer, controller and runner.

Every rollout-management endpoint is idempotent, so transport failures and 502/503/504 answers
are retried with backoff for up to `retry_for_s`. Model calls never go through this client: the
harness talks to `proxy_base_url(rollout_id)` with the rollout's token.

A rollout comes back as the wire model itself (`swerl.gateway.schema.Rollout`; `RolloutCreated` with the
token), the completion feed as `CompletedPage`: the client has no rollout shape of its own.
"""

from __future__ import annotations

import time
from typing import Any

import httpx

from swerl.gateway.schema import CompletedPage, Rollout, RolloutCreated
from swerl.log import get_logger
from swerl.tokens import MEDIA_TYPE as TOKENS_MEDIA_TYPE
from swerl.tokens import TokenBatch

log = get_logger(__name__)


class GatewayError(Exception):
    """The gateway answered with a 4xx: the request itself is wrong (not retried)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


def _given(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields that were given: an unset one is left out, so the gateway applies its default."""
    return {k: v for k, v in fields.items() if v is not None}


class GatewayClient:
    MIN_TRIES = 3  # a call gives up only after its retry budget has passed AND this many tries

    def __init__(self, url: str, admin_token: str, *, timeout: float = 60.0, retry_for_s: float = 120.0) -> None:
        self.url = url.rstrip("/")
        self.retry_for_s = retry_for_s
        self._http = httpx.Client(base_url=self.url, timeout=timeout,
                                  headers={"Authorization": f"Bearer {admin_token}"})

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        deadline = time.monotonic() + self.retry_for_s
        delay = 0.05
        tries = 0
        while True:
            tries += 1
            try:
                r = self._http.request(method, path, **kw)
                if r.status_code not in (502, 503, 504):
                    break
                problem = f"HTTP {r.status_code}"
            except httpx.TransportError as exc:
                problem = repr(exc)
            # a read timeout as long as the retry budget must not end the call on its first try
            if time.monotonic() + delay > deadline and tries >= self.MIN_TRIES:
                raise GatewayError(503, f"gateway unavailable for {self.retry_for_s:.0f} s "
                                        f"({tries} tries): {problem}")
            log.info("gateway retry", path=path, problem=problem)
            time.sleep(delay)
            delay = min(delay * 2, 2.0)
        if r.status_code >= 400:
            try:
                msg = r.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                msg = r.text[:500]
            raise GatewayError(r.status_code, msg)
        if kw.get("headers", {}).get("Accept") == TOKENS_MEDIA_TYPE:
            return r.content
        return r.json() if r.content else None

    def proxy_base_url(self, rollout_id: str) -> str:
        """The OpenAI base_url a harness uses for this rollout (with the rollout's token as API key)."""
        return f"{self.url}/v1/rollouts/{rollout_id}"

    def create_rollout(self, rollout_id: str | None = None, group_id: str | None = None,
                       max_attempts: int | None = None, metadata: dict[str, Any] | None = None) -> RolloutCreated:
        """Create (or find) a rollout; `token` is set only if this call created it (else rotate_token).
        Only the fields given are compared with an existing rollout of the same id (409 if they differ)."""
        body = {"max_attempts": max_attempts, "metadata": metadata, "id": rollout_id or None,
                "group_id": group_id or None}
        return RolloutCreated.model_validate(self._call("POST", "/rollouts", json=_given(body)))

    def rollout(self, rollout_id: str) -> Rollout:
        return Rollout.model_validate(self._call("GET", f"/rollouts/{rollout_id}"))

    def rollouts(self, states: list[str] | None = None, page_size: int = 500) -> list[Rollout]:
        """All rollouts (optionally in the given states), following the cursor."""
        out: list[Rollout] = []
        cursor = None
        while True:
            page = self._call("GET", "/rollouts", params=_given({"limit": page_size, "state": states or None,
                                                                 "cursor": cursor}))
            out += [Rollout.model_validate(r) for r in page["items"]]
            cursor = page["next_cursor"]
            if cursor is None:
                return out

    def set_state(self, rollout_id: str, state: str, attempt: int | None = None,
                  reason: str | None = None) -> Rollout:
        return Rollout.model_validate(self._call(
            "PATCH", f"/rollouts/{rollout_id}", json=_given({"state": state, "attempt": attempt, "reason": reason or None})))

    def rotate_token(self, rollout_id: str) -> str:
        return self._call("POST", f"/rollouts/{rollout_id}/token")["token"]

    def add_reward(self, rollout_id: str, reward: float, attempt: int | None = None,
                   data: dict[str, Any] | None = None) -> dict[str, Any]:
        """Record the outcome reward once per attempt (retries return the first event)."""
        att = attempt if attempt is not None else self.rollout(rollout_id).attempt
        return self._call("POST", f"/rollouts/{rollout_id}/events", json={
            "kind": "reward", "reward": reward, "attempt": att, "idempotency_key": f"reward-{att}",
            "data": data or {}})

    def events(self, rollout_id: str, kinds: list[str] | None = None, include_json: bool = False) -> list[dict]:
        """All events of a rollout in seq order."""
        out: list[dict] = []
        after = 0
        while True:
            page = self._call("GET", f"/rollouts/{rollout_id}/events", params=_given(
                {"after_seq": after, "limit": 1000, "include_json": include_json, "kind": kinds or None}))
            out += page["items"]
            if len(page["items"]) < 1000:
                return out
            after = page["next_cursor"]

    def token_batch(self, rollout_ids: list[str], kinds: list[str] | None = None, current_attempt: bool = True,
                    include_json: str = "none") -> TokenBatch:
        """The events of many rollouts as one binary `TokenBatch` (delta-encoded prompts: the transfer is linear
        in unique tokens); `include_json="last"` adds each rollout's last request JSON (`requests`)."""
        body = {"rollout_ids": rollout_ids, "current_attempt": current_attempt, "include_json": include_json,
                "kinds": kinds or None}
        raw = self._call("POST", "/events/query", json=_given(body), timeout=600,
                         headers={"Accept": TOKENS_MEDIA_TYPE})
        return TokenBatch.from_bytes(raw)

    def completed(self, after: int = 0, wait_s: float = 30.0, states: list[str] | None = None,
                  limit: int = 1000) -> CompletedPage:
        """Rollouts that finished after `after` (long-polls up to wait_s); pass next_cursor back."""
        return CompletedPage.model_validate(self._call(
            "GET", "/completed", params=_given({"after": after, "wait": wait_s, "limit": limit,
                                                "state": states or None}), timeout=wait_s + 30))

    def pause(self, timeout_s: float | None = None) -> dict[str, Any]:
        """Stop admitting model calls; returns once in-flight calls drained (held calls wait)."""
        return self._call("POST", "/admin/pause", params=_given({"timeout_s": timeout_s}), timeout=None)

    def resume(self, policy_version: int) -> dict[str, Any]:
        return self._call("POST", "/admin/resume", json={"policy_version": policy_version})

    def status(self) -> dict[str, Any]:
        return self._call("GET", "/admin/status")

    def add_engine(self, url: str, model: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/admin/engines", json={"url": url, "model": model})
