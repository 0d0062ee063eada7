"""swerl: harnessed agentic RL for software-engineering agents."""

__version__ = "0.1.0"
