"""The viewer's HTTP server: routes answer, bad input is a clean 4xx (fuzzed), it is read-only and loopback-only,
and the CLI serves / exports with one-line errors."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swerl.view import RunSource
from swerl.view.server import ViewServer


@pytest.fixture(scope="module")
def server(runs) -> Iterator[ViewServer]:
    srv = ViewServer(RunSource(runs.train), port=0)
    yield srv
    srv.close()


def get(srv: ViewServer, path: str, method: str = "GET", host: str | None = None) -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or f"127.0.0.1:{srv.port}")
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.read(), dict(r.getheaders())
    finally:
        conn.close()


def test_routes(server: ViewServer, runs) -> None:
    status, body, headers = get(server, "/")
    assert status == 200 and b"static/app.js" in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert get(server, "/static/app.js")[0] == 200
    assert get(server, "/static/style.css")[0] == 200
    run = json.loads(get(server, "/api/run")[1])
    assert run["kind"] == "train" and [u["step"] for u in run["updates"]] == [1, 2]
    upd = json.loads(get(server, "/api/update/2")[1])
    assert upd["step"] == 2 and upd["groups"]
    rid = runs.truth["infra"]
    page = json.loads(get(server, "/api/rollout/" + quote(rid, safe=""))[1])
    assert page["id"] == rid and page["samples"]
    hits = json.loads(get(server, "/api/search?q=task-2")[1])["rollouts"]
    assert hits and all("task-2" in h["id"] for h in hits) and all(h["step"] == 2 for h in hits)
    status, body, _ = get(server, "/api/run", method="HEAD")
    assert status == 200 and body == b""


@pytest.mark.parametrize(("path", "status"), [
    ("/api/update/0", 400), ("/api/update/-1", 400), ("/api/update/99", 404), ("/api/update/1e3", 400),
    ("/api/rollout/..%2F..%2Fetc%2Fpasswd", 400), ("/api/rollout/no-such:0", 404), ("/api/instance/x", 404),
    ("/static/../swerl/view/server.py", 404), ("/static/app.js%00", 404), ("/api/", 404), ("/nope", 404),
    ("/api/search?q=" + "x" * 200, 400), ("/api/search?q=%00", 400), ("/api/run/extra", 404),
    ("//etc/passwd", 404), ("/" + "a" * 3000, 400),
])
def test_bad_input_is_a_clean_4xx(server: ViewServer, path: str, status: int) -> None:
    got, body, headers = get(server, path)
    assert got == status
    assert json.loads(body)["status"] == status and headers["Content-Type"].startswith("application/json")


def test_read_only_and_host_checked(server: ViewServer) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        assert get(server, "/api/run", method=method)[0] == 405
    assert get(server, "/api/run", host="evil.example:80")[0] == 403
    assert get(server, "/api/run", host=f"localhost:{server.port}")[0] == 200


_SEGMENT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=st.sampled_from(["api/run", "api/update", "api/rollout", "api/instance", "api/search", "static", "api",
                             ""]),
       rest=st.lists(_SEGMENT, max_size=3), query=st.one_of(st.none(), _SEGMENT))
def test_fuzzed_routes_never_fail_uncleanly(server: ViewServer, head: str, rest: list[str], query: str | None) -> None:
    path = "/" + "/".join([head, *(quote(s, safe="") for s in rest)])
    if query is not None:
        path += "?q=" + quote(query, safe="")
    status, body, headers = get(server, path)
    assert status in (200, 400, 404), (path, status, body[:200])
    if headers.get("Content-Type", "").startswith("application/json"):
        json.loads(body)


def _swerl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "swerl.cli", *args], capture_output=True, text=True, timeout=120)


def test_cli_export_and_errors(runs, tmp_path: Path) -> None:
    out = tmp_path / "site"
    r = _swerl("view", str(runs.eval_b), "--export", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "index.html").read_text().startswith("<!doctype html>")
    assert 'data-static="1"' in (out / "index.html").read_text()
    assert (out / "data" / "run.js").read_text().startswith('swerl_data("run", {')
    assert (out / "data" / "instance~2fcalc__neg-2.js").is_file()
    bad = _swerl("view", str(tmp_path / "missing"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a directory" in bad.stderr
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x").write_text("x")
    taken = _swerl("view", str(runs.eval_b), "--export", str(tmp_path / "junk"))
    assert taken.returncode == 2 and "not an earlier export" in taken.stderr
