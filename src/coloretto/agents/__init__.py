"""Computer players. They see only an ``Observation`` and the legal actions."""

from .base import Agent, Budget
from .registry import AGENT_NAMES, make_agent

__all__ = ["AGENT_NAMES", "Agent", "Budget", "make_agent"]
