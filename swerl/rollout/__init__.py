"""Runs mini-swe-agent (unchanged) for one rollout; reward; the controller.

Start at `agent.run_agent` (one agent run in one hardened sandbox), `runner.Runner`
(one rollout through the gateway: claim, run, grade, reward, state), and
`controller.Controller` (declarative rollouts + reconciliation over launchers).
Models live in `schema`; `probe` is `swerl data probe`. See docs/rollout.md.
"""
