"""coloretto: the complete digital system for Michael Schacht's card game Coloretto.

Subpackages, in dependency order (each imports only from those before it):
``engine`` (rules, state, scoring, observations, records), ``agents`` (computer players),
``arena`` (many games, tournaments, ratings), and the interfaces ``cli``, ``tui``,
``server``, ``envs``.
"""

__version__ = "0.1.0"
