"""The one rollout path: training, validation, the probe, eval and `swerl rollout` run rollouts here.

`agent.run_agent` (one mini-swe-agent run), `runner.Runner` (one attempt: claim, harness, reward,
state), `classify`, `controller.Controller` over launchers (threads, processes, Kubernetes Jobs),
`probe`. See docs/rollout.md.
"""
