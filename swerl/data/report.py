"""Writing a filter run (`train/`, `test/`, `*.parquet`, `report.json`, `dropped.jsonl`) into a temporary
directory renamed into place, so a crash never leaves a half-written output that looks complete."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from swerl.atomic import publish_dir
from swerl.errors import DataError
from swerl.log import get_logger

if TYPE_CHECKING:
    from swerl.data.params import FilterReport
    from swerl.data.pipeline import FilterOutcome

log = get_logger(__name__)


def check_out_dir(out: Path) -> None:
    """`--out` may be new, empty, or a previous filter output (replaced); anything else is refused."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DataError(f"--out {str(out)!r}: exists and is not a directory")
    parent = out.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"--out {str(out)!r}: cannot create its parent directory {str(parent)!r}: "
                        f"{exc.strerror or exc}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DataError(f"--out {str(out)!r}: cannot write in {str(parent)!r} (permission denied)")
    if out.is_dir() and any(out.iterdir()) and not (out / "report.json").is_file():
        raise DataError(f"--out {str(out)!r}: not empty and not a previous `swerl data filter` output; "
                        f"refusing to replace it")


def dropped_lines(outcome: FilterOutcome) -> str:
    """One JSON object per dropped row, input order: `{"instance_id": ..., "reason": ...}`."""
    return "".join(json.dumps({"instance_id": iid, "reason": reason}) + "\n" for _, iid, reason in outcome.dropped)


def write_outputs(outcome: FilterOutcome, report: FilterReport, out: Path) -> None:
    """Write all outputs to a sibling temp dir swapped in as `out` (replacing a previous output).

    `save_to_disk` gets no `num_proc`: its shard count would follow it, and outputs must
    depend on the inputs and seed only.
    """
    out = Path(out).absolute()
    check_out_dir(out)
    with publish_dir(out) as tmp:
        for name, ds in (("train", outcome.train), ("test", outcome.test)):
            # datasets writes zero shards for an empty dataset, which load_from_disk cannot read back.
            ds.save_to_disk(str(tmp / name), num_shards=1 if len(ds) == 0 else None)
            ds.to_parquet(str(tmp / f"{name}.parquet"))
        (tmp / "report.json").write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
        (tmp / "dropped.jsonl").write_text(dropped_lines(outcome))
        umask = os.umask(0)  # mkdtemp made the dir private; the output gets the user's usual mode
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)
    log.info("written", out=str(out), train=report.splits["train"], test=report.splits["test"])
