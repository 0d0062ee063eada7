"""SQL of the gateway store: schema, statements, and compact row codecs.

Every function takes a `sqlite3.Connection` and runs on a store thread (the
single writer or a reader), never on the event loop. Token ids are stored as
little-endian int32 blobs and logprobs as float64 blobs: ~5x smaller than
JSON lists, and float64 keeps the engine's logprobs bit-exact.
"""

from __future__ import annotations

import sqlite3
import sys
from array import array
from collections.abc import Sequence
from typing import Any

import orjson

SCHEMA_VERSION = 1

SCHEMA = """
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
  updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rollouts_state ON rollouts(state, n);
CREATE TABLE IF NOT EXISTS events(
  id INTEGER PRIMARY KEY,
  rollout_id TEXT NOT NULL,
  group_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  policy_version INTEGER,
  mode TEXT,
  engine TEXT,
  prompt_ids BLOB,
  response_ids BLOB,
  response_logprobs BLOB,
  finish_reason TEXT,
  error TEXT,
  http_status INTEGER,
  state TEXT,
  reward REAL,
  data BLOB,
  request BLOB,
  response BLOB,
  t_arrival REAL,
  t_start REAL,
  t_end REAL,
  created REAL NOT NULL,
  idem TEXT,
  UNIQUE(rollout_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_idem ON events(rollout_id, idem) WHERE idem IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, id);
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);
"""

ROLLOUT_COLS = "n, id, group_id, state, attempt, max_attempts, token_hash, engine, metadata, created, updated"
EVENT_INSERT_COLS = ("rollout_id", "group_id", "attempt", "kind", "policy_version", "mode", "engine",
                     "prompt_ids", "response_ids", "response_logprobs", "finish_reason", "error",
                     "http_status", "state", "reward", "data", "request", "response", "t_arrival",
                     "t_start", "t_end", "created", "idem")
_EVENT_INSERT = (
    f"INSERT INTO events({', '.join(EVENT_INSERT_COLS)}, seq) VALUES ({', '.join('?' * len(EVENT_INSERT_COLS))}, "
    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE rollout_id = ?)) RETURNING id, seq")
EVENT_LIGHT_COLS = ("id, rollout_id, group_id, attempt, seq, kind, policy_version, mode, engine, prompt_ids, "
                    "response_ids, response_logprobs, finish_reason, error, http_status, state, reward, data, "
                    "t_arrival, t_start, t_end, created")
EVENT_ALL_COLS = EVENT_LIGHT_COLS + ", request, response"
TERMINAL_SQL = "('succeeded', 'failed_agent', 'failed_infra')"

_SWAP = sys.byteorder != "little"


def ids_blob(ids: Sequence[int] | array | None) -> bytes | None:
    """int32 little-endian; raises TypeError/OverflowError for anything that is not a token id."""
    if ids is None:
        return None
    a = ids if isinstance(ids, array) and ids.typecode == "i" else array("i", ids)
    if _SWAP:
        a = array("i", a)
        a.byteswap()
    return a.tobytes()


def floats_blob(xs: Sequence[float] | array | None) -> bytes | None:
    if xs is None:
        return None
    a = xs if isinstance(xs, array) and xs.typecode == "d" else array("d", xs)
    if _SWAP:
        a = array("d", a)
        a.byteswap()
    return a.tobytes()


def blob_ids(b: bytes | None) -> list[int] | None:
    if b is None:
        return None
    a = array("i")
    a.frombytes(b)
    if _SWAP:
        a.byteswap()
    return a.tolist()


def blob_floats(b: bytes | None) -> list[float] | None:
    if b is None:
        return None
    a = array("d")
    a.frombytes(b)
    if _SWAP:
        a.byteswap()
    return a.tolist()


def init(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


# ---- rollouts ---------------------------------------------------------------------------------------

def rollout_dict(row: tuple) -> dict[str, Any]:
    return {"n": row[0], "id": row[1], "group_id": row[2], "state": row[3], "attempt": row[4],
            "max_attempts": row[5], "token_hash": row[6], "engine": row[7], "metadata": orjson.loads(row[8]),
            "created": row[9], "updated": row[10]}


def insert_rollout(conn: sqlite3.Connection, r: dict[str, Any]) -> int:
    """`r["metadata"]` arrives serialised (JSON bytes): serialising can fail, and must fail before the write."""
    cur = conn.execute(
        "INSERT INTO rollouts(id, group_id, state, attempt, max_attempts, token_hash, engine, metadata, created, "
        "updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (r["id"], r["group_id"], r["state"], r["attempt"], r["max_attempts"], r["token_hash"], r["engine"],
         r["metadata"], r["created"], r["updated"]))
    return int(cur.lastrowid or 0)


def get_rollout(conn: sqlite3.Connection, rollout_id: str) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT {ROLLOUT_COLS} FROM rollouts WHERE id = ?", (rollout_id,)).fetchone()
    return rollout_dict(row) if row else None


def rollout_id_by_token(conn: sqlite3.Connection, token_hash: bytes) -> str | None:
    row = conn.execute("SELECT id FROM rollouts WHERE token_hash = ?", (token_hash,)).fetchone()
    return row[0] if row else None


def list_rollouts(conn: sqlite3.Connection, states: Sequence[str] | None, after_n: int,
                  limit: int) -> list[dict[str, Any]]:
    if states:
        q = (f"SELECT {ROLLOUT_COLS} FROM rollouts WHERE state IN ({','.join('?' * len(states))}) AND n > ? "
             "ORDER BY n LIMIT ?")
        rows = conn.execute(q, (*states, after_n, limit)).fetchall()
    else:
        rows = conn.execute(f"SELECT {ROLLOUT_COLS} FROM rollouts WHERE n > ? ORDER BY n LIMIT ?",
                            (after_n, limit)).fetchall()
    return [rollout_dict(r) for r in rows]


def update_state(conn: sqlite3.Connection, rollout_id: str, state: str, attempt: int, updated: float) -> None:
    conn.execute("UPDATE rollouts SET state = ?, attempt = ?, updated = ? WHERE id = ?",
                 (state, attempt, updated, rollout_id))


def set_engine(conn: sqlite3.Connection, rollout_id: str, engine: str | None) -> None:
    conn.execute("UPDATE rollouts SET engine = ? WHERE id = ?", (engine, rollout_id))


def set_token(conn: sqlite3.Connection, rollout_id: str, token_hash: bytes, updated: float) -> None:
    conn.execute("UPDATE rollouts SET token_hash = ?, updated = ? WHERE id = ?", (token_hash, updated, rollout_id))


# ---- events -----------------------------------------------------------------------------------------

def insert_event(conn: sqlite3.Connection, values: tuple) -> tuple[int, int]:
    """`values` in EVENT_INSERT_COLS order; the per-rollout seq is assigned here, inside the write."""
    row = conn.execute(_EVENT_INSERT, (*values, values[0])).fetchall()[0]
    return int(row[0]), int(row[1])


def event_by_idem(conn: sqlite3.Connection, rollout_id: str, idem: str) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT {EVENT_ALL_COLS} FROM events WHERE rollout_id = ? AND idem = ?",
                       (rollout_id, idem)).fetchone()
    return event_dict(row, True) if row else None


def event_dict(row: tuple, with_json: bool) -> dict[str, Any]:
    d = {"id": row[0], "rollout_id": row[1], "group_id": row[2], "attempt": row[3], "seq": row[4],
         "kind": row[5], "policy_version": row[6], "mode": row[7], "engine": row[8],
         "prompt_ids": blob_ids(row[9]), "response_ids": blob_ids(row[10]),
         "response_logprobs": blob_floats(row[11]), "finish_reason": row[12], "error": row[13],
         "http_status": row[14], "state": row[15], "reward": row[16],
         "data": orjson.loads(row[17]) if row[17] else None, "t_arrival": row[18], "t_start": row[19],
         "t_end": row[20], "created": row[21]}
    if with_json:
        d["request"] = orjson.loads(row[22]) if row[22] else None
        d["response"] = orjson.loads(row[23]) if row[23] else None
    return d


def _kinds_clause(kinds: Sequence[str] | None) -> tuple[str, tuple]:
    if not kinds:
        return "", ()
    return f" AND kind IN ({','.join('?' * len(kinds))})", tuple(kinds)


def list_events(conn: sqlite3.Connection, rollout_id: str, after_seq: int, limit: int,
                kinds: Sequence[str] | None, with_json: bool) -> list[dict[str, Any]]:
    cols = EVENT_ALL_COLS if with_json else EVENT_LIGHT_COLS
    kc, kp = _kinds_clause(kinds)
    rows = conn.execute(f"SELECT {cols} FROM events WHERE rollout_id = ? AND seq > ?{kc} ORDER BY seq LIMIT ?",
                        (rollout_id, after_seq, *kp, limit)).fetchall()
    return [event_dict(r, with_json) for r in rows]


def list_events_global(conn: sqlite3.Connection, after: int, limit: int, kinds: Sequence[str] | None,
                       with_json: bool) -> list[dict[str, Any]]:
    cols = EVENT_ALL_COLS if with_json else EVENT_LIGHT_COLS
    kc, kp = _kinds_clause(kinds)
    rows = conn.execute(f"SELECT {cols} FROM events WHERE id > ?{kc} ORDER BY id LIMIT ?",
                        (after, *kp, limit)).fetchall()
    return [event_dict(r, with_json) for r in rows]


def list_completed(conn: sqlite3.Connection, after: int, limit: int, states: Sequence[str]) -> list[dict]:
    rows = conn.execute(
        f"SELECT id, rollout_id, group_id, attempt, state FROM events WHERE kind = 'status' AND id > ? "
        f"AND state IN ({','.join('?' * len(states))}) ORDER BY id LIMIT ?", (after, *states, limit)).fetchall()
    return [{"cursor": r[0], "rollout_id": r[1], "group_id": r[2], "attempt": r[3], "state": r[4]} for r in rows]


def last_event_id(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])


# ---- meta -------------------------------------------------------------------------------------------

def get_meta(conn: sqlite3.Connection, key: str) -> Any:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return orjson.loads(row[0]) if row else None


def set_meta(conn: sqlite3.Connection, key: str, value: Any) -> None:
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, orjson.dumps(value)))
