"""Engine busy time and generated tokens read from vLLM's Prometheus endpoint (`GET /metrics`).

The loop's throughput and trainer-idle metrics need the engine's generation time and tokens
(`InferenceEngine.busy_seconds`). Behind verl the engines are vLLM servers in other processes, so
they are read from what vLLM itself exports: `vllm:generation_tokens_total` (tokens generated) and
`vllm:request_inference_time_seconds_sum` (seconds requests spent RUNNING). The latter is summed
per request: equal to the engine's busy wall time when one request runs at a time, larger when
requests batch (a 2x batch counts 2 s per wall second). verl starts vLLM with
`disable_log_stats: true`, which turns these metrics off; settings.py turns them on.
"""

from __future__ import annotations

import re

import httpx

from swerl.log import get_logger

log = get_logger(__name__)

TOKENS = "vllm:generation_tokens_total"
SECONDS = "vllm:request_inference_time_seconds_sum"
_SAMPLE = re.compile(r'^(?P<name>[A-Za-z_:][A-Za-z0-9_:]*)(?:\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?\s+(?P<value>\S+)')


def parse(text: str) -> tuple[float, int]:
    """(request-seconds, tokens) from one Prometheus text exposition, summed over label sets (engines)."""
    seconds, tokens = 0.0, 0.0
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m is None:  # comments (# HELP / # TYPE) and blank lines
            continue
        if m["name"] == TOKENS:
            tokens += float(m["value"])
        elif m["name"] == SECONDS:
            seconds += float(m["value"])
    return seconds, int(tokens)


def metrics_url(base_url: str) -> str:
    """`http://h:p/v1` (an OpenAI base URL) -> `http://h:p/metrics`."""
    root = base_url.rstrip("/")
    return (root[:-3] if root.endswith("/v1") else root) + "/metrics"


class BusyReader:
    """Sums `parse` over a set of vLLM servers; a server that does not answer keeps its last reading
    (the counters only grow, so a missed scrape delays, never loses, the time it counts)."""

    def __init__(self, base_urls: list[str], timeout_s: float = 2.0) -> None:
        self.last: dict[str, tuple[float, int]] = {u: (0.0, 0) for u in base_urls}
        self.timeout_s = timeout_s

    def read(self) -> tuple[float, int]:
        for url in self.last:
            try:
                r = httpx.get(metrics_url(url), timeout=self.timeout_s)
                r.raise_for_status()
                self.last[url] = parse(r.text)
            except (httpx.HTTPError, ValueError) as e:
                log.warning("vllm metrics unreadable; keeping the last reading", url=url, error=str(e))
        return sum(s for s, _ in self.last.values()), sum(t for _, t in self.last.values())


__all__ = ["SECONDS", "TOKENS", "BusyReader", "metrics_url", "parse"]
