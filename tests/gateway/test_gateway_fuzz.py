"""Fuzz the gateway's OpenAPI spec (schemathesis, bounded): no input produces a 500, every error is JSON."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fake_engine import FakeConfig, FakeUpstream
from gateway_helpers import ADMIN, GatewayHandle, start_gateway
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

TOKENS: dict[str, str] = {}


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayHandle]:
    fake = FakeUpstream(FakeConfig(prompt_len=8, response_len=3)).start_in_thread()
    g = start_gateway(store=str(tmp_path_factory.mktemp("fuzz") / "gw.sqlite"), upstreams=[fake.url],
                      retry_attempts=1, max_body_bytes=1 << 20)
    TOKENS["admin-target"] = g.create("fz-admin")
    TOKENS["proxy-target"] = g.create("fz-proxy")
    yield g
    g.stop()
    fake.stop_thread()


def _check(case: Any, g: GatewayHandle) -> None:
    proxy = case.path.startswith("/v1/rollouts/")
    if proxy:  # reach the real proxy code: the rollout's own token on its own path
        case.path_parameters["rollout_id"] = "fz-proxy"
        headers = {"Authorization": f"Bearer {TOKENS['proxy-target']}"}
    else:
        headers = {"Authorization": f"Bearer {ADMIN}"}
        if "rollout_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0:
            case.path_parameters["rollout_id"] = "fz-admin"  # half the time: an existing rollout
    if isinstance(case.query, dict) and "wait" in case.query:
        case.query["wait"] = 0  # long-polls would just wait out their time
    r = case.call(base_url=g.url, headers=headers, timeout=20)
    if case.path == "/admin/pause":  # never leave the gateway paused: later proxy calls would be held
        g.admin().post("/admin/resume", json={"policy_version": g.gw.gate.policy_version})
    assert r.status_code != 500 and not (r.status_code >= 500 and r.status_code not in (502, 503, 504)), (
        f"{case.method} {case.formatted_path} -> {r.status_code} {r.text}")
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["message"], str) and err["message"]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_input_produces_a_server_error(fuzzed: GatewayHandle, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_url(f"{fuzzed.url}/openapi.json")
    ops = [res.ok() for res in schema.get_all_operations()]
    assert len(ops) >= 15  # the whole API is in the spec, proxy included
    ran: list[str] = []
    for op in ops:
        @given(case=op.as_strategy(generation_mode=mode))
        @settings(max_examples=int(os.environ.get("GW_FUZZ_EXAMPLES", "25")), deadline=None, database=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.explicit, Phase.generate])  # no shrinking: a failure is reported as found
        def run(case: Any) -> None:
            ran.append(case.operation.label)
            _check(case, fuzzed)

        try:
            run()
        except Unsatisfiable:  # an operation with nothing to get wrong (no parameters, no body)
            assert mode == GenerationMode.NEGATIVE
    assert len(set(ran)) >= (len(ops) if mode == GenerationMode.POSITIVE else 10)
    assert any(label.startswith("POST /v1/rollouts/") for label in ran)
