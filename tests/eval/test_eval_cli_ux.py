"""`swerl eval` as a new user meets it: unusable --out, a dead endpoint, no Docker engine, grade-only wording.

Every case runs the console entry point (`swerl.cli.main`) in-process and checks the exit
status, the single `error:` line and the absence of a traceback. The endpoint is a real HTTP
server on loopback; "no Docker engine" is a socket path where none listens.
"""

from __future__ import annotations

import http.server
import json
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_swerl
from eval_helpers import RESOLVES

from swerl.eval.setup import DOCKER_HINT, pick_backend

NO_DOCKER = "unix:///nonexistent/swerl-test/docker.sock"




def one_error(code: int, out: str, err: str) -> str:
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def endpoint() -> Iterator[str]:
    """A minimal OpenAI-compatible endpoint on loopback: it lists one model (and answers nothing else)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"object": "list", "data": [{"id": "m", "object": "model"}]}).encode()
            self.send_response(200 if self.path.endswith("/models") else 404)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_out_that_cannot_be_a_run_dir_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    base = ["eval", "swebench", "--model", "http://127.0.0.1:9/v1", "--model-name", "m", "--backend", "bwrap",
            "--dataset", "taskpack"]
    line = one_error(*run_swerl([*base, "--out", str(tmp_path / "file")], monkeypatch, capsys))
    assert line == f"error: --out '{tmp_path / 'file'}': exists and is not a directory"
    line = one_error(*run_swerl([*base, "--out", str(tmp_path / "file" / "run")], monkeypatch, capsys))
    assert line == f"error: --out '{tmp_path / 'file' / 'run'}': cannot create it: '{tmp_path / 'file'}' is not a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing created


def test_unreachable_endpoint_says_connection_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    line = one_error(*run_swerl(["eval", "swebench", "--model", url, "--dataset", "taskpack", "--backend", "bwrap",
                                 "--out", str(tmp_path / "run")], monkeypatch, capsys))
    assert line.startswith(f"error: --model '{url}': cannot connect to {url}/models (")
    assert "Connection refused" in line and "is the server running" in line
    assert "lists no model" not in line


def test_no_docker_engine_says_how_to_start_one_or_use_bwrap(sb_pack: Path, endpoint: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error(*run_swerl(["eval", "swebench", "--model", endpoint, "--dataset", str(sb_pack), "--limit", "1",
                                 "--backend", "docker", "--docker-host", NO_DOCKER, "--out", str(tmp_path / "run")],
                                monkeypatch, capsys))
    assert line.startswith("error: --backend docker: docker engine not reachable")
    assert line.endswith(DOCKER_HINT)
    assert "sudo systemctl start docker" in line and "--dataset taskpack --backend bwrap" in line


def test_auto_backend_picks_docker_only_when_an_engine_answers() -> None:
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is part of the test environment (scripts/setup.sh installs it)")
    backend, note = pick_backend("auto", NO_DOCKER)
    assert backend == "bwrap"
    assert note is not None and NO_DOCKER in note and "using --backend bwrap" in note
    assert pick_backend("docker", NO_DOCKER) == ("docker", None)  # an explicit choice is kept (and fails later)


def test_grade_only_progress_never_says_resumed(sb_pack: Path, rootfs: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A fresh --grade-only run says where the prediction came from, not "resumed"."""
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"instance_id": RESOLVES, "model_name_or_path": "m", "model_patch": ""}) + "\n")
    code, out, err = run_swerl(["eval", "swebench", "--dataset", str(sb_pack), "--grade-only", str(preds),
                                "--backend", "bwrap", "--rootfs", str(rootfs), "--out", str(tmp_path / "run")],
                               monkeypatch, capsys)
    assert code == 0, err
    progress = [ln for ln in err.splitlines() if ln.startswith("[1/1]")]
    assert progress == [f"[1/1] {RESOLVES}: empty_patch - prediction from --grade-only"]
    assert "resumed" not in err + out
