"""Every view in a real headless Chromium (Debian's `chromium`): it renders with no console error or uncaught
exception, the token view marks exactly the trained tokens of a known sample, filters work, and the static
export opens from disk with no server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from headless import Browser

from swerl.view import RunSource
from swerl.view.export import export_site
from swerl.view.server import ViewServer


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="module")
def train_server(runs) -> Iterator[ViewServer]:
    srv = ViewServer(RunSource(runs.train), port=0)
    yield srv
    srv.close()


def visit(b: Browser, url: str, view: str) -> None:
    b.goto(url, view)
    assert b.errors() == [], url


def test_train_views_render_without_errors(browser: Browser, train_server: ViewServer, runs) -> None:
    url = train_server.url
    visit(browser, url, "run")
    assert browser.eval("document.querySelectorAll('tr.update-row').length") == 2
    assert browser.eval("document.querySelectorAll('#charts svg').length") >= 4
    visit(browser, url + "#/update/1", "update")
    assert browser.eval("document.querySelectorAll('tr.rollout-row').length") == 4
    visit(browser, url + "#/rollout/" + quote(runs.truth["infra"], safe=""), "rollout")
    visit(browser, url + "#/search/task-2", "search")
    assert browser.eval("document.querySelectorAll('tr.search-hit').length") == 4
    browser.goto(url + "#/rollout/no-such:0", "error")  # a page that is not there: said on the page, no exception
    assert [e for e in browser.errors() if "status of 404" not in e] == []
    assert "not in this run" in browser.eval("document.body.textContent")


def test_token_view_marks_exactly_the_trained_tokens(browser: Browser, train_server: ViewServer, runs) -> None:
    truth = runs.truth["updates"][1]["samples"]
    rid = next(s.rollout_id for s in truth if s.sample_index == 1)  # a rollout that split
    samples = [s for s in truth if s.rollout_id == rid]
    visit(browser, train_server.url + "#/rollout/" + quote(rid, safe=""), "rollout")
    for s in samples:
        sel = f".tokens[data-sample='{s.sample_index}'] span.tok"
        trained = browser.eval(f"[...document.querySelectorAll(\"{sel}.tr\")].map(e => +e.dataset.i)")
        total = browser.eval(f"document.querySelectorAll(\"{sel}\").length")
        assert total == s.num_tokens
        assert trained == np.flatnonzero(s.loss_mask).tolist()
    splits = browser.eval("[...document.querySelectorAll('.split b')].map(e => e.textContent)")
    assert len(splits) == len(samples) - 1 and all(splits)


def test_update_filters(browser: Browser, train_server: ViewServer, runs) -> None:
    visit(browser, train_server.url + "#/update/1", "update")
    browser.eval("(() => { const s = document.querySelector('select[data-filter=hacked]'); s.value = 'yes';"
                 " s.dispatchEvent(new Event('change')); })()")
    assert browser.eval("[...document.querySelectorAll('tr.rollout-row')].map(e => e.dataset.id)") == [runs.truth["hacked"]]
    browser.eval("(() => { const s = document.querySelector('select[data-filter=hacked]'); s.value = 'any';"
                 " s.dispatchEvent(new Event('change')); const f = document.querySelector('select[data-filter=failed]');"
                 " f.value = 'infra'; f.dispatchEvent(new Event('change')); })()")
    assert browser.eval("[...document.querySelectorAll('tr.rollout-row')].map(e => e.dataset.id)") == [runs.truth["infra"]]
    assert browser.errors() == []


def test_eval_and_compare_views(browser: Browser, runs) -> None:
    srv = ViewServer(RunSource(runs.eval_b), port=0)
    try:
        visit(browser, srv.url, "run")
        assert browser.eval("document.querySelectorAll('tr.instance-row').length") == 3
        assert browser.eval("document.querySelectorAll('.compare').length") == 1
        visit(browser, srv.url + "#/instance/calc__neg-2", "instance")
        assert "PASSED test_calc__neg-2" in browser.eval("document.body.textContent")
    finally:
        srv.close()
    cmp_srv = ViewServer(RunSource(runs.eval_b / "compare-vs-eval-before"), port=0)
    try:
        visit(browser, cmp_srv.url, "run")
        assert "calc__neg-2" in browser.eval("document.body.textContent")
    finally:
        cmp_srv.close()


def test_static_export_opens_from_disk(browser: Browser, runs, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert export_site(RunSource(runs.train), out) > 3
    index = (out / "index.html").as_uri()
    visit(browser, index, "run")
    assert browser.eval("[...document.querySelectorAll('tr.update-row')].map(e => +e.dataset.step)") == [1, 2]
    visit(browser, index + "#/update/2", "update")
    rid = browser.eval("document.querySelector('tr.rollout-row').dataset.id")
    visit(browser, index + "#/rollout/" + quote(rid, safe=""), "rollout")
    assert browser.eval("document.querySelectorAll('.tokens span.tok.tr').length") > 0
    visit(browser, index + "#/search/task-1", "search")
    assert browser.eval("document.querySelectorAll('tr.search-hit').length") == 4
