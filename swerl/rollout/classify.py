"""Agent failure or infrastructure failure? (ARCHITECTURE.md: infra failures are retried, never trained as reward 0.)

The rule: a failure is the agent's only when the agent's own behaviour caused it and a
retry with the same policy would likely fail the same way - it used up its steps or
its time, kept answering in the wrong format, or grew its conversation past the
model's context. Everything the agent cannot cause is infrastructure: the sandbox
died or could not start, the engine or the gateway could not be reached or answered
5xx, the rollout's token was rotated or the rollout finished under us (another attempt
owns it), and unexpected exceptions in swerl itself. Calling an unknown failure
"infra" errs on the side of not training on it; the retry budget bounds the cost.
"""

from __future__ import annotations

from swerl.rollout.schema import ErrorKind

AGENT_EXIT_STATUSES = frozenset({"LimitsExceeded", "TimeExceeded", "RepeatedFormatError", "FormatError"})
_CONTEXT_HINTS = ("context", "maximum context", "too long", "leaves no room", "max_model_len", "maximum length")


def status_code(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    if code is None:
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) else None


def classify_exception(exc: BaseException) -> ErrorKind:
    """The kind of an exception that ended an agent run (see the module docstring)."""
    from swerl.sandbox.base import RolloutDeadline, SandboxError

    if isinstance(exc, RolloutDeadline):
        return "agent"
    if isinstance(exc, SandboxError):
        return "infra"
    try:
        import litellm
    except ImportError:  # pragma: no cover - the agent extra is installed wherever rollouts run
        litellm = None  # type: ignore[assignment]
    if litellm is not None and isinstance(exc, litellm.exceptions.ContextWindowExceededError):
        return "agent"
    code = status_code(exc)
    if code in (400, 413, 422) and any(h in str(exc).lower() for h in _CONTEXT_HINTS):
        return "agent"  # the agent's conversation outgrew the model: its own doing
    return "infra"


def classify_exit(exit_status: str) -> ErrorKind | None:
    """mini-swe-agent's exit status of a run that ended normally: None (submitted) or 'agent'."""
    return None if exit_status == "Submitted" else "agent"
