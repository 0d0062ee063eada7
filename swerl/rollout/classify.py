"""Agent failure or infrastructure failure: the rule every rollout outcome goes through.

The agent's: what its own actions caused - steps or time used up, repeated format errors, a
conversation past the model's context, a sandbox broken from inside (`AgentFault`,
`CopyLimitExceeded`, a grade with `error_kind="agent"` or `tampering`). Those are trained as
reward 0, so sabotage can never choose "infra". Infrastructure: what the agent cannot cause
(sandbox or engine down, gateway 5xx, the rollout taken away, unexpected swerl exceptions);
retried a bounded number of times, never trained. An unknown failure counts as infra: erring
towards not training on it, with the retry budget bounding the cost.
"""

from __future__ import annotations

from typing import Any

from swerl.rollout.schema import ErrorKind

_CONTEXT_HINTS = ("context", "maximum context", "too long", "leaves no room", "max_model_len", "maximum length")


def status_code(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    if code is None:
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) else None


def _agent_fault_types() -> tuple[type[BaseException], ...]:
    """Exceptions that mean "the agent broke its own sandbox". `AgentFault` is the sandbox room's
    (looked up on each call: a backend may define it after this module was imported)."""
    from swerl.sandbox import base
    from swerl.sandbox.hostfs import CopyLimitExceeded

    found: list[type[BaseException]] = [base.RolloutDeadline, CopyLimitExceeded]
    fault = getattr(base, "AgentFault", None)
    if isinstance(fault, type):
        found.append(fault)
    return tuple(found)


def is_context_overflow(exc: BaseException) -> bool:
    """Did the engine refuse the call because the conversation outgrew the model's context? The agent's own
    doing; `rollout.context_overflow` decides how it is trained (docs/algorithms.md sec. 13)."""
    try:
        import litellm
    except ImportError:  # pragma: no cover - the agent extra is installed wherever rollouts run
        litellm = None  # type: ignore[assignment]
    if litellm is not None and isinstance(exc, litellm.exceptions.ContextWindowExceededError):
        return True
    return status_code(exc) in (400, 413, 422) and any(h in str(exc).lower() for h in _CONTEXT_HINTS)


def classify_exception(exc: BaseException) -> ErrorKind:
    """The kind of an exception that ended an agent run or its grading (see the module docstring)."""
    from swerl.sandbox.base import SandboxError

    if isinstance(exc, _agent_fault_types()):
        return "agent"
    if isinstance(exc, SandboxError):
        return "infra"
    if is_context_overflow(exc):
        return "agent"  # the agent's conversation outgrew the model: its own doing
    return "infra"


def classify_grading_exception(exc: BaseException) -> ErrorKind:
    """An exception out of grading the agent's patch. Grading handles agent-made data (patch, tree, test output),
    so anything but a named infrastructure failure is the agent's (reward 0): a patch that crashes the grader
    must never buy a retry. Named: the sandbox failing (`SandboxError`), a task or config problem (`SwerlError`
    `DataError`/`ConfigError`), the host out of disk or memory."""
    import errno

    from swerl.errors import ConfigError, DataError
    from swerl.sandbox.base import SandboxError
    from swerl.sandbox.hostfs import is_disk_full

    if isinstance(exc, _agent_fault_types()):
        return "agent"
    if isinstance(exc, (SandboxError, DataError, ConfigError, MemoryError)):
        return "infra"
    if is_disk_full(exc) or (isinstance(exc, OSError) and exc.errno == errno.ENOMEM):
        return "infra"
    return "agent"


def classify_exit(exit_status: str) -> ErrorKind | None:
    """mini-swe-agent's exit status of a run that ended normally: None (submitted) or 'agent'."""
    return None if exit_status == "Submitted" else "agent"


def grade_verdict(grade: Any) -> tuple[ErrorKind | None, str | None]:
    """(kind, why) of a finished grade: ('infra', why) = the grading sandbox failed on its own (retry);
    ('agent', why) = the agent's doing (tampering found, or grading broken by its files): reward 0;
    (None, None) = an ordinary grade."""
    tampering = list(getattr(grade, "tampering", None) or [])
    if tampering:
        return "agent", "tampering: " + "; ".join(map(str, tampering))[:1000]
    kind = getattr(grade, "error_kind", None)
    why = getattr(grade, "error", None)
    if kind in ("agent", "infra"):
        return kind, str(why or f"grading failed ({kind})")
    return None, None
