"""The SQLite store: group commit, failure isolation, compact codecs, durability under kill -9."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from gateway_helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from swerl.gateway import sql
from swerl.gateway.store import Store, StoreError


@given(st.lists(st.integers(0, 2**31 - 1), max_size=300),
       st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=300))
@settings(max_examples=60, deadline=None)
def test_token_and_logprob_blobs_round_trip_exactly(ids: list[int], lps: list[float]) -> None:
    assert sql.blob_ids(sql.ids_blob(ids)) == ids
    assert sql.blob_floats(sql.floats_blob(lps)) == lps  # bit-exact for float32 values (what engines produce)
    assert len(sql.ids_blob(ids) or b"") == 4 * len(ids)


def test_concurrent_writes_are_group_committed_and_ordered(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")

    async def main() -> list[int]:
        def job(i: int):
            return lambda c: c.execute("INSERT INTO meta(key, value) VALUES (?, ?) RETURNING rowid",
                                       (f"k{i}", b"1")).fetchall()[0][0]
        return await asyncio.gather(*(store.write(job(i)) for i in range(500)))

    rowids = asyncio.run(main())
    assert sorted(rowids) == rowids  # acknowledged in submission order = commit order
    assert store.batched_writes == 500
    assert store.commits < 500  # many writes shared one commit
    store.close()
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    assert conn.execute("SELECT COUNT(*) FROM meta").fetchone()[0] == 500


def test_a_failing_write_does_not_fail_its_batch(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")

    async def main() -> list:
        def ok(i: int):
            return lambda c: sql.set_meta(c, f"k{i}", i)

        def bad(c: sqlite3.Connection) -> None:
            c.execute("INSERT INTO no_such_table VALUES (1)")

        jobs = [store.write(ok(i)) for i in range(20)] + [store.write(bad)] + [store.write(ok(i)) for i in range(20, 40)]
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = asyncio.run(main())
    assert isinstance(results[20], StoreError)
    assert [r for i, r in enumerate(results) if i != 20] == [None] * 40
    assert store.read_now(lambda c: c.execute("SELECT COUNT(*) FROM meta").fetchone()[0]) == 40
    store.close()


WRITER = """
import asyncio, sys
from swerl.gateway.store import Store
from swerl.gateway import sql
store = Store(sys.argv[1])
async def main():
    async def one(i):
        await store.write(lambda c: sql.set_meta(c, f"k{i}", i))
        sys.stdout.write(f"{i}\\n"); sys.stdout.flush()   # acknowledged
    await asyncio.gather(*(one(i) for i in range(100000)))
asyncio.run(main())
"""


def test_kill_9_loses_no_acknowledged_write(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    p = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    acked = []
    assert p.stdout is not None
    for line in p.stdout:  # read acknowledgements until a good number are in, then kill mid-stream
        acked.append(int(line))
        if len(acked) >= 3000:
            os.kill(p.pid, signal.SIGKILL)
            break
    p.wait()
    acked += [int(x) for x in p.stdout.read().split()]
    store = Store(db)
    keys = set(store.read_now(lambda c: [r[0] for r in c.execute("SELECT key FROM meta")]))
    store.close()
    assert len(acked) >= 3000
    assert {f"k{i}" for i in acked} <= keys
