"""Adapters of the game to the reinforcement-learning and game-theory ecosystems
(docs/rl.md).

* ``coloretto.envs.encoding``: the one observation tensor and action mask every adapter
  uses (NumPy only).
* ``coloretto.envs.pettingzoo``: the multi-agent AEC environment (``rl`` extra).
* ``coloretto.envs.gymnasium``: one learner seat against built-in agents; importing it
  registers ``coloretto/Coloretto-v0`` (``rl`` extra).
* ``coloretto.envs.openspiel``: the ``python_coloretto`` game for OpenSpiel (``rl`` extra).

This package imports nothing heavy: each adapter module imports its library when it is
imported itself, through ``coloretto._optional.require``.
"""
