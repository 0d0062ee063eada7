"""Hardened sandboxes (bwrap, docker, kubernetes), host-side patch extraction, fresh-sandbox grading, red-team
audit. Start at `base.Sandbox` and `base.load_backend`; models live in `schema`. See docs/sandbox.md."""
