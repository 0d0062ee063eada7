"""The gateway's state and rules behind the HTTP routers: rollouts, events, tokens, pause/resume.

The store is the truth; a bounded cache of rollouts (finished ones evicted first) serves the hot
path without a read per call. A state change hits the cache before its write commits (concurrent
requests see it at once) and is reverted if the commit fails; a no-op repeat waits for that
commit, so nothing is acknowledged before it is durable.
"""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import orjson

from swerl.config import GatewaySettings
from swerl.gateway import sql
from swerl.gateway.auth import bearer, new_token, same, token_hash
from swerl.gateway.control import Gate
from swerl.gateway.errors import ApiError
from swerl.gateway.recorder import RequestHead, add_head, encode_request
from swerl.gateway.schema import NewEvent, RolloutCreate
from swerl.gateway.states import TERMINAL, TRAINABLE, TransitionError, transition
from swerl.gateway.store import Store, StoreError
from swerl.gateway.upstream import Engines, Retry
from swerl.log import get_logger
from swerl.tokens import Heads, Parent, as_ids, encode_prompt

log = get_logger(__name__)


@dataclass(slots=True)
class RolloutRec:
    n: int
    id: str
    group_id: str
    state: str
    attempt: int
    max_attempts: int
    token_hash: bytes
    engine: str | None
    metadata: dict[str, Any]
    created: float
    updated: float
    held_total: float = 0.0  # seconds the rollout's calls were held by finished holds (persisted)
    pending: int = 0
    last_write: asyncio.Future | None = None
    last_call: Any = None  # continuous-token mode: the previous call (see continuous.py)
    tok_heads: Heads = field(default_factory=Heads)  # recent calls: the bases of the next prompt's delta record
    req_heads: list[RequestHead] = field(default_factory=list)  # recent requests: bases of the next request's
    holding: int = 0
    hold_since: float = 0.0

    def add_heads(self, event_id: int, tok: tuple[int, bytes, int | None, bool] | None,
                  req: tuple[RequestHead, int | None, bool] | None) -> None:
        """A call committed as `event_id`: later calls may be stored against its tokens and request.
        `tok`: (attempt, prompt ++ response, parent, extends it); `req`: (request head, parent, extends it)."""
        if tok is not None:
            attempt, full, parent, extends = tok
            self.tok_heads.add(Parent(event_id, attempt, full), parent, extends)
        if req is not None:
            head, parent, extends = req
            head.event_id = event_id
            self.req_heads = add_head(self.req_heads, head, parent, extends)

    def encode_tokens(self, prompt_ids: Any, response_ids: Any, attempt: int, usable: bool
                      ) -> tuple[array, int | None, int | None, tuple[int, bytes, int | None, bool] | None]:
        """(stored prompt, parent event id, shared length, token head to add once committed): the prompt
        as a delta record against the rollout's recent calls; only a usable call becomes a head."""
        parent, shared, suffix = encode_prompt(prompt_ids, self.tok_heads, attempt)
        head = None
        if usable:
            extends = parent is not None and any(h.event_id == parent and len(h.full) == 4 * shared
                                                 for h in self.tok_heads)
            head = (attempt, as_ids(prompt_ids).tobytes() + as_ids(response_ids).tobytes(), parent, extends)
        stored = array("i")
        stored.frombytes(suffix)
        return stored, parent, shared if parent is not None else None, head

    def drop_heads(self) -> None:
        """A finished rollout takes no more calls: free what delta encoding kept of it."""
        self.last_call = None
        self.tok_heads = Heads()
        self.req_heads = []

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> RolloutRec:
        return cls(r["n"], r["id"], r["group_id"], r["state"], r["attempt"], r["max_attempts"], r["token_hash"],
                   r["engine"], r["metadata"], r["created"], r["updated"], r["held_s"])

    def hold_begin(self) -> None:
        if self.holding == 0:
            self.hold_since = time.time()
        self.holding += 1

    def hold_end(self) -> None:
        self.holding -= 1
        if self.holding == 0:
            self.held_total += time.time() - self.hold_since

    @property
    def held_s(self) -> float:
        """Wall time during which at least one of the rollout's calls was held, including a hold now."""
        return self.held_total + (time.time() - self.hold_since if self.holding else 0.0)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "group_id": self.group_id, "state": self.state, "attempt": self.attempt,
                "max_attempts": self.max_attempts, "engine": self.engine, "metadata": self.metadata,
                "created": self.created, "updated": self.updated, "held_s": self.held_s}


def _non_finite(obj: Any, path: str) -> str | None:
    """Where a NaN or infinity hides in parsed JSON (orjson would store it as null), else None."""
    if isinstance(obj, float):
        return None if math.isfinite(obj) else path
    if isinstance(obj, dict):
        items: Any = obj.items()
    elif isinstance(obj, list):
        items = enumerate(obj)
    else:
        return None
    for k, v in items:
        if isinstance(v, float | dict | list):
            found = _non_finite(v, f"{path}.{k}" if isinstance(k, str) else f"{path}[{k}]")
            if found:
                return found
    return None


def dumps(obj: Any, field: str) -> bytes:
    """JSON for the store; 400 for NaN/infinity (not JSON), 422 for what JSON cannot hold (ints beyond 64 bits,
    lone surrogates, odd keys). Both name the field."""
    bad = _non_finite(obj, field)
    if bad:
        raise ApiError(400, f"{bad}: NaN and infinity are not valid JSON numbers")
    try:
        return orjson.dumps(obj)
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise ApiError(422, f"{field}: cannot be stored as JSON ({exc})") from None


def text(s: str | None, field: str) -> str | None:
    """A string SQLite can store (valid UTF-8), or a 422 naming the field."""
    if s is not None:
        try:
            s.encode()
        except UnicodeEncodeError:
            raise ApiError(422, f"{field}: not valid unicode text") from None
    return s


def event_values(rec: RolloutRec, kind: str, *, attempt: int | None = None, data: dict | None = None,
                 idem: str | None = None, **fields: Any) -> tuple:
    """One events row of `rec` (`sql.event_row`); `fields` are further `swerl.events.Event` fields."""
    return sql.event_row(rollout_id=rec.id, group_id=rec.group_id, attempt=rec.attempt if attempt is None else attempt,
                         kind=kind, data=dumps(data, "data") if data else None, created=time.time(), idem=idem,
                         **fields)


class Gateway:
    def __init__(self, cfg: GatewaySettings, *, admin_token: str, upstreams: Sequence[str] = (),
                 upstream_model: str | None = None, tokenizer: Any = None) -> None:
        """`upstreams` are engines registered at start (with `upstream_model`); later ones come by the admin API."""
        self.cfg = cfg
        self.admin_token = admin_token
        self.store = Store(cfg.store, synchronous=cfg.sync.upper())
        self.admin_hash = token_hash(admin_token)
        version, paused, engines, pins = self.store.read_now(lambda c: (
            sql.get_meta(c, "policy_version"), sql.get_meta(c, "paused"), sql.get_meta(c, "engines"),
            c.execute("SELECT engine, COUNT(*) FROM rollouts WHERE state IN ('queued', 'running') "
                      "AND engine IS NOT NULL GROUP BY engine").fetchall()))
        self.gate = Gate(policy_version=int(version or 0), paused=bool(paused), max_hold_s=cfg.max_hold_s)
        self.engines = Engines(connect_timeout=cfg.connect_timeout_s, read_timeout=cfg.read_timeout_s,
                               retry=Retry(cfg.retry_attempts, cfg.retry_backoff_s))
        for e in engines or []:
            self.engines.add(e["url"], e.get("model"))
        for url in upstreams:
            self.engines.add(url, upstream_model)
        for name, count in pins:
            if name in self.engines.by_name:
                self.engines.by_name[name].rollouts = count
        self.continuous = None
        if cfg.continuous_tokens:
            if tokenizer is None:
                raise ValueError("continuous-token mode needs a tokenizer (--tokenizer)")
            from swerl.gateway.continuous import Continuer

            self.continuous = Continuer(tokenizer)
        self._rollouts: OrderedDict[str, RolloutRec] = OrderedDict()
        self._by_token: dict[bytes, str] = {}
        self._creating: dict[str, asyncio.Future] = {}
        if self.gate.paused:
            log.info("starting paused (was paused before restart)", policy_version=self.gate.policy_version)

    async def aclose(self) -> None:
        await self.engines.aclose()
        self.store.close()

    def _cache_put(self, rec: RolloutRec) -> None:
        self._rollouts[rec.id] = rec
        self._rollouts.move_to_end(rec.id)
        self._by_token[rec.token_hash] = rec.id
        over = len(self._rollouts) - self.cfg.rollout_cache
        if over > 0:
            for rid in list(islice(self._rollouts, 0, over + 1000)):
                old = self._rollouts[rid]
                if old.state in TERMINAL and old.pending == 0 and over > 0:
                    del self._rollouts[rid]
                    self._by_token.pop(old.token_hash, None)
                    over -= 1

    async def rollout(self, rid: str) -> RolloutRec | None:
        rec = self._rollouts.get(rid)
        if rec is not None:
            return rec
        row = await self.store.read(lambda c: sql.get_rollout(c, rid))
        if row is None:
            return None
        rec = self._rollouts.get(rid)
        if rec is None:
            rec = RolloutRec.from_row(row)
            self._cache_put(rec)
        return rec

    def held_s(self, rid: str) -> float | None:
        """In-process (any thread): seconds the rollout's calls have been held so far, None if not cached."""
        rec = self._rollouts.get(rid)
        return None if rec is None else rec.held_s

    async def must(self, rid: str) -> RolloutRec:
        rec = await self.rollout(rid)
        if rec is None:
            raise ApiError(404, f"rollout {rid!r} not found")
        return rec

    async def write(self, fn: Any, rec: RolloutRec | None = None) -> Any:
        return await self.committed(self.store.write(fn), rec)

    @staticmethod
    async def committed(fut: asyncio.Future, rec: RolloutRec | None = None) -> Any:
        """Await a queued write (503 if the store fails); meanwhile `rec.pending` keeps `rec` cached."""
        if rec is not None:
            rec.pending += 1
        try:
            return await fut
        except StoreError as exc:
            log.error("store write failed", error=str(exc))
            raise ApiError(503, "the gateway store could not commit; retry later") from exc
        finally:
            if rec is not None:
                rec.pending -= 1

    async def create_rollout(self, body: RolloutCreate) -> tuple[RolloutRec, str | None]:
        """Idempotent on the id: only the request that created the rollout gets its token back."""
        rid = body.id or uuid.uuid4().hex
        while rid in self._creating:
            await asyncio.shield(self._creating[rid])
        rec = self._rollouts.get(rid)
        if rec is not None:
            return self._same_rollout(rec, body), None
        fut = asyncio.get_running_loop().create_future()
        self._creating[rid] = fut
        try:
            rec = await self.rollout(rid)  # created before this process started?
            if rec is not None:
                return self._same_rollout(rec, body), None
            token, now = new_token(), time.time()
            rec = RolloutRec(0, rid, body.group_id or rid, "queued", 1, body.max_attempts, token_hash(token), None,
                             body.metadata, now, now)
            row_d = {**rec.public(), "token_hash": rec.token_hash, "metadata": dumps(body.metadata, "metadata")}
            rec.n = await self.write(lambda c: sql.insert_rollout(c, row_d))
            self._cache_put(rec)
            log.info("rollout created", rollout=rid, group=rec.group_id)
            return rec, token
        finally:
            del self._creating[rid]
            fut.set_result(None)

    @staticmethod
    def _same_rollout(rec: RolloutRec, body: RolloutCreate) -> RolloutRec:
        given = body.model_fields_set
        diffs = [k for k, mine in (("group_id", rec.group_id), ("max_attempts", rec.max_attempts),
                                   ("metadata", rec.metadata)) if k in given and getattr(body, k) != mine]
        if diffs:
            raise ApiError(409, f"rollout {rec.id!r} already exists with a different {', '.join(diffs)}")
        return rec

    async def list_rollouts(self, states: list[str] | None, cursor: str | None, limit: int) -> tuple[list, str | None]:
        after = 0
        if cursor:
            if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 18:
                raise ApiError(400, "cursor: not a cursor returned by this endpoint")
            after = int(cursor)
        rows = await self.store.read(lambda c: sql.list_rollouts(c, states, after, limit))
        nxt = str(rows[-1]["n"]) if len(rows) == limit else None
        return rows, nxt

    async def set_state(self, rid: str, target: str, guard: int | None, reason: str | None,
                        idem: str | None = None) -> tuple[RolloutRec, tuple[int, int] | None]:
        """Apply a transition (409 if invalid) and record it as a status event in the same transaction."""
        text(reason, "reason")
        rec = await self.must(rid)
        while True:
            try:
                out = transition(rec.state, rec.attempt, rec.max_attempts, target, guard)
            except TransitionError as exc:
                raise ApiError(409, f"rollout {rid!r}: {exc}") from None
            if out.changed:
                break
            if rec.last_write is None or rec.last_write.done():
                return rec, None
            await asyncio.wait([rec.last_write])  # the same change is committing: answer after it
        old = (rec.state, rec.attempt, rec.updated)
        now = time.time()
        rec.state, rec.attempt, rec.updated = out.state, out.attempt, now
        data = {"from": old[0], **({"reason": reason} if reason else {})}
        values = event_values(rec, "status", state=out.state, data=data, policy_version=self.gate.policy_version,
                              idem=idem)

        def job(c: Any) -> tuple[int, int]:
            sql.update_state(c, rid, out.state, out.attempt, now)
            return sql.insert_event(c, values)

        fut = rec.last_write = self.store.write(job)
        try:
            ids = await self.committed(fut, rec)
        except ApiError:
            rec.state, rec.attempt, rec.updated = old
            raise
        if out.state in TERMINAL:
            rec.drop_heads()
            if rec.engine in self.engines.by_name:
                self.engines.by_name[rec.engine].rollouts -= 1
        log.info("rollout state", rollout=rid, state=out.state, attempt=out.attempt)
        return rec, ids

    async def rotate_token(self, rid: str) -> str:
        rec = await self.must(rid)
        token = new_token()
        h, now = token_hash(token), time.time()
        await self.write(lambda c: sql.set_token(c, rid, h, now), rec)
        self._by_token.pop(rec.token_hash, None)
        rec.token_hash, rec.updated = h, now
        self._by_token[h] = rid
        return token

    async def append_event(self, rid: str, ev: NewEvent) -> dict[str, Any]:
        rec = await self.must(rid)
        if ev.idempotency_key:
            found = await self.store.read(lambda c: sql.event_by_idem(c, rid, ev.idempotency_key or ""))
            if found is not None:
                return {"id": found["id"], "seq": found["seq"], "created_now": False}
        if ev.kind == "status":
            if ev.state is None:
                raise ApiError(400, "state: required for kind=status")
            _, ids = await self.set_state(rid, ev.state, ev.attempt, ev.reason, ev.idempotency_key)
            return {"id": ids[0] if ids else None, "seq": ids[1] if ids else None, "created_now": ids is not None}
        heads: tuple = (None, None)
        if ev.kind == "reward":
            if ev.reward is None:
                raise ApiError(400, "reward: required for kind=reward")
            values = event_values(rec, "reward", attempt=ev.attempt, reward=ev.reward,
                                  data={"reward": ev.reward, **ev.data}, policy_version=ev.policy_version,
                                  idem=ev.idempotency_key)
        else:
            values, heads = self._external_call(rec, ev)
        idem = ev.idempotency_key

        def job(c: Any) -> tuple[int, int, bool]:
            found = sql.event_by_idem(c, rid, idem) if idem else None  # the single writer: no race
            return (found["id"], found["seq"], False) if found else (*sql.insert_event(c, values), True)

        eid, seq, created = await self.write(job, rec)
        if created:
            rec.add_heads(eid, *heads)
        return {"id": eid, "seq": seq, "created_now": created}

    @staticmethod
    def _external_call(rec: RolloutRec, ev: NewEvent) -> tuple[tuple, tuple]:
        """A model_request appended through the API: stored like a proxied call, prompt ids and request JSON
        delta-encoded against the rollout's recent calls. Returns (row values, heads to add once committed)."""
        prompt, parent, shared, tok = None, None, None, None
        if ev.prompt_ids is not None:
            usable = ev.response_ids is not None and ev.response_logprobs is not None \
                and len(ev.response_logprobs) == len(ev.response_ids)
            prompt, parent, shared, tok = rec.encode_tokens(
                ev.prompt_ids, ev.response_ids, rec.attempt if ev.attempt is None else ev.attempt, usable)
        request, req_parent, req_shared, req = None, None, None, None
        if ev.request is not None:
            request, req_parent, req_shared, head, extends = encode_request(dumps(ev.request, "request"), ev.request,
                                                                            rec.req_heads)
            if head is not None:
                req = (head, req_parent, extends)
        values = event_values(rec, "model_request", attempt=ev.attempt, policy_version=ev.policy_version,
                              mode="external", prompt_parent=parent, prompt_shared=shared, prompt_ids=prompt,
                              response_ids=ev.response_ids, response_logprobs=ev.response_logprobs,
                              finish_reason=text(ev.finish_reason, "finish_reason"), data=ev.data,
                              request=request, req_parent=req_parent, req_shared=req_shared,
                              response=dumps(ev.response, "response") if ev.response is not None else None,
                              idem=ev.idempotency_key)
        return values, (tok, req)

    async def list_events(self, rid: str, after_seq: int, limit: int, kinds: list[str] | None,
                          with_json: bool) -> list[dict]:
        await self.must(rid)
        return await self.store.read(lambda c: sql.list_events(c, rid, after_seq, limit, kinds, with_json))

    async def long_poll(self, query: Any, wait: float) -> list:
        """Run `query` (a reader function); if empty, wait for commits up to `wait` seconds and retry."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(wait, self.cfg.max_wait_s)
        while True:
            seen = self.store.notifications
            items = await self.store.read(query)
            left = deadline - loop.time()
            if items or left <= 0:
                return items
            if self.store.notifications == seen:
                await self.store.wait_commit(left)

    async def list_completed(self, after: int, limit: int, states: list[str] | None, wait: float) -> list[dict]:
        st = sorted(states or TRAINABLE)
        return await self.long_poll(lambda c: sql.list_completed(c, after, limit, st), wait)

    async def authorize(self, rid: str, header: str | None) -> RolloutRec:
        """The rollout whose own token this is; 401 unknown token, 403 someone else's, 409 finished."""
        tok = bearer(header)
        if tok is None:
            raise ApiError(401, "missing bearer token (Authorization: Bearer <rollout token>)")
        h = token_hash(tok)
        rec = self._rollouts.get(rid) or await self.rollout(rid)
        if rec is not None and same(rec.token_hash, h):
            if rec.state in TERMINAL:
                raise ApiError(409, f"rollout {rid!r} is {rec.state}: it takes no more model calls")
            return rec
        if same(h, self.admin_hash) or h in self._by_token or await self.store.read(
                lambda c: sql.rollout_id_by_token(c, h)) is not None:
            raise ApiError(403, f"this token is not valid for rollout {rid!r}")
        raise ApiError(401, "invalid token")

    async def pause(self, timeout: float | None) -> bool:
        await self.write(lambda c: sql.set_meta(c, "paused", True))
        drained = await self.gate.pause(timeout)
        log.info("paused", drained=drained, in_flight=self.gate.in_flight, held=self.gate.held)
        return drained

    async def resume(self, version: int) -> None:
        if version < self.gate.policy_version:
            raise ApiError(409, f"policy_version {version} is older than the current {self.gate.policy_version}")

        def job(c: Any) -> None:
            sql.set_meta(c, "policy_version", version)
            sql.set_meta(c, "paused", False)

        await self.write(job)
        self.gate.resume(version)
        log.info("resumed", policy_version=version, released=self.gate.held)

    async def save_engines(self) -> None:
        engines = [{"url": e.url, "model": e.model} for e in self.engines.by_name.values()]
        await self.write(lambda c: sql.set_meta(c, "engines", engines))
