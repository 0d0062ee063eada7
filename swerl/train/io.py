"""Events in, samples out: the trainer's fetch from the gateway, and JSONL files (events in, samples out and back).

Errors name the file (or rollout), the line number (or seq) and the field, so a user can fix the row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson
from pydantic import ValidationError

from swerl.errors import DataError
from swerl.tokens import F_ERROR, KIND_CODE, USABLE, TokenBatch
from swerl.train.schema import Event, Sample


class GatewayReader(Protocol):
    """What the fetch needs from a gateway client (`swerl.gateway.client.GatewayClient`)."""

    def query_events(self, rollout_ids: list[str], kinds: list[str] | None = ..., current_attempt: bool = ...,
                     include_json: str = ...) -> list[dict]: ...


@dataclass
class RolloutEvents:
    """What the gateway recorded for one rollout's current attempt: its model calls and reward."""

    rollout_id: str
    events: list[Event]
    first_version: int | None  # the oldest policy that served one of its usable calls (staleness)
    reward: float | None
    reward_data: Any
    last_request: Any = None  # its last call's request JSON (reward-hacking evidence), when asked for
    batch: TokenBatch | None = None  # the binary batch its events came in (shared by the fetch's rollouts)


def fetch_rollouts(client: GatewayReader, rollout_ids: list[str], *, last_request: bool = False
                   ) -> dict[str, RolloutEvents]:
    """Model calls and rewards of many rollouts (their current attempts) in one request.

    Calls the trainer must not learn from (failed, abandoned: `Event.usable` is false) stay in
    `events` for assembly's counts but never set `first_version`.
    """
    if not rollout_ids:
        return {}
    raw = client.query_events(rollout_ids, kinds=["model_request", "reward"], current_attempt=True,
                              include_json="last" if last_request else "none")
    events: dict[str, list[Event]] = {rid: [] for rid in rollout_ids}
    for e in raw:
        try:
            events[e["rollout_id"]].append(Event.model_validate(e))
        except ValidationError as exc:
            raise DataError(f"gateway event rollout_id={e.get('rollout_id')!r}, seq={e.get('seq')!r}: "
                            f"{field_errors(exc)}") from None
    out = {}
    for rid, evs in events.items():
        calls = [e for e in evs if e.kind == "model_request"]
        rewards = [e for e in evs if e.kind == "reward"]
        versions = [e.policy_version for e in calls if e.usable and e.policy_version is not None]
        rew = max(rewards, key=lambda e: e.seq) if rewards else None
        out[rid] = RolloutEvents(rid, evs, min(versions) if versions else None, rew.reward if rew else None,
                                 rew.data if rew else None, calls[-1].request if calls and last_request else None)
    return out


def fetch_rollouts_batch(client: Any, rollout_ids: list[str], *, last_request: bool = False
                         ) -> dict[str, RolloutEvents]:
    """`fetch_rollouts` in one binary request (`GatewayClient.token_batch`): the trainer's fetch.

    Prompts stay delta records, so the transfer is linear in unique tokens with no per-event JSON
    work. `events` stays empty: every `RolloutEvents` shares `batch`, which `assemble` takes directly.
    """
    if not rollout_ids:
        return {}
    batch: TokenBatch = client.token_batch(rollout_ids, kinds=["model_request", "reward"], current_attempt=True,
                                           include_json="last" if last_request else "none")
    rows = batch.rows_by_rollout()
    kind, flags, seq = batch.kind.tolist(), batch.flags.tolist(), batch.seq.tolist()
    version, reward = batch.policy_version.tolist(), batch.reward.tolist()
    out = {}
    for rid in rollout_ids:
        rs = rows.get(rid, [])
        calls = [r for r in rs if kind[r] == KIND_CODE["model_request"]]
        rewards = [r for r in rs if kind[r] == KIND_CODE["reward"]]
        versions = [version[r] for r in calls if flags[r] & (USABLE | F_ERROR) == USABLE and version[r] >= 0]
        rew = max(rewards, key=lambda r: seq[r]) if rewards else None
        out[rid] = RolloutEvents(rid, [], min(versions) if versions else None,
                                 None if rew is None else reward[rew], None if rew is None else batch.data.get(rew),
                                 batch.requests.get(calls[-1]) if calls and last_request else None, batch)
    return out


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    with path.open("rb") as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                yield n, line


def field_errors(exc: ValidationError, whole: str = "(row)") -> str:
    """The first three errors of a pydantic validation as `field a.b: message` (`whole`: a model-level one)."""
    return "; ".join(f"field {'.'.join(str(x) for x in e['loc']) or whole}: {e['msg']}" for e in exc.errors()[:3])


def read_events_jsonl(path: Path | str) -> list[Event]:
    """Parse one `Event` per non-empty line; a bad line raises `DataError` naming its line number and field."""
    path = Path(path)
    events = []
    for n, line in _lines(path):
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise DataError(f"{path} line {n}: invalid JSON ({exc})") from None
        if not isinstance(raw, dict):
            raise DataError(f"{path} line {n}: expected a JSON object, got {type(raw).__name__}")
        try:
            events.append(Event.model_validate(raw))
        except ValidationError as exc:
            where = f"rollout_id={raw.get('rollout_id')!r}, seq={raw.get('seq')!r}"
            raise DataError(f"{path} line {n} ({where}): {field_errors(exc)}") from None
    return events


def write_samples_jsonl(samples: Iterable[Sample], path: Path | str) -> int:
    """Write samples one per line (arrays as lists); returns the count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("wb") as fh:
        for s in samples:
            fh.write(orjson.dumps(s.model_dump(), option=orjson.OPT_SERIALIZE_NUMPY))
            fh.write(b"\n")
            n += 1
    return n


def read_samples_jsonl(path: Path | str) -> list[Sample]:
    """Read what `write_samples_jsonl` wrote; bad lines name their line number and field."""
    path = Path(path)
    out = []
    for n, line in _lines(path):
        try:
            out.append(Sample.model_validate(orjson.loads(line)))
        except orjson.JSONDecodeError as exc:
            raise DataError(f"{path} line {n}: invalid JSON ({exc})") from None
        except ValidationError as exc:
            raise DataError(f"{path} line {n}: {field_errors(exc)}") from None
    return out


__all__ = ["GatewayReader", "RolloutEvents", "fetch_rollouts", "fetch_rollouts_batch", "read_events_jsonl",
           "read_samples_jsonl", "write_samples_jsonl"]
