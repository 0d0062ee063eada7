"""Hardened sandboxes (bwrap, docker, kubernetes), host-side patch extraction, fresh-sandbox grading."""
