"""`RemoteEngine.busy_seconds` on the verl path: read from vLLM's Prometheus export, not (0, 0).

The server here is a plain ASGI app serving text in vLLM's exposition format (metric names and labels
as vLLM 0.24's `v1/metrics/loggers.py` registers them, two engines of one server); a real vLLM's
`/metrics` is read the same way in the CPU vLLM run (docs/verl.md)."""

from __future__ import annotations

from typing import Any

from swerl.config import load_recipe
from swerl.gateway.engines import RemoteEngine
from swerl.gateway.engines.vllm_metrics import metrics_url, parse
from swerl.gateway.server import ServerThread
from swerl.train.backends.verl.settings import verl_overrides

EXPORT = """# HELP vllm:generation_tokens_total Number of generation tokens processed.
# TYPE vllm:generation_tokens_total counter
vllm:generation_tokens_total{{engine="0",model_name="policy"}} {t0}
vllm:generation_tokens_total{{engine="1",model_name="policy"}} {t1}
# HELP vllm:request_inference_time_seconds Histogram of time spent in RUNNING phase for request.
# TYPE vllm:request_inference_time_seconds histogram
vllm:request_inference_time_seconds_bucket{{engine="0",le="0.3",model_name="policy"}} 1.0
vllm:request_inference_time_seconds_bucket{{engine="0",le="+Inf",model_name="policy"}} 3.0
vllm:request_inference_time_seconds_count{{engine="0",model_name="policy"}} 3.0
vllm:request_inference_time_seconds_sum{{engine="0",model_name="policy"}} {s0}
vllm:request_inference_time_seconds_sum{{engine="1",model_name="policy"}} {s1}
vllm:request_inference_time_seconds_created{{engine="0",model_name="policy"}} 1.7e+09
"""


class _Export:
    def __init__(self) -> None:
        self.values = {"t0": 10.0, "t1": 5.0, "s0": 1.5, "s1": 0.25}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        ok = scope["path"] == "/metrics"
        body = (EXPORT.format(**self.values) if ok else "not found").encode()
        await send({"type": "http.response.start", "status": 200 if ok else 404,
                    "headers": [(b"content-type", b"text/plain; version=0.0.4")]})
        await send({"type": "http.response.body", "body": body})


def test_busy_time_and_tokens_come_from_vllms_counters() -> None:
    app = _Export()
    srv = ServerThread(app).start()
    try:
        engine = RemoteEngine([f"{srv.url}/v1"], vllm_metrics=True)
        assert engine.busy_seconds() == (1.75, 15)
        app.values.update(t0=30.0, s0=4.0)
        assert engine.busy_seconds() == (4.25, 35)
        assert RemoteEngine([f"{srv.url}/v1"]).busy_seconds() == (0.0, 0)  # not vLLM: nothing to read
    finally:
        srv.stop()
    assert engine.busy_seconds() == (4.25, 35)  # unreachable: the last reading stays (counters only grow)


def test_parse_and_url() -> None:
    assert parse("# TYPE x counter\n\nvllm:generation_tokens_total 7.0\n") == (0.0, 7)
    assert metrics_url("http://10.0.0.1:8000/v1") == "http://10.0.0.1:8000/metrics"


def test_verl_turns_vllms_stats_on() -> None:
    """verl 0.9.1 starts vLLM with `disable_log_stats: true`, which leaves those counters unexported."""
    o = dict(x.split("=", 1) for x in verl_overrides(load_recipe("qwen9b")))
    assert o["actor_rollout_ref.rollout.disable_log_stats"] == "false"
    assert "actor_rollout_ref.rollout.disable_log_stats" not in dict(
        x.split("=", 1) for x in verl_overrides(load_recipe("tiny-verl")))
