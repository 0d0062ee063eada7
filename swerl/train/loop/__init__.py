"""The training loop (`swerl train`): collocated-async RL over the recording gateway (docs/algorithms.md secs. 3-6, 8)."""

from swerl.train.loop.trainer import Progress, Trainer, TrainResult, train

__all__ = ["Progress", "TrainResult", "Trainer", "train"]
