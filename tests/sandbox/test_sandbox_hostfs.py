"""Copies of agent-controlled trees onto the host never write through symlinks or create special files."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from swerl.sandbox.hostfs import CopyLimitExceeded, copy_tree_safely, extract_tar_safely


def _tar(members: list[tuple[tarfile.TarInfo, bytes | None]]) -> io.BytesIO:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    buf.seek(0)
    return buf


def _file(name: str, data: bytes, mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def _link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, None


def test_extract_refuses_to_write_through_symlinks_and_outside(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    dest = tmp_path / "dest"
    fifo = tarfile.TarInfo("work/fifo")
    fifo.type = tarfile.FIFOTYPE
    skipped = extract_tar_safely(_tar([
        _file("work/ok.py", b"x = 1\n"),
        _file("work/run.sh", b"#!/bin/sh\n", 0o755),
        _link("work/evil", str(outside)),
        _file("work/evil/pwned", b"!"),
        _file("work/../escape", b"!"),
        _file("/abs", b"!"),
        (fifo, None),
        _link("work/hard", "work/ok.py", tarfile.LNKTYPE),
    ]), dest, strip=1)
    assert skipped == 4
    assert (dest / "ok.py").read_text() == "x = 1\n"
    assert os.access(dest / "run.sh", os.X_OK)
    assert (dest / "evil").is_symlink() and os.readlink(dest / "evil") == str(outside)
    assert list(outside.iterdir()) == []
    assert not (tmp_path / "escape").exists()
    assert (dest / "hard").read_text() == "x = 1\n" and not (dest / "hard").is_symlink()


def test_extract_stops_at_the_copy_limit(tmp_path: Path) -> None:
    with pytest.raises(CopyLimitExceeded):
        extract_tar_safely(_tar([_file("big", b"x" * 5000)]), tmp_path / "d", limit_bytes=1000)


def test_copy_tree_keeps_links_as_links_and_skips_fifos(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    (src / "d" / "f.txt").write_text("hello")
    os.symlink("/etc", src / "etc-link")
    os.mkfifo(src / "pipe")
    dest = tmp_path / "dest"
    assert copy_tree_safely(src, dest) == 1  # the FIFO (copying would block forever)
    assert (dest / "d" / "f.txt").read_text() == "hello"
    assert (dest / "etc-link").is_symlink() and os.readlink(dest / "etc-link") == "/etc"
    assert not (dest / "pipe").exists()


def test_copy_limit_also_counts_entries(tmp_path: Path) -> None:
    """Thousands of empty files cost budget too: no tree copies for hours while staying under a byte cap."""
    from swerl.sandbox.hostfs import ENTRY_COST

    src = tmp_path / "src"
    src.mkdir()
    for i in range(200):
        (src / f"e{i}").touch()
    assert copy_tree_safely(src, tmp_path / "ok", limit_bytes=200 * ENTRY_COST) == 0
    with pytest.raises(CopyLimitExceeded):
        copy_tree_safely(src, tmp_path / "over", limit_bytes=100 * ENTRY_COST)
    with pytest.raises(CopyLimitExceeded):
        extract_tar_safely(_tar([_file(f"e{i}", b"") for i in range(200)]), tmp_path / "t", limit_bytes=100 * ENTRY_COST)


def test_tar_stream_round_trips_chunk_by_chunk(tmp_path: Path) -> None:
    """What docker's put_archive and the Kubernetes copy receive: produced in bounded chunks (never the whole
    archive in memory), links kept as links, special files left out, odd names intact."""
    from swerl.sandbox.hostfs import tar_stream

    src = tmp_path / "src"
    (src / "pkg" / "deep").mkdir(parents=True)
    big = os.urandom(3 << 20)
    (src / "pkg" / "big.bin").write_bytes(big)
    (src / "pkg" / "deep" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(src / "pkg" / "deep" / "run.sh", 0o755)
    (src / ("odd-\udcff-" + "n" * 120 + ".py")).write_bytes(b"x = 1\n")
    os.symlink("pkg/big.bin", src / "link")
    os.mkfifo(src / "fifo")
    chunks = list(tar_stream(src, "top", chunk=1 << 16))
    assert max(len(c) for c in chunks) <= (1 << 16) + 8192  # a header (pax for long names) or one data chunk
    dest = tmp_path / "dest"
    assert extract_tar_safely(io.BytesIO(b"".join(chunks)), dest, strip=1) == 1  # only "top/" itself, stripped
    assert (dest / "pkg" / "big.bin").read_bytes() == big
    assert os.access(dest / "pkg" / "deep" / "run.sh", os.X_OK)
    assert os.readlink(dest / "link") == "pkg/big.bin"
    assert (dest / ("odd-\udcff-" + "n" * 120 + ".py")).read_bytes() == b"x = 1\n"
    assert not (dest / "fifo").exists()
    flat = tmp_path / "flat"  # arcname "": the directory's contents at the top, as the grading tree is sent
    extract_tar_safely(io.BytesIO(b"".join(tar_stream(src, ""))), flat)
    assert sorted(p.name for p in flat.iterdir()) == sorted(p.name for p in src.iterdir() if p.name != "fifo")


def test_kubernetes_base64_stream_is_one_valid_line() -> None:
    import base64

    from swerl.sandbox.kubernetes import b64_lines

    for sizes in ([0], [1], [2, 2, 2], [70000, 3, 1, 65536 * 3 + 1], [5] * 40000):
        data = [os.urandom(n) for n in sizes]
        text = "".join(b64_lines(data, width=65536))
        assert text.endswith("\n") and text.count("\n") == 1
        assert base64.b64decode(text.strip(), validate=True) == b"".join(data)
