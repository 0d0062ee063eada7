"""Time the gateway held a rollout's model calls (a training pause), kept off the agent's time budget.

Held time grows only while one of the rollout's calls waits in a paused gateway, and the proxy reports the
rollout's total on every answer it serves (`x-swerl-held-s`, `swerl.gateway.schema.HELD_S_HEADER`). So the
harness reads it from the answers it already gets (mini-swe-agent: litellm's response headers; Terminus-2: the
worker forwards them with each command) and moves the sandbox deadline before a command; the gateway is asked
(`ask`, one GET) only when the budget looks spent, which covers a hold still in progress and a model class whose
answers' headers cannot be seen. A command never costs a request of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from swerl.gateway.schema import HELD_S_HEADER
from swerl.log import get_logger
from swerl.sandbox.base import SandboxHandle

log = get_logger(__name__)


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if x >= 0.0 and x == x and x != float("inf") else None


class HeldTime:
    """The held seconds of one attempt's rollout: `baseline` as the attempt started (earlier attempts' holds, which
    are not this attempt's time), then what the gateway's answers report; `extend(handle)` charges the growth to
    the sandbox deadline. `ask` reads the gateway's current value (any exception: no answer now)."""

    def __init__(self, baseline: float = 0.0, ask: Callable[[], float] | None = None) -> None:
        self.reported = self.charged = float(baseline)
        self._ask = ask

    @classmethod
    def of(cls, held_s: HeldTime | Callable[[], float] | None) -> HeldTime | None:
        """`held_s` as a `HeldTime`: a plain callable (seconds held so far) is read once now and asked again
        only when the budget looks spent."""
        if held_s is None or isinstance(held_s, HeldTime):
            return held_s
        held = cls(0.0, held_s)
        held.charged = held.refresh()
        return held

    def __call__(self) -> float:
        """Seconds held so far, as last reported."""
        return self.reported

    def report(self, value: Any) -> None:
        """A value the gateway reported (a header's text, a number); it only grows, so a late one is ignored."""
        x = _number(value)
        if x is not None and x > self.reported:
            self.reported = x

    def observe(self, headers: Mapping[str, Any] | None) -> None:
        """The headers of one of the gateway's answers (any mapping; keys in any case)."""
        if not headers:
            return
        value = headers.get(HELD_S_HEADER)
        if value is None:
            value = next((v for k, v in headers.items() if str(k).lower() == HELD_S_HEADER), None)
        self.report(value)

    def refresh(self) -> float:
        """Ask the gateway (one request); an unreachable gateway leaves the value as it was."""
        if self._ask is not None:
            try:
                self.report(self._ask())
            except Exception as exc:  # the gateway is briefly unreachable: no extension now, a later check catches up
                log.warning("could not read held time", error=str(exc)[:200])
        return self.reported

    def extend(self, handle: SandboxHandle) -> float:
        """Move `handle.deadline` by the held time not charged yet; when the budget looks spent, ask the gateway
        first (a hold in progress, or answers whose headers were not seen). Returns the seconds added."""
        if handle.remaining_s + (self.reported - self.charged) <= 0:
            self.refresh()
        gain = self.reported - self.charged
        if gain > 0:
            handle.deadline += gain
            self.charged = self.reported
            log.info("time budget extended by held time", sandbox=handle.id, seconds=round(gain, 2))
        return max(gain, 0.0)


def reading_held_time(query: Callable[..., Any], held: HeldTime) -> Callable[..., Any]:
    """A mini-swe-agent model's `_query` (one litellm call) that reports each answer's held-time header to `held`
    (litellm keeps the HTTP headers on its response as `_response_headers`)."""

    def run(*args: Any, **kw: Any) -> Any:
        response = query(*args, **kw)
        held.observe(getattr(response, "_response_headers", None))
        return response

    return run


__all__ = ["HeldTime", "reading_held_time"]
