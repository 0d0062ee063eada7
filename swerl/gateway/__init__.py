"""The recording gateway: rollout API, OpenAI-compatible proxy, SQLite store, pause/drain/hold."""
