"""Read-only access to a gateway store while a run may be writing it.

One SQLite connection per server thread, `query_only` and memory-mapped like the gateway's own
readers: WAL readers see every committed row and never block the writer. Only indexed lookups
(rollout id, the `(rollout_id, seq)` key, the state index), so a store of 100,000 rollouts costs
no more per page than a small one. The `token_hash` column is never read.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from swerl.gateway import sql
from swerl.tokens import TokenBatch

_RCOLS = ("id", "group_id", "state", "attempt", "max_attempts", "engine", "metadata", "created", "updated", "held_s")
_META_COLS = ("id", "rollout_id", "attempt", "seq", "kind", "state", "reward", "data", "created")
_CALL_COLS = ("id", "attempt", "seq", "policy_version", "mode", "prompt_parent", "prompt_shared", "finish_reason",
              "error", "http_status", "t_arrival", "t_start", "t_end", "created")
_EACH = "(SELECT value FROM json_each(?))"


class StoreReader:
    """The rollouts and events of one store file, for the viewer's pages."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
            conn.execute("PRAGMA query_only = 1")
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute(f"PRAGMA mmap_size = {1 << 30}")
            self._local.conn = conn
        return conn

    def summary(self) -> dict[str, Any]:
        """Schema version, current policy version, rollouts per state (the state index answers this)."""
        c = self._conn()
        states = dict(c.execute("SELECT state, COUNT(*) FROM rollouts GROUP BY state").fetchall())
        meta = dict(c.execute("SELECT key, value FROM meta WHERE key IN ('policy_version', 'paused')").fetchall())
        return {"schema": c.execute("PRAGMA user_version").fetchone()[0], "rollouts_by_state": states,
                "policy_version": orjson.loads(meta["policy_version"]) if "policy_version" in meta else None,
                "paused": orjson.loads(meta["paused"]) if "paused" in meta else None}

    def rollouts(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        rows = self._conn().execute(f"SELECT {', '.join(_RCOLS)} FROM rollouts WHERE id IN {_EACH}",
                                    (orjson.dumps(list(ids)).decode(),)).fetchall()
        out = {}
        for r in rows:
            d = dict(zip(_RCOLS, r, strict=True))
            d["metadata"] = orjson.loads(d["metadata"])
            out[d["id"]] = d
        return out

    def outcome_events(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """Reward and status events of these rollouts (every attempt), in commit order."""
        rows = self._conn().execute(
            f"SELECT {', '.join(_META_COLS)} FROM events WHERE rollout_id IN {_EACH} AND kind != 'model_request' "
            "ORDER BY id", (orjson.dumps(list(ids)).decode(),)).fetchall()
        out = []
        for r in rows:
            d = dict(zip(_META_COLS, r, strict=True))
            d["data"] = sql.json_of(d["data"])
            out.append(d)
        return out

    def calls(self, rollout_id: str) -> list[dict[str, Any]]:
        """Every model call of the rollout (all attempts) with its request/response JSON, without token arrays."""
        c = self._conn()
        cols = (*_CALL_COLS, "request", "response", *sql.REQ_COLS)
        rows = c.execute(f"SELECT {', '.join(cols)} FROM events WHERE rollout_id = ? AND kind = 'model_request' "
                         "ORDER BY seq", (rollout_id,)).fetchall()
        items = [sql.event_dict(cols, r) for r in rows]
        sql.full_requests(c, items)
        for e in items:
            del e["req_parent"], e["req_shared"]
        return items

    def token_batch(self, ids: Sequence[str]) -> TokenBatch:
        """The trainer's fetch: these rollouts' current attempts as one binary batch (delta-encoded prompts)."""
        raw = sql.token_batch(self._conn(), list(ids), ["model_request", "reward"], True, "none")
        return TokenBatch.from_bytes(raw)

    def search(self, text: str, limit: int) -> list[dict[str, Any]]:
        """Rollouts whose id (which holds the task id) contains `text`, newest first."""
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._conn().execute("SELECT id, group_id, state, attempt FROM rollouts WHERE id LIKE ? ESCAPE '\\' "
                                    "ORDER BY n DESC LIMIT ?", (pattern, limit)).fetchall()
        return [dict(zip(("id", "group_id", "state", "attempt"), r, strict=True)) for r in rows]

    def all_ids(self) -> list[str]:
        return [r[0] for r in self._conn().execute("SELECT id FROM rollouts ORDER BY n")]


__all__ = ["StoreReader"]
