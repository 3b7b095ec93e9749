"""95% intervals of the move advisor's estimates (``advisor``), from scipy's distributions.

* **Win chance** (a mean of win indicators: 1 sole win, ``1/k`` for a ``k``-way tie, 0
  otherwise): the Jeffreys interval, the 2.5% and 97.5% quantiles of
  ``Beta(w + 1/2, n - w + 1/2)`` with ``w`` the summed indicators of ``n`` samples
  (``scipy.special.betaincinv``); its lower end is 0 when ``w = 0`` and its upper end 1 when
  ``w = n``. It stays inside [0, 1] and is not degenerate at 0% or 100% (2 wins in 2 samples
  give [0.33, 1], not [1, 1]). Indicators in [0, 1] have at most the variance of 0/1 ones
  with the same mean, so split wins make the interval, if anything, wide.
* **Margin** (a mean of final score margins): the Student t interval, ``mean +- t * sd /
  sqrt(n)`` with ``t`` the 97.5% quantile of t with ``n - 1`` degrees of freedom
  (``scipy.special.stdtrit``); none with fewer than two samples.
"""

from __future__ import annotations

import math

__all__ = ["CONFIDENCE", "margin_interval", "win_interval"]

CONFIDENCE = 0.95
"""Confidence level of every interval here."""

_TAIL = (1.0 - CONFIDENCE) / 2.0


def win_interval(win_prob: float, samples: int) -> tuple[float, float]:
    """The 95% Jeffreys interval ``(low, high)`` of a win chance estimated as ``win_prob``
    (a mean of indicators in [0, 1]) from ``samples`` samples; ``(0, 1)`` without samples.

    Raises:
        ValueError: ``win_prob`` outside [0, 1] or ``samples`` negative.
    """
    if samples < 0:
        raise ValueError(f"samples must be >= 0, not {samples}")
    if not 0.0 <= win_prob <= 1.0:
        raise ValueError(f"a win chance must lie in [0, 1], not {win_prob}")
    if samples == 0:
        return 0.0, 1.0
    from scipy.special import betaincinv

    w = win_prob * samples
    a, b = w + 0.5, samples - w + 0.5
    low = 0.0 if win_prob == 0.0 else float(betaincinv(a, b, _TAIL))
    high = 1.0 if win_prob == 1.0 else float(betaincinv(a, b, 1.0 - _TAIL))
    return low, high


def margin_interval(mean: float, sd: float, samples: int) -> tuple[float, float] | None:
    """The 95% Student t interval ``(low, high)`` of a mean margin (points) from ``samples``
    samples with sample standard deviation ``sd``; ``None`` with fewer than two samples.

    Raises:
        ValueError: ``sd`` negative.
    """
    if sd < 0:
        raise ValueError(f"a standard deviation must be >= 0, not {sd}")
    if samples < 2:
        return None
    from scipy.special import stdtrit

    half = float(stdtrit(samples - 1, 1.0 - _TAIL)) * sd / math.sqrt(samples)
    return mean - half, mean + half
