"""Inference engines behind the gateway: embedded (HF generate), scripted (real ids, fixed replies), fake (fast)."""
