"""RL math (assembly, advantage, loss modes, DIS, GAE, batching), trainer loop and backends."""
