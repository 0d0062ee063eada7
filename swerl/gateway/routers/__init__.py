"""HTTP routers, one per resource: rollouts, events, admin (pause/resume/engines), proxy."""
