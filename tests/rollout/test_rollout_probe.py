"""`swerl data probe` end to end on the task pack, read back by `swerl data filter --probe-results`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN
from typer.testing import CliRunner

from swerl.cli import app
from swerl.rollout.probe import ProbeLog, ProbeTarget, run_probe
from swerl.rollout.schema import ProbeRecord, RolloutSettings
from swerl.rollout.tasks import TaskSource

cli = CliRunner()
SWAP = "swerl-taskpack__calc.op_swap_add"


def swerl(*args: str | Path) -> Any:
    res = cli.invoke(app, [str(a) for a in args])
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    assert res.exit_code == 0, res.output
    return res


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_probe_then_filter_end_to_end_and_resume(engines: Any, pack: Any, tmp_path: Path) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)  # fixes median_even; on op_swap_add it changes nothing
    results = tmp_path / "probe.jsonl"
    common = ["data", "probe", "--probe-results", results, "--endpoint", url, "--limit", "2",
              "--set", "rollout.harness=mini-swe-agent-textbased", "--set", "model.path=scripted",
              "--set", "rollout.max_tokens=256", "--set", "rollout.concurrency=2",
              "--trajectories", tmp_path / "traj"]
    res = swerl(*common, "--attempts", "2")
    assert "recorded now" in res.output
    lines = _lines(results)
    assert sorted((x["instance_id"], x["attempt"]) for x in lines) == sorted([(SWAP, 0), (SWAP, 1), (MEDIAN, 0), (MEDIAN, 1)])
    assert {x["instance_id"]: x["resolved"] for x in lines} == {SWAP: False, MEDIAN: True}
    # the gateway it started recorded every call, in a store next to the results
    assert (tmp_path / "probe.jsonl.gateway.sqlite").exists()
    assert len(list((tmp_path / "traj").glob("*.traj.json"))) == 4

    # resumable: a rerun with k=3 runs only the missing attempt of each task
    swerl(*common, "--attempts", "3")
    lines = _lines(results)
    assert len(lines) == 6 and sorted(x["attempt"] for x in lines[4:]) == [2, 2]

    # and `swerl data filter` reads exactly what the probe wrote
    out = tmp_path / "filtered"
    swerl("data", "filter", "--dataset", pack[0].root / "tasks.jsonl", "--out", out, "--probe-results", results,
          "--attempts", "3", "--inspect", "none", "--test-size", "0")
    report = json.loads((out / "report.json").read_text())
    assert report["kept"] == {"mixed": 0, "all_fail": 1}  # op_swap_add: 0/3 resolved
    assert report["dropped"]["too_easy"] == 1 and report["splits"]["train"] == 1
    # the other tasks were not probed (one of them is dropped earlier, for its empty problem statement)
    assert report["dropped"]["not_probed"] + report["dropped"]["empty_problem_statement"] == len(pack[0].rows) - 2
    dropped = {json.loads(x)["instance_id"]: json.loads(x)["reason"]
               for x in (out / "dropped.jsonl").read_text().splitlines()}
    assert dropped[MEDIAN] == "too_easy" and SWAP not in dropped


def test_torn_last_line_is_cut_and_direct_probe_appends(engines: Any, sandbox: Any, settings: RolloutSettings,
                                                        tmp_path: Path) -> None:
    results = tmp_path / "probe.jsonl"
    results.write_bytes(b'{"instance_id": "a", "attempt": 0, "resolved": true}\n{"instance_id": "a", "att')
    log = ProbeLog(results)
    assert log.done == {("a", 0)} and results.read_bytes().endswith(b"true}\n")

    _, url = engines.scripted(SOLVE_MEDIAN)
    source = TaskSource("taskpack")
    source.rows = [source.row(MEDIAN)]
    seen: list[tuple[int, int, ProbeRecord | None]] = []
    rep = run_probe(source, results=results, k=1, sandbox=sandbox, settings=settings,
                    target=ProbeTarget(endpoint=url + "/v1"), progress=lambda *a: seen.append(a))
    assert (rep.recorded, rep.resolved, rep.skipped, rep.infra_failed) == (1, 1, 0, [])
    assert _lines(results)[-1] == {"instance_id": MEDIAN, "attempt": 0, "resolved": True}
    assert seen[0] == (0, 1, None) and seen[-1][:2] == (1, 1)


# --- each setting in the recipe's one field: the probe's flags are shorthands that write it


def _captured_probe(monkeypatch: Any, *args: str | Path) -> Any:
    """`swerl data probe ARGS` up to `probe_main`: the options it would run with."""
    import swerl.rollout.probe as probe

    seen: list[Any] = []
    monkeypatch.setattr(probe, "probe_main", lambda opts, progress=None: seen.append(opts) or probe.ProbeReport())
    swerl("data", "probe", *args)
    return seen[0]


def test_probe_flags_write_the_recipe_fields(monkeypatch: Any, tmp_path: Path) -> None:
    from swerl.config import DataConfig, GatewaySettings, InferenceConfig, Recipe
    from swerl.rollout.context import WorkerContext
    from swerl.rollout.probe import ProbeOptions

    # what a recipe declares is not restated: the probe's own model holds only what no recipe field means
    assert set(ProbeOptions.model_fields) == {"probe_results", "attempts", "api_key_env", "direct", "worker"}
    restated = {*Recipe.model_fields, *DataConfig.model_fields, *GatewaySettings.model_fields,
                *InferenceConfig.model_fields} & set(ProbeOptions.model_fields)
    assert not restated

    monkeypatch.chdir(tmp_path)
    opts = _captured_probe(monkeypatch, "--probe-results", "p.jsonl", "--endpoint", "http://e:1/v1", "--model", "m1",
                           "--gateway", "http://g:2", "--admin-token-file", "tok", "--store", "gw.sqlite",
                           "--limit", "3", "--concurrency", "2", "--set", "data.limit=9", "--attempts", "5")
    recipe = WorkerContext(opts.worker).recipe
    assert (recipe.inference.url, recipe.inference.model) == ("http://e:1/v1", "m1")
    assert (recipe.gateway.url, recipe.gateway.admin_token_file) == ("http://g:2", "tok")
    assert recipe.gateway.store == str(tmp_path / "gw.sqlite")  # --store: a path from here, as before
    assert (recipe.data.limit, recipe.rollout.concurrency, opts.attempts) == (3, 2, 5)  # the flag wins over --set

    # left out, a flag writes nothing: the recipe's value applies
    opts = _captured_probe(monkeypatch, "--probe-results", "p.jsonl", "--set", "inference.model=policy")
    assert [o for o in opts.worker.overrides if not o.startswith("inference.model")] == []
    recipe = WorkerContext(opts.worker).recipe
    assert (recipe.inference.url, recipe.inference.model, recipe.gateway.url, recipe.data.limit) == \
        (None, "policy", None, None)


def test_gateway_store_beside_the_results(tmp_path: Path) -> None:
    from swerl.rollout.probe import gateway_store

    results = tmp_path / "probe.jsonl"
    assert gateway_store("gateway.sqlite", results) == tmp_path / "probe.jsonl.gateway.sqlite"  # the default
    assert gateway_store(str(tmp_path / "x" / "gw.sqlite"), results) == tmp_path / "x" / "gw.sqlite"


def test_probe_reads_the_engine_limit_and_gateway_from_the_recipe(monkeypatch: Any, tmp_path: Path) -> None:
    import swerl.rollout.probe as probe
    from swerl.errors import SwerlError
    from swerl.rollout.context import WorkerContext, WorkerOptions

    monkeypatch.setattr(WorkerContext, "sandbox", property(lambda self: None))  # no sandbox is started
    seen: dict[str, Any] = {}

    def fake_run(source: Any, **kw: Any) -> Any:
        seen.update(kw, ids=list(source.instance_ids))
        return probe.ProbeReport()

    monkeypatch.setattr(probe, "run_probe", fake_run)

    def run(*overrides: str, direct: bool = False) -> None:
        probe.probe_main(probe.ProbeOptions(probe_results=tmp_path / "p.jsonl", direct=direct,
                                            worker=WorkerOptions(overrides=list(overrides))))

    with pytest.raises(SwerlError, match="--endpoint URL is required"):
        run()
    with pytest.raises(SwerlError, match="--direct needs --endpoint"):
        run("gateway.url=http://g:1", direct=True)
    with pytest.raises(SwerlError, match="--gateway needs --admin-token-file"):
        run("gateway.url=http://g:1")

    # a recipe naming the engine and its served model: --direct asks that engine for that name, on data.limit tasks
    run("inference.url=http://e:1", "inference.model=policy", "data.limit=2", direct=True)
    assert seen["target"].endpoint == "http://e:1/v1" and seen["settings"].model == "policy"
    assert len(seen["ids"]) == 2
    # inference.model unset: the agent asks for model.path, as before
    run("inference.url=http://e:1", "model.path=scripted", direct=True)
    assert seen["settings"].model == "scripted" and len(seen["ids"]) > 2


def test_recipe_bwrap_rootfs_is_kept_over_the_rootfs_flag(monkeypatch: Any, tmp_path: Path) -> None:
    import swerl.rollout.runner as runner
    from swerl.rollout.context import WorkerContext, WorkerOptions

    calls: list[tuple[Any, str]] = []
    monkeypatch.setattr(runner, "load_sandbox", lambda section, rootfs="auto": calls.append((section, rootfs)))
    for opts in (WorkerOptions(overrides=[f"sandbox.bwrap.rootfs={tmp_path}"]), WorkerOptions(rootfs="host"),
                 WorkerOptions()):
        assert WorkerContext(opts).sandbox is None
    assert [r for _, r in calls] == ["host", "host", "auto"]  # "host": load_sandbox keeps the recipe's tree as is
    assert calls[0][0].bwrap.rootfs == tmp_path
