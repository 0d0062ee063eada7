"""Load SWE-smith / SWE-bench rows with `datasets`: an HF hub name (with split) or a local file/dir.

Local forms: `.parquet`, `.jsonl` / `.json` files and `save_to_disk` directories (a single
`Dataset`, or a `DatasetDict` from which `--split` is taken). Anything that does not exist
locally and does not look like a path is treated as a hub name.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from swerl.data.schema import REQUIRED_COLUMNS
from swerl.errors import DataError
from swerl.log import get_logger

if TYPE_CHECKING:
    from datasets import Dataset

log = get_logger(__name__)

_FILE_BUILDERS = {".parquet": "parquet", ".jsonl": "json", ".json": "json"}


def _looks_like_path(source: str) -> bool:
    return (
        source.startswith((".", "/", "~"))
        or Path(source).suffix.lower() in _FILE_BUILDERS
        or source.count("/") > 1
    )


def load_rows(source: str, split: str = "train", *, num_proc: int | None = None,
              cache_dir: Path | None = None) -> Dataset:
    """Load `--dataset` as one `Dataset` and check the SWE-smith columns are there (errors name the flag).

    `cache_dir` is where `datasets` converts a local file to arrow: the filter passes a
    per-run work dir, because the default (the HF cache) would keep a full copy of every
    file ever filtered. Hub downloads always use the HF cache (download once).
    """
    import datasets

    path = Path(source).expanduser()
    try:
        if path.is_dir():
            ds = _load_dir(path, split)
        elif path.is_file():
            builder = _FILE_BUILDERS.get(path.suffix.lower())
            if builder is None:
                raise DataError(
                    f"--dataset {source!r}: unsupported file type {path.suffix!r} "
                    f"(use .parquet, .jsonl, .json or a save_to_disk directory)"
                )
            ds = datasets.load_dataset(builder, data_files=str(path.resolve()), split="train", num_proc=num_proc,
                                       cache_dir=str(cache_dir) if cache_dir is not None else None)
        elif _looks_like_path(source):
            raise DataError(f"--dataset {source!r}: no such file or directory")
        else:
            ds = _load_hub(source, split, num_proc)
    except DataError:
        raise
    except Exception as exc:  # datasets raises many types (arrow, json, builder); all are bad input here
        raise DataError(f"--dataset {source!r}: could not be read: {type(exc).__name__}: {exc}") from exc
    check_columns(ds.column_names, source)
    log.info("loaded", dataset=source, rows=len(ds))
    return ds


def _load_dir(path: Path, split: str) -> Dataset:
    import datasets

    if not ((path / "state.json").exists() or (path / "dataset_dict.json").exists()):
        raise DataError(f"--dataset {str(path)!r}: a directory must be written by datasets' save_to_disk")
    loaded = datasets.load_from_disk(str(path))
    if isinstance(loaded, datasets.DatasetDict):
        if split not in loaded:
            raise DataError(f"--split {split!r}: not in {str(path)!r} (splits: {', '.join(sorted(loaded))})")
        return loaded[split]
    return loaded


def _load_hub(name: str, split: str, num_proc: int | None) -> Dataset:
    import datasets

    try:
        return datasets.load_dataset(name, split=split, num_proc=num_proc)
    except Exception as exc:
        raise DataError(
            f"--dataset {name!r} (split {split!r}): could not load it from the Hugging Face hub "
            f"(offline, or no such dataset/split?): {type(exc).__name__}: {exc}. "
            f"Download it once with network access, or pass a local parquet/jsonl/json file or save_to_disk dir."
        ) from exc


def check_columns(columns: list[str], source: str) -> None:
    """Missing SWE-smith columns are an error naming them all, before any row is touched."""
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise DataError(f"--dataset {source!r}: missing required column(s): {', '.join(missing)}")
