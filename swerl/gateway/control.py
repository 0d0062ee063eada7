"""Pause / drain / hold for collocated training (ALGORITHMS.md section 6).

`pause()` stops admitting calls and returns once in-flight calls have finished
(drained). Calls that arrive while paused are *held*: their HTTP request just
waits (no 429, AL1's harnesses would burn retries on it). `resume(version)`
releases them and they are served, and recorded, with the new policy version.
A call's policy version is fixed when it is admitted, and a pause drains
before any update, so a call is never served by two policies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Gate:
    def __init__(self, policy_version: int = 0, paused: bool = False) -> None:
        self.policy_version = policy_version
        self.paused = paused
        self.in_flight = 0
        self.held = 0
        self._open = asyncio.Event()
        self._drained = asyncio.Event()
        if not paused:
            self._open.set()
        self._drained.set()

    async def enter(self) -> int:
        """Hold while paused, then count the call in flight; returns the policy version serving it.

        Every `enter` must be paired with one `leave` (a streamed call leaves when its stream ends).
        """
        while self.paused:
            self.held += 1
            try:
                await self._open.wait()
            finally:
                self.held -= 1
        self.in_flight += 1
        self._drained.clear()
        return self.policy_version

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self._drained.set()

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[int]:
        version = await self.enter()
        try:
            yield version
        finally:
            self.leave()

    async def pause(self, timeout: float | None = None) -> bool:
        """Stop admitting; return True once drained (False if `timeout` passed first: still paused)."""
        self.paused = True
        self._open.clear()
        if self.in_flight == 0:
            return True
        try:
            await asyncio.wait_for(self._drained.wait(), timeout)
        except TimeoutError:
            return False
        return self.in_flight == 0

    def resume(self, policy_version: int) -> None:
        self.policy_version = policy_version
        self.paused = False
        self._open.set()
