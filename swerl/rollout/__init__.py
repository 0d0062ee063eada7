"""The one rollout path: training, validation, the probe and `swerl rollout` all run rollouts here.

Start at `agent.run_agent` (one mini-swe-agent run, unchanged, in one hardened sandbox),
`runner.Runner` (one attempt through the gateway: claim, run a harness, reward, state;
harnesses: `runner.MiniSweHarness`, `toy.ToyHarness`), `classify` (agent failure or
infrastructure) and `controller.Controller` (declared rollouts reconciled over launchers:
threads, processes, Kubernetes Jobs). Models live in `schema`; `probe` is `swerl data
probe`. See docs/rollout.md.
"""
