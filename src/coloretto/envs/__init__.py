"""Coloretto for reinforcement learning: the batched environment (``coloretto.envs.vector``)
and the one observation encoding the adapters share (docs/rl.md)."""
