"""Hardened sandboxes (bwrap, docker, kubernetes), host-side patch extraction, fresh-sandbox grading, red-team audit.

Start at `base.Sandbox` (the Protocol) and `base.load_backend`; models live in `schema`.
Modules: `bwrap`, `docker`, `kubernetes` (+ `k8s_manifests`) backends; `hardening`,
`patch`, `grade`, `audit`; `minisweagent_env` (the mini-swe-agent Environment adapter);
`inventory` (Docker branch inspection for `swerl data filter`); `images`/`dockerd` (local
base image and a private engine); `tasks` (rows and the bundled task pack as tasks).
See docs/sandbox.md.
"""
