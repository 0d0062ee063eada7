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

_RCOLS = tuple(c for c in sql.ROLLOUT_FIELDS if c not in ("n", "token_hash"))
_META_COLS = ("id", "rollout_id", "attempt", "seq", "kind", "state", "reward", "data", "created")
_CALL_COLS = ("id", "attempt", "seq", "policy_version", "mode", "prompt_parent", "prompt_shared", "finish_reason",
              "error", "http_status", "t_arrival", "t_start", "t_end", "created", "request", "response")


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
        return {"schema": c.execute("PRAGMA user_version").fetchone()[0], "rollouts_by_state": states,
                "policy_version": sql.get_meta(c, "policy_version"), "paused": sql.get_meta(c, "paused")}

    def rollouts(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        return sql.rollouts_by_id(self._conn(), ids, _RCOLS)

    def outcome_events(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """Reward and status events of these rollouts (every attempt), in commit order."""
        return sql.select_events(self._conn(), _META_COLS,
                                 f"rollout_id IN {sql.EACH} AND kind != 'model_request' ORDER BY id",
                                 (orjson.dumps(list(ids)).decode(),))

    def calls(self, rollout_id: str) -> list[dict[str, Any]]:
        """Every model call of the rollout (all attempts) with its request/response JSON, without token arrays."""
        return sql.select_events(self._conn(), _CALL_COLS, "rollout_id = ? AND kind = 'model_request' ORDER BY seq",
                                 (rollout_id,))

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
