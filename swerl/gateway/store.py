"""The durable store: one SQLite file in WAL mode, one writer thread with group commit.

An acknowledged write must survive kill -9 (with `synchronous=FULL`, power loss), so every write
waits for its COMMIT before the response goes out. Rather than a commit per request (capped at the
fsync rate), the writer commits everything queued during the previous commit as one transaction
(group commit). A single writer also makes event ids increase in commit order, so a reader's
`id > cursor` never skips a row that commits later. Reads use a small thread pool (WAL readers
never block the writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from swerl.gateway import sql
from swerl.log import get_logger

log = get_logger(__name__)
T = TypeVar("T")
Job = tuple[Callable[[sqlite3.Connection], Any], asyncio.Future]
MAX_BATCH = 1024
READ_MMAP = 1 << 30  # readers map the store instead of a read() per page: ~17% less CPU for the trainer's fetch
PAGE_SIZE = 2048
"""A new store's page size: rows are a few KB of blobs spilling into overflow pages, and smaller pages
leave less slack: 5-6% smaller files than the default 4 KB at the same fetch speed (1 KB reads slower)."""


class StoreError(Exception):
    """The store could not commit (disk full, I/O error); the API answers 503."""


def _connect(path: str, synchronous: str, readonly: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    if not readonly:  # a new store only (an existing file keeps its page size): see PAGE_SIZE
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA temp_store = MEMORY")
    if readonly:
        conn.execute("PRAGMA query_only = 1")
        conn.execute(f"PRAGMA mmap_size = {READ_MMAP}")
    else:
        conn.execute("PRAGMA wal_autocheckpoint = 4000")
        conn.execute("PRAGMA journal_size_limit = 67108864")
    return conn


class Store:
    """Async facade: `await store.write(fn)` returns after fn's transaction committed."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL", readers: int = 2) -> None:
        sync = synchronous.upper()
        if sync not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = sync
        try:
            init_conn = _connect(self.path, sync)
        except sqlite3.DatabaseError as exc:  # e.g. "file is not a database": name the file, say what it is not
            raise sql.StoreVersionError(f"{self.path}: not a SQLite gateway store ({exc})") from None
        try:
            sql.init(init_conn, self.path)
        finally:
            init_conn.close()
        self._q: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._local = threading.local()
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="gw-read")
        self._commit_waiters: set[asyncio.Future] = set()
        self.commits = self.batched_writes = 0
        self.notifications = 0  # loop-side count of commit notifications (lost-wakeup check for long-polls)
        self._writer = threading.Thread(target=self._write_loop, name="gw-writer", daemon=True)
        self._writer.start()

    def write(self, fn: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        """Queue fn for the writer; the future resolves once its transaction is durable."""
        fut = asyncio.get_running_loop().create_future()
        self._q.put((fn, fut))
        return fut

    def _write_loop(self) -> None:
        conn = _connect(self.path, self.synchronous)
        stop = False
        while not stop:
            item = self._q.get()
            if item is None:
                break
            batch = [item]
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._q.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._deliver(batch, self._apply(conn, batch))
        conn.close()

    def _apply(self, conn: sqlite3.Connection, batch: list[Job]) -> list[tuple[Any, BaseException | None]]:
        try:
            conn.execute("BEGIN IMMEDIATE")
            out = [(fn(conn), None) for fn, _ in batch]
            conn.execute("COMMIT")
            self.commits += 1
            self.batched_writes += len(batch)
            return out
        except Exception as exc:  # isolate the failing job: one transaction each
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if len(batch) == 1:
                return [(None, exc)]
            log.warning("store batch failed; retrying jobs one by one", error=repr(exc), size=len(batch))
            return [self._apply(conn, [job])[0] for job in batch]

    def _deliver(self, batch: list[Job], results: list[tuple[Any, BaseException | None]]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list] = {}
        for (_, fut), res in zip(batch, results, strict=True):
            by_loop.setdefault(fut.get_loop(), []).append((fut, res))
        for loop, items in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for these any more
                loop.call_soon_threadsafe(self._resolve, items)

    def _reader_conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = _connect(self.path, self.synchronous, readonly=True)
        return conn

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run fn on a reader thread: it sees every write that was acknowledged before the call."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, lambda: fn(self._reader_conn()))

    def read_now(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Synchronous read for start-up code that runs before the event loop serves requests."""
        conn = _connect(self.path, self.synchronous, readonly=True)
        try:
            return fn(conn)
        finally:
            conn.close()

    async def wait_commit(self, timeout: float) -> None:
        """Return after the next commit (or timeout): long-polling readers re-query then."""
        fut = asyncio.get_running_loop().create_future()
        self._commit_waiters.add(fut)
        try:
            await asyncio.wait([fut], timeout=timeout)
        finally:
            self._commit_waiters.discard(fut)

    def notify_commit(self) -> None:
        self.notifications += 1
        waiters, self._commit_waiters = self._commit_waiters, set()
        for w in waiters:
            if not w.done():
                w.set_result(None)

    def _resolve(self, items: list[tuple[asyncio.Future, tuple[Any, BaseException | None]]]) -> None:
        """On the loop: complete the batch's futures, then wake long-polls (they see the new rows)."""
        for fut, (result, exc) in items:
            if fut.done():
                continue
            if exc is None:
                fut.set_result(result)
            else:
                fut.set_exception(exc if isinstance(exc, StoreError) else StoreError(repr(exc)))
        self.notify_commit()

    def close(self) -> None:
        self._q.put(None)
        self._writer.join(timeout=30)
        self._readers.shutdown(wait=True, cancel_futures=True)
