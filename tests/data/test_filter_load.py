"""`--dataset`: every local form loads through `datasets`; a hub name fails clearly offline; columns are checked."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from filter_helpers import make_row, write_jsonl

from swerl.errors import DataError
from swerl.tasks.load import load_rows

ROWS = [make_row(i) for i in range(3)]


def _ids(ds: datasets.Dataset) -> list[str]:
    return list(ds["instance_id"])


def test_jsonl_parquet_json_and_saved_dirs_load_the_same_rows(tmp_path: Path) -> None:
    jsonl = write_jsonl(tmp_path / "rows.jsonl", ROWS)
    as_json = tmp_path / "rows.json"
    as_json.write_text(json.dumps(ROWS))
    parquet = tmp_path / "rows.parquet"
    datasets.Dataset.from_list(ROWS).to_parquet(str(parquet))
    saved = tmp_path / "saved"
    datasets.Dataset.from_list(ROWS).save_to_disk(str(saved))
    saved_dict = tmp_path / "saved_dict"
    datasets.DatasetDict({"train": datasets.Dataset.from_list(ROWS[:1]),
                          "dev": datasets.Dataset.from_list(ROWS[1:])}).save_to_disk(str(saved_dict))

    want = [r["instance_id"] for r in ROWS]
    for src in (jsonl, as_json, parquet, saved):
        ds = load_rows(str(src), cache_dir=tmp_path / "hf")
        assert _ids(ds) == want, src
        assert ds[0]["FAIL_TO_PASS"] == ROWS[0]["FAIL_TO_PASS"]
    assert _ids(load_rows(str(saved_dict), "dev")) == want[1:]
    assert _ids(load_rows(str(saved_dict))) == want[:1]


def test_missing_split_of_a_saved_dict_names_the_flag_and_the_splits(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    datasets.DatasetDict({"train": datasets.Dataset.from_list(ROWS)}).save_to_disk(str(saved))
    with pytest.raises(DataError, match=r"--split 'test'.*splits: train"):
        load_rows(str(saved), "test")


def test_missing_columns_are_all_named(tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k not in ("image_name", "PASS_TO_PASS")} for r in ROWS]
    with pytest.raises(DataError) as exc:
        load_rows(str(write_jsonl(tmp_path / "rows.jsonl", rows)), cache_dir=tmp_path / "hf")
    assert "missing required column(s): PASS_TO_PASS, image_name" in str(exc.value)


@pytest.mark.parametrize(
    ("name", "needle"),
    [("nope/rows.jsonl", "no such file"), ("./missing", "no such file"), ("rows.csv", "unsupported file type")],
)
def test_bad_local_paths_name_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                                       needle: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rows.csv").write_text("a,b\n")
    with pytest.raises(DataError, match=f"--dataset '{name}'.*{needle}"):
        load_rows(name)


def test_plain_dir_is_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="save_to_disk"):
        load_rows(str(tmp_path))


def test_unreadable_file_is_a_data_error_naming_the_line_or_the_cause(tmp_path: Path) -> None:
    bad = tmp_path / "rows.jsonl"
    bad.write_text('{"instance_id": "a"\n')
    with pytest.raises(DataError, match=r"--dataset .*rows\.jsonl:1: not valid JSON: Expecting ',' delimiter "
                                        r"\(column 20\)"):
        load_rows(str(bad), cache_dir=tmp_path / "hf")
    corrupt = tmp_path / "rows.parquet"
    corrupt.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(DataError) as exc:  # datasets' generic wrapper is replaced by the arrow error inside it
        load_rows(str(corrupt), cache_dir=tmp_path / "hf")
    msg = str(exc.value)
    assert msg.startswith(f"--dataset {str(corrupt)!r}: could not be read: ")
    assert "An error occurred while generating the dataset" not in msg and "Parquet" in msg


def test_hub_name_offline_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True, raising=False)
    with pytest.raises(DataError) as exc:
        load_rows("SWE-bench/SWE-smith", "train")
    msg = str(exc.value)
    assert "--dataset 'SWE-bench/SWE-smith' (split 'train')" in msg
    assert "Hugging Face hub" in msg and "local parquet/jsonl/json" in msg
