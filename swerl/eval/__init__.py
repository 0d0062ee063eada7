"""SWE-bench evaluation with the official harness (`swerl eval ...`, docs/eval.md); entry: `runner.run_eval`."""
