# Two commands matter: `make demo` and `make test`. Both set up what they need first.
SHELL := /bin/bash
PY := .venv/bin/python
export HF_HUB_OFFLINE := 1
export LITELLM_LOCAL_MODEL_COST_MAP := True
export MSWEA_SILENT_STARTUP := 1

.PHONY: setup demo test test-full bench lint clean

setup:
	@scripts/setup.sh all,dev
	@scripts/setup-harbor.sh

demo: setup
	@scripts/demo.sh

# Two pytest-xdist workers: the CI machine has 2 cores and a serial run leaves one idle while tests
# wait on subprocesses, sandboxes and sockets. Tests needing the private dockerd share one worker
# (tests/conftest.py). The 25 slowest tests are printed so a log shows where the time goes.
test: setup
	$(PY) -m pytest -m "not slow" -q -n 2 --dist loadgroup --durations=25

test-full: setup
	@scripts/setup-vllm.sh
	$(PY) -m pytest -q
	@scripts/setup-verl.sh
	.venv-verl/bin/python -m pytest -q -p no:cacheprovider tests/verl_backend
	@scripts/setup-verl-vllm.sh
	.venv-verl-vllm/bin/python -m pytest -q -p no:cacheprovider tests/verl_backend/test_verl_vllm_launch.py \
		tests/verl_backend/test_verl_vllm_tiny_run.py

bench: setup
	@for f in bench/*.py; do grep -q "__main__" $$f || continue; echo "== $$f"; $(PY) $$f || exit 1; done

lint: setup
	.venv/bin/ruff check swerl tests bench

clean:
	rm -rf .venv build *.egg-info .pytest_cache
