"""Token traffic linear in unique tokens: delta records and the binary batch format.

Every call of a multi-turn rollout re-sends the whole context, so full `prompt_ids` per call
grow with calls x context while the information is only the unique tokens.

**Delta record.** A prompt is stored as `(parent, shared, suffix)` with

    prompt(i) = full(parent)[:shared] ++ suffix(i),    full(x) = prompt(x) ++ response(x)

`parent` is an earlier call of the same rollout attempt (the head sharing the most, `Heads`),
`shared` the longest common prefix with `full(parent)`: an exact extension stores only the new
observation; a prompt sharing nothing is stored whole. Decoding is exact by construction.

**Binary batch** (`TokenBatch`): ``b"SWTB" | u32 version | u64 header length | header JSON |
pad to 8 | buffers``: a JSON header (rollouts, sparse error/data fields, buffer table), then
8-byte aligned little-endian columns (`_COLUMNS`: per-event fields, int64 offsets, and the
int32/float32 token pools). Decoding is `np.frombuffer` views plus one vectorised validation;
a malformed buffer raises `TokenFormatError` naming the field and the row.

The ground floor shared by the gateway (writer) and the trainer (reader): numpy and orjson only.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from swerl.errors import DataError

MAGIC = b"SWTB"
VERSION = 1
MEDIA_TYPE = "application/vnd.swerl.tokens"
"""HTTP media type of a serialised `TokenBatch`."""

KINDS: tuple[str, ...] = ("model_request", "reward", "status")
KIND_CODE: dict[str, int] = {k: i for i, k in enumerate(KINDS)}

# flags bits
F_ERROR = 1  # `error` set: a failed or abandoned call, never trained on
F_PROMPT = 2  # carries prompt ids (possibly empty)
F_RESPONSE = 4  # carries response ids
F_LOGPROBS = 8  # carries one log-prob per response id
F_CUT = 16  # the engine stopped the response at the call's max_tokens (finish_reason "length")
USABLE = F_PROMPT | F_RESPONSE | F_LOGPROBS

_I32 = np.dtype("<i4")
_I64 = np.dtype("<i8")
_F32 = np.dtype("<f4")
_F64 = np.dtype("<f8")
_U8 = np.dtype("u1")
_I8 = np.dtype("i1")

_COLUMNS: tuple[tuple[str, np.dtype], ...] = (
    ("event_id", _I64), ("rollout", _I32), ("attempt", _I32), ("seq", _I64), ("kind", _I8), ("flags", _U8),
    ("policy_version", _I64), ("parent", _I64), ("shared", _I64), ("reward", _F64), ("arrival", _F64),
    ("prompt_off", _I64), ("resp_off", _I64), ("prompt_pool", _I32), ("resp_pool", _I32), ("logp_pool", _F32),
)
_DTYPES = dict(_COLUMNS)
_HEAD = struct.Struct("<4sIQ")

ROW_FIELDS: tuple[str, ...] = ("id", "rollout_id", "group_id", "attempt", "seq", "kind", "policy_version",
                               "prompt_parent", "prompt_shared", "prompt_ids", "response_ids", "response_logprobs",
                               "error", "reward", "data", "t_arrival", "finish_reason")
"""Field order of the rows `TokenBatch.rows_to_bytes` takes (the store's column names)."""


class TokenFormatError(DataError):
    """A token batch or delta record is malformed; the message names the field and the row."""


# ---- delta records ------------------------------------------------------------------------------

def as_ids(value: Any) -> np.ndarray:
    """int32 token ids as a numpy array without copying when possible (arrays, `array('i')`, int32 LE bytes)."""
    if isinstance(value, np.ndarray):
        return value if value.dtype == _I32 or value.dtype == np.int32 else value.astype(np.int32)
    if isinstance(value, bytes | bytearray | memoryview):
        return np.frombuffer(value, dtype=_I32)
    if hasattr(value, "typecode") and value.typecode == "i":  # array.array: zero-copy view
        return np.frombuffer(value, dtype=np.int32)
    return np.asarray(value, dtype=np.int32)


def _first_difference(a: np.ndarray, b: np.ndarray, n: int) -> int:
    """Where a[:n] and b[:n] first differ (n if they do not): one vectorised pass, no copies of the inputs."""
    neq = np.not_equal(a[:n], b[:n])
    i = int(neq.argmax()) if n else 0
    return i if n and neq[i] else n


@dataclass(slots=True)
class Parent:
    """A recorded call that later calls of its rollout attempt may be stored against."""

    event_id: int
    attempt: int
    full: bytes  # prompt ++ response, int32 little-endian


class Heads:
    """A rollout's candidate parents: the tips of its last `k` branches, most recent first.

    Why more than the last call: interleaved conversations (a sub-agent, a harness retrying an
    earlier state) would otherwise store every switch whole. A call extending a head exactly
    replaces it; any other becomes a new head. A linear rollout keeps one context in memory.
    """

    __slots__ = ("items", "k")

    def __init__(self, k: int = 4) -> None:
        self.k = k
        self.items: list[Parent] = []

    def __iter__(self) -> Any:
        return iter(self.items)

    def add(self, new: Parent, parent: int | None, extends: bool) -> None:
        """Record `new` (just committed) whose prompt was stored against `parent` (`extends`: all of it)."""
        keep = [h for h in self.items if h.attempt == new.attempt and not (extends and h.event_id == parent)]
        self.items = [new, *keep][:self.k]


def encode_prompt(prompt: Any, last: Parent | Heads | Sequence[Parent] | None,
                  attempt: int) -> tuple[int | None, int, bytes]:
    """(parent event id or None, shared length, stored prompt bytes) for a call about to be recorded.

    The hot path: extending the most recent head is one `bytes.startswith` (memcmp); otherwise
    each head of the same attempt that could share more pays one vectorised scan. Another
    attempt's call is never a parent (its events are superseded).
    """
    p = as_ids(prompt)
    pb = p.tobytes()
    heads = [] if last is None else [last] if isinstance(last, Parent) else list(last)
    heads = [h for h in heads if h.attempt == attempt]
    if not heads:
        return None, 0, pb
    first = heads[0]
    if pb.startswith(first.full):
        n = len(first.full)
        return first.event_id, n // 4, pb[n:]
    best: Parent | None = None
    shared = 0
    for h in heads:
        bound = min(len(h.full) // 4, len(p))
        if bound <= shared:
            continue
        s = bound if pb.startswith(h.full) else _first_difference(np.frombuffer(h.full, dtype=np.int32), p, bound)
        if s > shared:
            best, shared = h, s
    if best is None:
        return None, 0, pb
    return best.event_id, shared, pb[4 * shared:]


def resolve_prompts(rows: list[dict[str, Any]], fetch: Any) -> None:
    """Replace delta-encoded prompts in JSON-ready event dicts by the full prompt lists, in place.

    `rows` carry `id`, `prompt_ids` (the stored suffix), `prompt_parent`, `prompt_shared` and
    `response_ids`; `fetch(ids)` returns such dicts for ancestors that are not in `rows`. For
    humans and the JSON API (the trainer reads the binary batch).
    """
    known: dict[int, dict[str, Any]] = {int(r["id"]): r for r in rows if r.get("id") is not None}
    want = [r for r in rows if r.get("prompt_parent") is not None and r.get("prompt_ids") is not None]
    if not want:
        return
    missing = {int(r["prompt_parent"]) for r in want} - known.keys()
    while missing:
        got = fetch(sorted(missing))
        if not got:
            raise TokenFormatError(f"event(s) {sorted(missing)[:5]}: parent of a stored prompt not found")
        for g in got:
            known[int(g["id"])] = g
        missing = {int(g["prompt_parent"]) for g in got if g.get("prompt_parent") is not None} - known.keys()
    full: dict[int, list[int]] = {}
    for eid in sorted(known):  # a parent always has a smaller id: it committed first
        e = known[eid]
        prompt = list(e.get("prompt_ids") or [])
        par = e.get("prompt_parent")
        if par is not None:
            if int(par) not in full:
                raise TokenFormatError(f"event {eid}: prompt stored against event {par}, not an earlier event")
            prompt = full[int(par)][:int(e["prompt_shared"] or 0)] + prompt
        if e.get("prompt_ids") is not None:
            e["prompt_ids"] = prompt
        full[eid] = prompt + list(e.get("response_ids") or [])


# ---- the batch ------------------------------------------------------------------------------------

@dataclass(eq=False)
class TokenBatch:
    """Events of one or more rollouts, columnar; prompts as delta records against earlier rows.

    Row `i`'s prompt is `full(parent_row[i])[:shared[i]] ++ prompt_pool[prompt_off[i]:prompt_off[i+1]]`.
    A parent is named by event id and must be an earlier event (smaller id) of the same rollout
    in the same batch. Build one from store rows (`rows_to_bytes`) or events (`from_events`); read one with `from_bytes`.
    """

    rollouts: list[tuple[str, str]]  # (rollout_id, group_id) per rollout index
    event_id: np.ndarray
    rollout: np.ndarray
    attempt: np.ndarray
    seq: np.ndarray
    kind: np.ndarray
    flags: np.ndarray
    policy_version: np.ndarray  # -1: none
    parent: np.ndarray  # parent event id, -1: none
    shared: np.ndarray
    reward: np.ndarray  # NaN: none
    arrival: np.ndarray  # t_arrival (request received), NaN: unknown
    prompt_off: np.ndarray
    resp_off: np.ndarray
    prompt_pool: np.ndarray
    resp_pool: np.ndarray
    logp_pool: np.ndarray
    errors: dict[int, str] = field(default_factory=dict)
    data: dict[int, Any] = field(default_factory=dict)
    requests: dict[int, Any] = field(default_factory=dict)  # request JSON of some rows (e.g. each rollout's last call)
    parent_row: np.ndarray = field(init=False, repr=False)
    prompt_len: np.ndarray = field(init=False, repr=False)
    full_len: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._validate()

    def __len__(self) -> int:
        return len(self.event_id)

    def _bad(self, what: str, rows: np.ndarray) -> TokenFormatError:
        r = int(rows[0])
        where = f"row {r}"
        if 0 <= r < len(self.event_id):
            where += f" (event_id={int(self.event_id[r])}"
            ro = int(self.rollout[r])
            if 0 <= ro < len(self.rollouts):
                where += f", rollout_id={self.rollouts[ro][0]!r}"
            where += ")"
        extra = f" and {len(rows) - 1} more rows" if len(rows) > 1 else ""
        return TokenFormatError(f"token batch {where}{extra}: {what}")

    def _validate(self) -> None:
        """Check every invariant the accessors rely on, once per batch, so they can slice the pools unchecked;
        then derive `parent_row`, `prompt_len` and `full_len` from the validated columns."""
        n = len(self.event_id)
        self._check_columns(n)
        if not n:
            self.parent_row = np.zeros(0, np.int64)
            self.prompt_len = self.full_len = np.zeros(0, np.int64)
            return
        for name in ("prompt_pool", "resp_pool"):
            pool = getattr(self, name)
            if pool.size and int(pool.min()) < 0:
                raise TokenFormatError(f"token batch: field {name}: token ids must be >= 0")
        suffix_len = np.diff(self.prompt_off)
        resp_len = np.diff(self.resp_off)
        self._check_rows(suffix_len, resp_len)
        found, prow = self._parent_rows(n)
        self.parent_row = prow.astype(np.int64)
        # a prompt is `shared` tokens of its parent plus its suffix: lengths need no walk up the chain
        plen = self.shared.astype(np.int64) + suffix_len
        flen = plen + resp_len
        over = found & (self.shared > flen[np.maximum(prow, 0)])
        if over.any():
            raise self._bad("field shared: longer than the parent's prompt and response", np.flatnonzero(over))
        self.prompt_len, self.full_len = plen, flen

    def _check_columns(self, n: int) -> None:
        """Each column's shape and dtype, and offsets that run monotonically over their pools: the layout checks
        that must hold before any row can be read."""
        for name, dt in _COLUMNS:
            arr = getattr(self, name)
            if not isinstance(arr, np.ndarray) or arr.ndim != 1:
                raise TokenFormatError(f"token batch: field {name} must be a one-dimensional array")
            if arr.dtype.kind != dt.kind or arr.dtype.itemsize != dt.itemsize:
                raise TokenFormatError(f"token batch: field {name} has dtype {arr.dtype}, expected {dt}")
            want = n + 1 if name.endswith("_off") else n
            if not name.endswith("_pool") and len(arr) != want:
                raise TokenFormatError(f"token batch: field {name} has {len(arr)} values, expected {want}")
        for name, pool in (("prompt_off", self.prompt_pool), ("resp_off", self.resp_pool)):
            off = getattr(self, name)
            if off[0] != 0 or off[-1] != len(pool):
                raise TokenFormatError(f"token batch: field {name} must run from 0 to the pool size {len(pool)}")
            bad = np.flatnonzero(np.diff(off) < 0)
            if bad.size:
                raise self._bad(f"field {name} decreases", bad)
        if len(self.logp_pool) != len(self.resp_pool):
            raise TokenFormatError(f"token batch: {len(self.logp_pool)} log-probs for {len(self.resp_pool)} "
                                   "response ids (field logp_pool)")

    def _raise_first(self, checks: Sequence[tuple[str, np.ndarray]]) -> None:
        """Raise for the first (message, bad-row mask) pair with any bad row, naming the rows it hit."""
        for what, mask in checks:
            if mask.any():
                raise self._bad(what, np.flatnonzero(mask))

    def _check_rows(self, suffix_len: np.ndarray, resp_len: np.ndarray) -> None:
        """Per-row codes in range and flags that agree with the ids the row carries."""
        has_p = (self.flags & F_PROMPT) != 0
        has_r = (self.flags & F_RESPONSE) != 0
        bad_rollout = (self.rollout < 0) | (self.rollout >= len(self.rollouts))
        self._raise_first((("field rollout: index out of range", bad_rollout),
                           ("field kind: unknown kind code", (self.kind < 0) | (self.kind >= len(KINDS))),
                           ("field shared: negative", self.shared < 0),
                           ("prompt ids present without the prompt flag", ~has_p & (suffix_len > 0)),
                           ("response ids present without the response flag", ~has_r & (resp_len > 0)),
                           ("a parent without prompt ids", ~has_p & (self.parent >= 0))))

    def _parent_rows(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Each row's parent as a row index (-1 without one) and the mask of rows that have one; checked so that a
        prompt can be rebuilt from its parent's tokens."""
        # parents: by event id, earlier (smaller id) rows of the same rollout that carry prompt and response
        order = np.argsort(self.event_id, kind="stable")
        sorted_ids = self.event_id[order]
        dup = np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])
        if dup.size:
            raise self._bad("field event_id: duplicate id", order[dup + 1])
        has_parent = self.parent >= 0
        pos = np.searchsorted(sorted_ids, self.parent)
        pos_c = np.minimum(pos, n - 1)
        found = has_parent & (sorted_ids[pos_c] == self.parent)
        missing = has_parent & ~found
        if missing.any():
            raise self._bad("field parent: the parent event is not in this batch", np.flatnonzero(missing))
        prow = np.where(found, order[pos_c], -1)
        self._raise_first((
                ("field parent: must be an earlier event (smaller id)", found & (self.parent >= self.event_id)),
                ("field parent: belongs to another rollout", found & (self.rollout[np.maximum(prow, 0)] != self.rollout)),
                ("field parent: the parent has no prompt and response ids",
                 found & ((self.flags[np.maximum(prow, 0)] & (F_PROMPT | F_RESPONSE)) != (F_PROMPT | F_RESPONSE))),
                ("field shared: must be 0 without a parent", ~has_parent & (self.shared != 0))))
        return found, prow

    def response(self, row: int) -> np.ndarray:
        return self.resp_pool[self.resp_off[row]:self.resp_off[row + 1]]

    def logprobs(self, row: int) -> np.ndarray:
        return self.logp_pool[self.resp_off[row]:self.resp_off[row + 1]]

    def suffix(self, row: int) -> np.ndarray:
        return self.prompt_pool[self.prompt_off[row]:self.prompt_off[row + 1]]

    def full(self, row: int, *, prompt_only: bool = False) -> np.ndarray:
        """Materialise `prompt(row) ++ response(row)` (or just the prompt) from the parent chain, writing
        each ancestor's suffix and response once (never the sum of the ancestors' full lengths)."""
        path = [row]
        while (p := int(self.parent_row[path[-1]])) >= 0:
            path.append(p)
        path.reverse()
        fl = self.full_len
        size = int(max(fl[r] for r in path))
        out = np.empty(size, np.int32)
        po, ro = self.prompt_off, self.resp_off
        pp, rp = self.prompt_pool, self.resp_pool
        sh = self.shared
        last = len(path) - 1
        for k, r in enumerate(path):
            pos = int(sh[r])
            a, b = int(po[r]), int(po[r + 1])
            out[pos:pos + b - a] = pp[a:b]
            pos += b - a
            if k == last and prompt_only:
                break
            a, b = int(ro[r]), int(ro[r + 1])
            out[pos:pos + b - a] = rp[a:b]
        n = int(self.prompt_len[row] if prompt_only else fl[row])
        return out if n == size else out[:n].copy()

    def prompt(self, row: int) -> np.ndarray:
        return self.full(row, prompt_only=True)

    def rows_by_rollout(self) -> dict[str, list[int]]:
        """Row indices of each rollout, in batch order."""
        out: dict[str, list[int]] = {rid: [] for rid, _ in self.rollouts}
        for r, ro in enumerate(self.rollout.tolist()):
            out[self.rollouts[ro][0]].append(r)
        return out

    @staticmethod
    def rows_to_bytes(rows: Sequence[Sequence[Any]], *, requests: dict[int, Any] | None = None) -> bytes:
        """The serialised batch of store rows (`ROW_FIELDS` order: int32 blobs, float32 log-prob blobs,
        `data` JSON bytes) without an intermediate batch: each blob is copied once, straight into the
        answer (the reader validates with `from_bytes`). A failed call (error set) whose log-probs do not
        match its response keeps none."""
        cols, pools, rollouts, errors, data = _row_columns(rows)
        buffers = [(name, pools[name][1] if name in pools else [np.ascontiguousarray(cols[name], dtype=dt)])
                   for name, dt in _COLUMNS]
        return _serialise(len(rows), rollouts, errors, data, dict(requests or {}), buffers)

    @classmethod
    def from_bytes(cls, buf: bytes | bytearray | memoryview) -> TokenBatch:
        """Decode `rows_to_bytes` output: zero-copy column views, then full validation."""
        mv = memoryview(buf).cast("B")
        if len(mv) < _HEAD.size:
            raise TokenFormatError(f"token batch: {len(mv)} bytes is too short for a header")
        magic, version, hlen = _HEAD.unpack_from(mv, 0)
        if magic != MAGIC:
            raise TokenFormatError(f"token batch: bad magic {magic!r} (expected {MAGIC!r}): not a token batch")
        if version != VERSION:
            raise TokenFormatError(f"token batch: format version {version}, this reader knows {VERSION}")
        start = _HEAD.size
        if hlen > len(mv) - start:
            raise TokenFormatError(f"token batch: header length {hlen} runs past the end ({len(mv)} bytes)")
        try:
            head = orjson.loads(mv[start:start + hlen])
            n = int(head["n"])
            rollouts = [(str(a), str(b)) for a, b in head["rollouts"]]
            table = {str(name): int(count) for name, count in head["buffers"]}
            errors = {int(k): str(v) for k, v in head.get("errors", {}).items()}
            data = {int(k): v for k, v in head.get("data", {}).items()}
            requests = {int(k): v for k, v in head.get("requests", {}).items()}
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise TokenFormatError(f"token batch: bad header ({exc})") from None
        off = start + hlen + (-hlen % 8)
        cols: dict[str, np.ndarray] = {}
        for name, dt in _COLUMNS:
            if name not in table:
                raise TokenFormatError(f"token batch: header lists no buffer {name}")
            count = table[name]
            size = count * dt.itemsize
            if count < 0 or off + size > len(mv):
                raise TokenFormatError(f"token batch: buffer {name} ({count} values) runs past the end")
            cols[name] = np.frombuffer(mv, dtype=dt, count=count, offset=off)
            off += size + (-size % 8)
        if off != len(mv):
            raise TokenFormatError(f"token batch: {len(mv) - off} unexpected trailing bytes")
        if len(cols["event_id"]) != n:
            raise TokenFormatError(f"token batch: header says {n} events, field event_id has {len(cols['event_id'])}")
        return cls(rollouts=rollouts, errors=errors, data=data, requests=requests, **cols)


def _serialise(n: int, rollouts: list[tuple[str, str]], errors: dict[int, str], data: dict[int, Any],
               requests: dict[int, Any], buffers: list[tuple[str, list[Any]]]) -> bytes:
    """The wire form: header, then each column's parts (`_COLUMNS` order) 8-byte aligned, in one copy."""
    sizes = [sum(p.nbytes if isinstance(p, np.ndarray) else len(p) for p in parts) for _, parts in buffers]
    header = orjson.dumps({
        "n": n, "rollouts": rollouts,
        "buffers": [[name, size // _DTYPES[name].itemsize] for (name, _), size in zip(buffers, sizes, strict=True)],
        "errors": {str(k): v for k, v in errors.items()}, "data": {str(k): v for k, v in data.items()},
        "requests": {str(k): v for k, v in requests.items()}})
    out: list[Any] = [_HEAD.pack(MAGIC, VERSION, len(header)), header, b"\0" * (-len(header) % 8)]
    for (_, parts), size in zip(buffers, sizes, strict=True):
        out += parts
        out.append(b"\0" * (-size % 8))
    return b"".join(out)


def _rollout_table(rids: Sequence[str], gids: Sequence[str | None]) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """Each row's rollout index (in order of first appearance) and the (rollout_id, group_id) table;
    a rollout's group is the first one its rows name (default: its own id)."""
    groups: dict[str, str | None] = {}
    for a, g in zip(rids, gids, strict=True):
        if groups.get(a) is None:
            groups[a] = g
    index = {a: i for i, a in enumerate(groups)}
    return (np.fromiter((index[a] for a in rids), np.int32, len(rids)),
            [(a, a if g is None else g) for a, g in groups.items()])


def _row_columns(rows: Sequence[Sequence[Any]]) -> tuple[
        dict[str, np.ndarray], dict[str, tuple[np.dtype, list[Any]]], list[tuple[str, str]], dict[int, str],
        dict[int, Any]]:
    """Store rows (`ROW_FIELDS` order) as fixed-width columns plus each pool's blobs in order (not joined)."""
    n = len(rows)
    (eid, rid, gid, att, seq, kind, pv, par, sh, p, r, lp, err, rew, data, arr, fin) = (
        tuple(zip(*rows, strict=True)) or ((),) * len(ROW_FIELDS))
    ro, rollouts = _rollout_table(rid, gid)
    try:
        kinds = np.fromiter((KIND_CODE[k] for k in kind), np.int8, n)
    except KeyError as exc:
        raise TokenFormatError(f"token batch: field kind: {exc.args[0]!r} is not one of {', '.join(KINDS)}") from None
    size = lambda xs, w: np.fromiter((0 if x is None else len(x) // w for x in xs), np.int64, n)  # noqa: E731
    has = lambda xs: np.fromiter((x is not None for x in xs), bool, n)  # noqa: E731
    has_p, has_r, has_l, has_e = has(p), has(r), has(lp), has(err)
    rlen, llen = size(r, 4), size(lp, 4)
    bad = has_r & has_l & (rlen != llen)
    if (bad & ~has_e).any():
        i = int(np.flatnonzero(bad & ~has_e)[0])
        raise TokenFormatError(f"event {eid[i]} (rollout_id={rid[i]!r}, seq={seq[i]}): field response_logprobs: "
                               f"{llen[i]} values for {rlen[i]} response ids")
    has_l &= ~bad  # a failed call recorded what it got; it is never trained on
    lp_parts = [lp[i] if has_l[i] else np.full(rlen[i], np.nan, _F32).tobytes()
                for i in np.flatnonzero(has_r).tolist()]
    cut = np.fromiter((f == "length" for f in fin), bool, n)
    flags = (has_e * F_ERROR | has_p * F_PROMPT | has_r * F_RESPONSE | (has_l & has_r) * F_LOGPROBS
             | cut * F_CUT).astype(np.uint8)
    opt = lambda xs, none, dt: np.fromiter((none if x is None else x for x in xs), dt, n)  # noqa: E731
    off = lambda lens: np.concatenate([np.zeros(1, np.int64), np.cumsum(lens)])  # noqa: E731
    cols = dict(
        event_id=np.fromiter(eid, np.int64, n), rollout=ro, attempt=np.fromiter(att, np.int32, n),
        seq=np.fromiter(seq, np.int64, n), kind=kinds, flags=flags, policy_version=opt(pv, -1, np.int64),
        parent=opt(par, -1, np.int64), shared=opt(sh, 0, np.int64), reward=opt(rew, np.nan, np.float64),
        arrival=opt(arr, np.nan, np.float64), prompt_off=off(size(p, 4)), resp_off=off(np.where(has_r, rlen, 0)))
    pools = {"prompt_pool": (_I32, [x for x in p if x is not None]),
             "resp_pool": (_I32, [x for x in r if x is not None]), "logp_pool": (_F32, lp_parts)}
    return (cols, pools, rollouts, {i: e for i, e in enumerate(err) if e is not None},
            {i: orjson.loads(d) if isinstance(d, bytes | bytearray | memoryview) else d
             for i, d in enumerate(data) if d is not None})


_ACCESS: dict[type, int] = {}  # per event type: 0 a mapping, 1 a pydantic model, 2 plain attributes


def _getter(e: Any) -> Any:
    """`get(key, default=None)` for one event: a dict's `get`, a pydantic model's field dict's (`value` is then
    absent: the caller falls back to `reward`), else attribute access. Decided once per
    type: `isinstance(x, Mapping)` is an ABC check, slow enough per event to show in assembly's cost."""
    t = type(e)
    how = _ACCESS.get(t)
    if how is None:
        how = _ACCESS[t] = 0 if isinstance(e, Mapping) else 1 if hasattr(t, "__pydantic_fields__") else 2
    if how == 0:
        return e.get
    if how == 1:
        return e.__dict__.get
    return lambda key, default=None: getattr(e, key, default)


def _encode_against(p: np.ndarray, pb: bytes, prev: tuple[int, bytes, bytes]) -> tuple[int | None, int, bytes]:
    """(parent, shared, stored suffix) of prompt `p` (its bytes `pb`, made once by the caller) against one
    earlier call kept as (event id, prompt bytes, response bytes). An exact extension, the usual case, is
    two memcmps; otherwise a vectorised scan of the part that differs finds the first difference. Neither
    joins the parent's prompt and response (a copy of its whole context per call)."""
    eid, ppb, prb = prev
    if pb.startswith(ppb):  # the parent's prompt is shared (a dropped or edited reply breaks after it)
        if pb.startswith(prb, len(ppb)):
            n = len(ppb) + len(prb)
            return eid, n // 4, pb[n:]
        shared = len(ppb) // 4
    else:
        head = np.frombuffer(ppb, dtype=np.int32)
        shared = _first_difference(head, p, min(len(head), len(p)))
    if shared == len(ppb) // 4 and len(p) > shared:
        tail = np.frombuffer(prb, dtype=np.int32)
        shared += _first_difference(tail, p[shared:], min(len(tail), len(p) - shared))
    return (eid, shared, pb[4 * shared:]) if shared else (None, 0, pb)


def _batch_of_rows(rows: Sequence[Sequence[Any]]) -> TokenBatch:
    """A batch of store-shaped rows (`ROW_FIELDS` order, float32 log-prob blobs): each pool joined once."""
    cols, pools, rollouts, errors, data = _row_columns(rows)
    arrays = {name: np.frombuffer(b"".join(parts), dt) for name, (dt, parts) in pools.items()}
    return TokenBatch(rollouts=rollouts, **cols, **arrays, errors=errors, data=data)


def from_events(events: Iterable[Any], *, encode: bool = True, use_ids: bool = True) -> TokenBatch:
    """Encode full-prompt events (dicts or objects with `prompt_ids` etc.) into a batch.

    With `encode`, each prompt is a delta record against the previous usable call of its rollout
    attempt (one memcmp when it extends that call); without it, stored whole. Event ids are the
    events' `id` if present and `use_ids` (parents must then have smaller ids), else their position:
    a list gathered from files or several fetches may lack ids or repeat them. `value` or `reward`
    carries a reward; a call answered with an `http_status` other than 200 is marked failed, as the
    store's batch marks it. Rows are built as the store's are (`ROW_FIELDS`, blobs), so the cost per
    event is a few tuple fields plus one copy of its prompt: assembly encodes every event list it gets.
    """
    rows: list[tuple[Any, ...]] = []
    last: dict[tuple[str, int], tuple[int, bytes, bytes]] = {}  # (event id, prompt bytes, response bytes)
    for i, e in enumerate(events):
        get = _getter(e)
        eid = get("id") if use_ids else None
        eid = i if eid is None else int(eid)
        rid, attempt, kind = str(get("rollout_id")), int(get("attempt", 0) or 0), get("kind")
        prompt, response, logp = get("prompt_ids"), get("response_ids"), get("response_logprobs")
        err, status = get("error"), get("http_status")
        if err is None and status not in (None, 200):
            err = f"http_status {status}"
        value = get("value")
        if value is None:
            value = get("reward")
        rb = None if response is None else as_ids(response).tobytes()
        parent, shared, pb = None, 0, None
        if prompt is not None:
            p = as_ids(prompt)
            pb = stored = p.tobytes()
            prev = last.get((rid, attempt)) if encode else None
            if prev is not None and prev[0] < eid:
                parent, shared, stored = _encode_against(p, pb, prev)
            if encode and kind == "model_request" and err is None and rb is not None and logp is not None:
                last[(rid, attempt)] = (eid, pb, rb)
            pb = stored
        rows.append((eid, rid, get("group_id"), attempt, int(get("seq", 0) or 0), kind, get("policy_version"),
                     parent, shared, pb, rb, None if logp is None else np.asarray(logp, _F32).tobytes(), err,
                     None if value is None else float(value), get("data"), get("t_arrival"), get("finish_reason")))
    return _batch_of_rows(rows)


__all__ = ["F_CUT", "F_ERROR", "F_LOGPROBS", "F_PROMPT", "F_RESPONSE", "KINDS", "KIND_CODE", "MAGIC", "MEDIA_TYPE", "ROW_FIELDS",
           "USABLE", "VERSION", "Heads", "Parent", "TokenBatch", "TokenFormatError", "as_ids",
           "encode_prompt", "from_events", "resolve_prompts"]
