"""The running score of a quiz: the discard quiz (:mod:`crib_analyze.discard.trainer`)
and the pegging quiz (:mod:`crib_analyze.play.trainer`) keep one each.

>>> t = Tally()
>>> t.add(0.0, True); t.add(1.5, False)
>>> t.hands, t.best, t.best_share, t.mean_loss
(2, 1, 0.5, 0.75)
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Tally:
    """Answers graded, how many were the best, the points lost (each, and in all), and
    the answers shown instead of graded."""

    hands: int = 0
    best: int = 0
    total_loss: float = 0.0
    revealed: int = 0
    losses: list[float] = field(default_factory=list)

    def add(self, loss: float, best: bool) -> None:
        """One graded answer."""
        self.hands += 1
        self.best += best
        self.total_loss += loss
        self.losses.append(loss)

    @property
    def best_share(self) -> float:
        return self.best / self.hands if self.hands else 0.0

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.hands if self.hands else 0.0
