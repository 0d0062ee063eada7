"""JSONL files: events in, samples out (the trainer's fetch from the gateway is `swerl.train.loop.update`).

Errors name the file (or rollout), the line number (or seq) and the field, so a user can fix the row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
from pydantic import ValidationError

from swerl.errors import DataError
from swerl.train.schema import Event, Sample


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


__all__ = ["read_events_jsonl", "write_samples_jsonl"]
