"""Writing a filter run: `train/`, `test/` (save_to_disk), `*.parquet`, `report.json`, `dropped.jsonl`.

Everything is written into a temporary directory next to `--out` and renamed into place,
so a crash never leaves a half-written output that looks complete.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from swerl.errors import DataError
from swerl.log import get_logger

if TYPE_CHECKING:
    from swerl.data.params import FilterReport
    from swerl.data.pipeline import FilterOutcome

log = get_logger(__name__)

OUTPUT_FILES = ("train", "test", "train.parquet", "test.parquet", "report.json", "dropped.jsonl")


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
    """Write all outputs to a sibling temp dir, then rename it to `out` (replacing a previous output).

    `save_to_disk` gets no `num_proc`: its shard count would follow it, and outputs must
    depend on the inputs and seed only.
    """
    out = Path(out).absolute()
    check_out_dir(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        for name, ds in (("train", outcome.train), ("test", outcome.test)):
            # datasets writes zero shards for an empty dataset, which load_from_disk cannot read back.
            ds.save_to_disk(str(tmp / name), num_shards=1 if len(ds) == 0 else None)
            ds.to_parquet(str(tmp / f"{name}.parquet"))
        (tmp / "report.json").write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
        (tmp / "dropped.jsonl").write_text(dropped_lines(outcome))
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log.info("written", out=str(out), train=report.splits["train"], test=report.splits["test"])


def _replace_dir(tmp: Path, out: Path) -> None:
    """Rename `tmp` to `out`; an existing `out` is moved aside first and removed after."""
    if not out.exists():
        os.rename(tmp, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.rename(out, old / out.name)
    os.rename(tmp, out)
    shutil.rmtree(old, ignore_errors=True)
