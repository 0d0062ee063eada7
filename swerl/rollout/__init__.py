"""Runs mini-swe-agent (unchanged) for one rollout; reward; the controller."""
