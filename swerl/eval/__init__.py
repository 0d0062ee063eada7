"""SWE-bench evaluation with the official harness (`swerl eval ...`, docs/eval.md).

`runner.run_eval` (agent over instances -> preds.jsonl -> grading -> report.json, resumable) uses
`dataset` (which rows), `model` (endpoint or served checkpoint), `setup` (sandbox, images, graders),
`grading` (swebench's run_instance on docker, or `Sandbox.grade`), `store` (the run dir), `report`;
`compare` pairs two runs; `taskpack` builds SWE-bench-schema rows from the bundled task pack.
"""
