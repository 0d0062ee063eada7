"""Pause / drain / hold for collocated training.

`pause()` stops admitting calls and returns once in-flight ones finished. Calls arriving while
paused are *held*: the HTTP request just waits (a 429 would burn the harness's retries) until
`resume(version)` serves them with the new policy version. A call's version is fixed at admission
and a pause drains before any update, so no call sees two policies. A held call whose client
leaves (`ClientGone`) is never served: the harness's resend is the call that counts.
"""

from __future__ import annotations

import asyncio


class ClientGone(Exception):
    """The client disconnected while its call was held."""


class HeldTooLong(Exception):
    """A call was held longer than the gate's `max_hold_s`; it is answered 503 (the harness retries)."""


async def _either(a: asyncio.Event, b: asyncio.Event, timeout: float) -> None:
    tasks = [asyncio.ensure_future(a.wait()), asyncio.ensure_future(b.wait())]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()


class Gate:
    """`max_hold_s` bounds how long a call is held, so that a client timeout of `max_hold_s` plus the
    engine's read timeout can never fire because of a pause (see `GatewaySettings.client_timeout_s`)."""

    def __init__(self, policy_version: int = 0, paused: bool = False, max_hold_s: float = 1800.0) -> None:
        self.max_hold_s = max_hold_s
        self.policy_version = policy_version
        self.paused = paused
        self.in_flight = 0
        self.held = 0
        self._open = asyncio.Event()
        self._drained = asyncio.Event()
        if not paused:
            self._open.set()
        self._drained.set()

    async def enter(self, gone: asyncio.Event | None = None) -> int:
        """Hold while paused, then count the call in flight; returns the policy version serving it.

        Pair every successful `enter` with one `leave`. Raises (not entered) `ClientGone` if `gone`
        is set while held, `HeldTooLong` after `max_hold_s`."""
        if not self.paused:
            self.in_flight += 1
            self._drained.clear()
            return self.policy_version
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_hold_s
        never = asyncio.Event()
        while self.paused:
            self.held += 1
            try:
                left = deadline - loop.time()
                if left <= 0:
                    raise HeldTooLong
                await _either(self._open, gone or never, left)
                if gone is not None and gone.is_set():
                    raise ClientGone
            finally:
                self.held -= 1
        self.in_flight += 1
        self._drained.clear()
        return self.policy_version

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self._drained.set()

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
