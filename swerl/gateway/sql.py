"""SQL of the gateway store: schema, statements, and compact row codecs.

Every function takes a `sqlite3.Connection` and runs on a store thread, never on the event loop.
Token ids are little-endian int32 blobs and log-probs float32 blobs (~5x smaller than JSON; float32
is what engines compute log-probs in, so their values stay bit-exact). Prompt ids and request JSON
are delta-encoded against an earlier event of the rollout (`prompt_parent`/`prompt_shared`:
`swerl.tokens`; `req_parent`/`req_shared`: `recorder.encode_request`), so the store grows with
unique content; every reader here returns them whole. Request/response JSON of 512+ bytes is
stored zlib-compressed when smaller (a blob starting with `x`, zlib's header byte: JSON never does).

Schema 3 (`PRAGMA user_version`) stores float32 log-probs and the request delta columns. A store of
any other schema is refused with an error naming the file: swerl 0.x does not migrate stores (re-record
into a new one, or read it with the swerl version that wrote it).
"""

from __future__ import annotations

import sqlite3
import sys
import zlib
from array import array
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, get_args

import orjson

from swerl.events import Event
from swerl.gateway.recorder import decode_request
from swerl.tokens import ROW_FIELDS, TokenBatch, resolve_prompts

SCHEMA_VERSION = 3


class StoreVersionError(ValueError):
    """A store file of another schema (an older or newer swerl's), or not a gateway store: refused, never
    misread."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rollouts(
  n INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  group_id TEXT NOT NULL,
  state TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  token_hash BLOB NOT NULL UNIQUE,
  engine TEXT,
  metadata BLOB NOT NULL,
  created REAL NOT NULL,
  updated REAL NOT NULL,
  held_s REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS rollouts_state ON rollouts(state, n);
{events}
CREATE UNIQUE INDEX IF NOT EXISTS events_idem ON events(rollout_id, idem) WHERE idem IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, id);
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);
"""

ROLLOUT_FIELDS = ("n", "id", "group_id", "state", "attempt", "max_attempts", "token_hash", "engine", "metadata",
                  "created", "updated", "held_s")
ROLLOUT_COLS = ", ".join(ROLLOUT_FIELDS)
EACH = "(SELECT value FROM json_each(?))"  # a JSON list parameter as a set: one statement for any number of ids

# ---- the events table, derived from `swerl.events.Event` ---------------------------------------------
_IDS = frozenset({"prompt_ids", "response_ids"})  # int32 blobs
_F32 = frozenset({"response_logprobs"})  # float32 blobs (bit-exact for float32 engines)
_JSON = frozenset({"data", "request", "response"})  # JSON blobs
_NOT_NULL = frozenset({"rollout_id", "group_id", "attempt", "seq", "kind", "created"})
BULKY = ("request", "response")
"""Columns read only when asked for (`include_json`)."""
EVENT_COLS: tuple[str, ...] = tuple(Event.model_fields)
EVENT_LIGHT_COLS: tuple[str, ...] = tuple(c for c in EVENT_COLS if c not in BULKY)
REQ_COLS = ("req_parent", "req_shared")
"""Storage-only columns: the request JSON's delta record (see the module docstring); never shown to readers."""
EVENT_INSERT_COLS: tuple[str, ...] = (*(c for c in EVENT_COLS if c not in ("id", "seq")), "idem", *REQ_COLS)


def _sql_type(name: str) -> str:
    if name in _IDS or name in _F32 or name in _JSON:
        return "BLOB"
    ann = Event.model_fields[name].annotation
    args = get_args(ann) or (ann,)
    return "INTEGER" if int in args else "REAL" if float in args else "TEXT"


def _column(name: str) -> str:
    if name == "id":
        return "id INTEGER PRIMARY KEY"
    return f"{name} {_sql_type(name)}{' NOT NULL' if name in _NOT_NULL else ''}"


SCHEMA = _SCHEMA.format(events="CREATE TABLE IF NOT EXISTS events(\n  " + ",\n  ".join(
    [*(_column(c) for c in EVENT_COLS), "idem TEXT", *(f"{c} INTEGER" for c in REQ_COLS),
     "UNIQUE(rollout_id, seq)"]) + "\n);")
_EVENT_INSERT = (
    f"INSERT INTO events({', '.join(EVENT_INSERT_COLS)}, seq) VALUES ({', '.join('?' * len(EVENT_INSERT_COLS))}, "
    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE rollout_id = ?)) RETURNING id, seq")

_SWAP = sys.byteorder != "little"


def _blob(xs: Sequence[Any] | array | None, code: str) -> bytes | None:
    if xs is None:
        return None
    a = xs if isinstance(xs, array) and xs.typecode == code else array(code, xs)
    if _SWAP:
        a = array(code, a)
        a.byteswap()
    return a.tobytes()


def _unblob(b: bytes | None, code: str) -> list[Any] | None:
    if b is None:
        return None
    a = array(code)
    a.frombytes(b)
    if _SWAP:
        a.byteswap()
    return a.tolist()


def ids_blob(ids: Sequence[int] | array | None) -> bytes | None:
    """int32 little-endian; raises TypeError/OverflowError for anything that is not a token id."""
    return _blob(ids, "i")


def floats_blob(xs: Sequence[float] | array | None) -> bytes | None:
    """float32 little-endian (values with more precision are rounded, as the trainer's float32 would)."""
    return _blob(xs, "f")


def blob_ids(b: bytes | None) -> list[int] | None:
    return _unblob(b, "i")


def blob_floats(b: bytes | None) -> list[float] | None:
    return _unblob(b, "f")


def _json_blob(v: Any) -> bytes | None:
    return v if v is None or isinstance(v, bytes) else orjson.dumps(v)


SQUEEZE_MIN = 512
_SQUEEZED = b"x"  # zlib's first byte (deflate, 32K window); no JSON text starts with it


def squeeze(b: bytes | None) -> bytes | None:
    """JSON as stored: zlib level 1 (~100+ MB/s, 1.5-3x on conversation text) when that is smaller."""
    if b is None or len(b) < SQUEEZE_MIN:
        return b
    z = zlib.compress(b, 1)
    return z if len(z) < len(b) else b


def json_of(b: bytes | None) -> Any:
    """A stored JSON blob (compressed or not) parsed."""
    if b is None:
        return None
    return orjson.loads(zlib.decompress(b) if b[:1] == _SQUEEZED else b)


_DECODERS = {**dict.fromkeys(_IDS, blob_ids), **dict.fromkeys(_F32, blob_floats), **dict.fromkeys(_JSON, json_of)}
_ENCODERS = tuple((i, ids_blob if c in _IDS else floats_blob if c in _F32 else _json_blob)
                  for i, c in enumerate(EVENT_INSERT_COLS) if c in _IDS | _F32 | _JSON)


def init(conn: sqlite3.Connection, path: str = "") -> None:
    """Create the tables of a new (empty) store, or check that an existing one has this schema.

    A store of another schema is refused (StoreVersionError naming `path`), never changed: this is a 0.x
    package, so an older layout is not migrated (nobody keeps such stores: re-record), and a newer one
    could not be read correctly.
    """
    where = path or "the store"
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        empty = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    except sqlite3.DatabaseError as exc:
        raise StoreVersionError(f"{where}: not a SQLite gateway store ({exc})") from None
    if version == SCHEMA_VERSION:
        return
    if version or not empty:
        age = "a newer" if version > SCHEMA_VERSION else "an older"
        raise StoreVersionError(f"{where}: written by {age} swerl (store schema {version}; this version reads "
                                f"schema {SCHEMA_VERSION} only and does not convert stores): use the swerl version "
                                "that wrote it, or give --store a new file and re-record")
    try:  # one transaction: a concurrent opener of the same new file sees all of it or none
        conn.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA}\nPRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


# ---- rollouts ---------------------------------------------------------------------------------------

def rollout_dict(row: Sequence[Any], fields: Sequence[str] = ROLLOUT_FIELDS) -> dict[str, Any]:
    """A rollouts row selected as `fields` (all of them unless given; `metadata` among them) as a dict."""
    d = dict(zip(fields, row, strict=True))
    d["metadata"] = orjson.loads(d["metadata"])
    return d


def insert_rollout(conn: sqlite3.Connection, r: dict[str, Any]) -> int:
    """`r["metadata"]` arrives serialised (JSON bytes): serialising can fail, and must fail before the write."""
    cols = ROLLOUT_FIELDS[1:-1]  # not `n` (assigned here) nor `held_s` (0 until a hold)
    cur = conn.execute(f"INSERT INTO rollouts({', '.join(cols)}) VALUES ({','.join('?' * len(cols))})",
                       tuple(r[c] for c in cols))
    return int(cur.lastrowid or 0)


def get_rollout(conn: sqlite3.Connection, rollout_id: str) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT {ROLLOUT_COLS} FROM rollouts WHERE id = ?", (rollout_id,)).fetchone()
    return rollout_dict(row) if row else None


def rollouts_by_id(conn: sqlite3.Connection, rollout_ids: Sequence[str],
                   fields: Sequence[str] = ROLLOUT_FIELDS) -> dict[str, dict[str, Any]]:
    """The rollouts of these ids (`fields` of each, `id` and `metadata` among them) by id, in one query."""
    rows = conn.execute(f"SELECT {', '.join(fields)} FROM rollouts WHERE id IN {EACH}",
                        (orjson.dumps(list(rollout_ids)).decode(),)).fetchall()
    return {d["id"]: d for d in (rollout_dict(r, fields) for r in rows)}


def rollout_id_by_token(conn: sqlite3.Connection, token_hash: bytes) -> str | None:
    row = conn.execute("SELECT id FROM rollouts WHERE token_hash = ?", (token_hash,)).fetchone()
    return row[0] if row else None


def list_rollouts(conn: sqlite3.Connection, states: Sequence[str] | None, after_n: int,
                  limit: int) -> list[dict[str, Any]]:
    sc, sp = _in("state", states)
    rows = conn.execute(f"SELECT {ROLLOUT_COLS} FROM rollouts WHERE n > ?{sc} ORDER BY n LIMIT ?",
                        (after_n, *sp, limit)).fetchall()
    return [rollout_dict(r) for r in rows]


def update_state(conn: sqlite3.Connection, rollout_id: str, state: str, attempt: int, updated: float) -> None:
    conn.execute("UPDATE rollouts SET state = ?, attempt = ?, updated = ? WHERE id = ?",
                 (state, attempt, updated, rollout_id))


def set_engine(conn: sqlite3.Connection, rollout_id: str, engine: str | None) -> None:
    conn.execute("UPDATE rollouts SET engine = ? WHERE id = ?", (engine, rollout_id))


def set_held(conn: sqlite3.Connection, rollout_id: str, held_s: float) -> None:
    conn.execute("UPDATE rollouts SET held_s = ? WHERE id = ?", (held_s, rollout_id))


def set_token(conn: sqlite3.Connection, rollout_id: str, token_hash: bytes, updated: float) -> None:
    conn.execute("UPDATE rollouts SET token_hash = ?, updated = ? WHERE id = ?", (token_hash, updated, rollout_id))


# ---- events -----------------------------------------------------------------------------------------

_NO_VALUES = dict.fromkeys(EVENT_INSERT_COLS)
_PICK = itemgetter(*EVENT_INSERT_COLS)


def event_row(**fields: Any) -> tuple:
    """One events row in EVENT_INSERT_COLS order from `Event` field values (plus `idem`): token ids and
    log-probs as lists or arrays, JSON as objects or bytes. TypeError/OverflowError for a bad token id."""
    d = {**_NO_VALUES, **fields}
    if len(d) != len(_NO_VALUES):
        raise TypeError(f"not event columns: {sorted(d.keys() - _NO_VALUES.keys())}")
    row = list(_PICK(d))
    for i, enc in _ENCODERS:
        if row[i] is not None:
            row[i] = enc(row[i])
    return tuple(row)


_SQUEEZE_AT = tuple(EVENT_INSERT_COLS.index(c) for c in BULKY)


def insert_event(conn: sqlite3.Connection, values: tuple) -> tuple[int, int]:
    """`values` from `event_row`; the per-rollout seq is assigned here, inside the write, and the bulky
    JSON compressed here (on the writer thread, off the event loop)."""
    vals = list(values)
    for i in _SQUEEZE_AT:
        vals[i] = squeeze(vals[i])
    row = conn.execute(_EVENT_INSERT, (*vals, values[0])).fetchall()[0]
    return int(row[0]), int(row[1])


def event_dict(cols: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    """A stored row as JSON-ready `Event` fields (token arrays as lists)."""
    d = dict(zip(cols, row, strict=True))
    for c in cols:
        dec = _DECODERS.get(c)
        if dec is not None and d[c] is not None:
            d[c] = dec(d[c])
    return d


def select_events(conn: sqlite3.Connection, cols: Sequence[str], where: str, params: Sequence[Any]) -> list[dict]:
    """Events `WHERE <where>` as `event_dict`s of `cols`: prompts (when `prompt_ids` and `prompt_parent` are
    among them) and request JSON (when `request` is) rebuilt whole, the storage-only delta columns dropped."""
    with_req = "request" in cols
    q = (*cols, *REQ_COLS) if with_req else tuple(cols)
    rows = conn.execute(f"SELECT {', '.join(q)} FROM events WHERE {where}", params).fetchall()
    items = [event_dict(q, r) for r in rows]
    if "prompt_ids" in cols and "prompt_parent" in cols:
        _full_prompts(conn, items)
    if with_req:
        full_requests(conn, items)
        for e in items:
            del e["req_parent"], e["req_shared"]
    return items


def _cols(with_json: bool) -> tuple[str, ...]:
    return EVENT_COLS if with_json else EVENT_LIGHT_COLS


def event_by_idem(conn: sqlite3.Connection, rollout_id: str, idem: str) -> dict[str, Any] | None:
    rows = select_events(conn, ("id", "seq"), "rollout_id = ? AND idem = ?", (rollout_id, idem))
    return rows[0] if rows else None


_CURRENT_ATTEMPT = " AND attempt = (SELECT r.attempt FROM rollouts r WHERE r.id = events.rollout_id)"


def _in(column: str, values: Sequence[Any] | None) -> tuple[str, tuple]:
    """` AND column IN (?, ...)` and its parameters; nothing for no values."""
    if not values:
        return "", ()
    return f" AND {column} IN ({','.join('?' * len(values))})", tuple(values)


def list_events(conn: sqlite3.Connection, rollout_id: str, after_seq: int, limit: int,
                kinds: Sequence[str] | None, with_json: bool) -> list[dict[str, Any]]:
    kc, kp = _in("kind", kinds)
    return select_events(conn, _cols(with_json), f"rollout_id = ? AND seq > ?{kc} ORDER BY seq LIMIT ?",
                         (rollout_id, after_seq, *kp, limit))


def list_events_global(conn: sqlite3.Connection, after: int, limit: int, kinds: Sequence[str] | None,
                       with_json: bool) -> list[dict[str, Any]]:
    kc, kp = _in("kind", kinds)
    return select_events(conn, _cols(with_json), f"id > ?{kc} ORDER BY id LIMIT ?", (after, *kp, limit))


def events_of(conn: sqlite3.Connection, rollout_ids: Sequence[str], kinds: Sequence[str] | None,
              current_attempt: bool, include_json: str, after: int, limit: int) -> list[dict[str, Any]]:
    """The events of many rollouts in commit order, in one query. `current_attempt`: only each rollout's
    current attempt; `include_json`: `none`, `all`, or `last` (only each rollout's last model_request)."""
    kc, kp = _in("kind", kinds)
    att = _CURRENT_ATTEMPT if current_attempt else ""
    items = select_events(conn, _cols(include_json == "all"),
                          f"rollout_id IN {EACH} AND id > ?{kc}{att} ORDER BY id LIMIT ?",
                          (orjson.dumps(list(rollout_ids)).decode(), after, *kp, limit))
    if include_json == "last":
        for e in items:
            e["request"] = e["response"] = None
        last = {e["id"]: e for e in {e["rollout_id"]: e for e in items if e["kind"] == "model_request"}.values()}
        if last:
            for r in select_events(conn, ("id", *BULKY), f"id IN ({','.join('?' * len(last))})", list(last)):
                last[r["id"]].update(r)
    return items


def list_completed(conn: sqlite3.Connection, after: int, limit: int, states: Sequence[str]) -> list[dict]:
    sc, sp = _in("state", states)
    rows = select_events(conn, ("id", "rollout_id", "group_id", "attempt", "state"),
                         f"kind = 'status' AND id > ?{sc} ORDER BY id LIMIT ?", (after, *sp, limit))
    for r in rows:
        r["cursor"] = r.pop("id")
    return rows


# ---- delta-encoded prompts and the binary token batch (swerl.tokens) --------------------------------

_CHAIN_COLS = ("id", "prompt_parent", "prompt_shared", "prompt_ids", "response_ids")


def _full_prompts(conn: sqlite3.Connection, items: list[dict[str, Any]]) -> None:
    """Delta-encoded prompts back to whole prompt lists, in place: the JSON API always shows full prompts."""
    if not any(e.get("prompt_parent") is not None for e in items):
        return

    def fetch(ids: list[int]) -> list[dict[str, Any]]:
        rows = conn.execute(f"SELECT {', '.join(_CHAIN_COLS)} FROM events WHERE id IN {EACH}",
                            (orjson.dumps(ids).decode(),)).fetchall()
        return [event_dict(_CHAIN_COLS, r) for r in rows]

    resolve_prompts(items, fetch)


def full_requests(conn: sqlite3.Connection, items: list[dict[str, Any]]) -> None:
    """Delta-encoded request JSON back to whole requests, in place (`items` carry `id`, a parsed `request`
    and `req_parent`/`req_shared`). Ancestors not in `items` come in one recursive query."""
    want = [e for e in items if e.get("req_parent") is not None and e.get("request") is not None]
    if not want:
        return
    known: dict[int, tuple[int | None, int, Any]] = {
        int(e["id"]): (e["req_parent"], int(e["req_shared"] or 0), e["request"]) for e in items}
    starts = sorted({int(e["req_parent"]) for e in want} - known.keys())
    if starts:
        rows = conn.execute(
            "WITH RECURSIVE chain(id) AS (SELECT value FROM json_each(?) UNION "
            "SELECT e.req_parent FROM events e JOIN chain c ON e.id = c.id WHERE e.req_parent IS NOT NULL) "
            "SELECT id, req_parent, req_shared, request FROM events WHERE id IN (SELECT id FROM chain)",
            (orjson.dumps(starts).decode(),)).fetchall()
        for eid, par, sh, req in rows:
            if eid not in known:
                known[eid] = (par, int(sh or 0), json_of(req))
    full: dict[int, Any] = {}
    for eid in sorted(known):  # a parent always has a smaller id: it committed first
        par, sh, req = known[eid]
        if req is None:
            continue
        if par is None:
            full[eid] = req
            continue
        base = full.get(int(par))
        try:
            if base is None:
                raise KeyError(f"parent event {par}")
            full[eid] = decode_request(req, sh, base)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"store event {eid}: request stored against event {par} cannot be rebuilt "
                             f"(missing {exc}): the store is damaged") from None
    for e in want:
        e["request"] = full[int(e["id"])]


def token_batch(conn: sqlite3.Connection, rollout_ids: Sequence[str], kinds: Sequence[str] | None,
                current_attempt: bool, include_json: str) -> bytes:
    """The events of many rollouts as one binary `swerl.tokens.TokenBatch` (the trainer's fetch).

    Blobs go in as stored (prompts stay delta records: the batch is as small as the store); a call
    not answered 200 is marked failed. `include_json` "last"/"all": the request JSON of each
    rollout's last model_request / of every one.
    """
    kc, kp = _in("kind", kinds)
    kc = kc.replace(" kind IN", " +kind IN")  # look rollouts up by their index, never scan every event of a kind
    att = _CURRENT_ATTEMPT if current_attempt else ""
    cols = ", ".join("CASE WHEN error IS NULL AND http_status IS NOT NULL AND http_status != 200 THEN "
                     "'http_status ' || http_status ELSE error END" if c == "error" else c for c in ROW_FIELDS)
    rows = conn.execute(f"SELECT {cols} FROM events WHERE rollout_id IN {EACH}{kc}{att}",
                        (orjson.dumps(list(rollout_ids)).decode(), *kp)).fetchall()
    rows.sort(key=lambda r: r[0])  # commit order; sorted here, not in SQL (which would sort the blobs too)
    have = {r[0] for r in rows}
    missing = {r[7] for r in rows if r[7] is not None} - have
    while missing:  # never expected (parents are earlier calls of the same attempt), but a batch must be whole
        more = conn.execute(f"SELECT {cols} FROM events WHERE id IN {EACH}",
                            (orjson.dumps(sorted(missing)).decode(),)).fetchall()
        if not more:
            raise ValueError(f"events {sorted(missing)[:5]}: parents of stored prompts are missing from the store")
        rows = sorted([*rows, *more], key=lambda r: r[0])
        have |= {r[0] for r in more}
        missing = {r[7] for r in more if r[7] is not None} - have
    requests: dict[int, Any] = {}
    if include_json in ("last", "all"):
        calls = {r[0]: i for i, r in enumerate(rows) if r[5] == "model_request"}
        want = list(calls) if include_json == "all" else list({r[1]: r[0] for r in rows
                                                                if r[5] == "model_request"}.values())
        reqs = [event_dict(("id", "request", *REQ_COLS), r) for r in conn.execute(
            f"SELECT id, request, {', '.join(REQ_COLS)} FROM events WHERE id IN {EACH}",
            (orjson.dumps(want).decode(),))]
        full_requests(conn, reqs)
        for e in reqs:
            if e["request"]:
                requests[calls[e["id"]]] = e["request"]
    return TokenBatch.rows_to_bytes(rows, requests=requests)


# ---- meta -------------------------------------------------------------------------------------------

def get_meta(conn: sqlite3.Connection, key: str) -> Any:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return orjson.loads(row[0]) if row else None


def set_meta(conn: sqlite3.Connection, key: str, value: Any) -> None:
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, orjson.dumps(value)))
