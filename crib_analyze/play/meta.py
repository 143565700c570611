"""What play advice was made from, typed, and its words (the verdict is made from the
values by :func:`crib_analyze.verdicts.play_verdict`; ``method`` says how the values
were made).

>>> meta = PlayMeta(role="pone", count=5, policy="solver", continuation="solved",
...                 weighted_by="its throw")
>>> meta.method
"solver policy: solved; the opponent's cards weighted by its throw"
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta


@dataclass(frozen=True, kw_only=True)
class PlayMeta(ResultMeta):
    """Play advice in the standard game: the role and count it was asked at, the policy
    and how its values were made, and what each card scores, leaves and invites."""

    role: str = "pone"
    count: int = 0
    samples: int = 0
    policy: str = ""
    continuation: str = ""
    weighted_by: str = ""
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def method(self) -> str:
        """How the values were made, in words."""
        return (
            f"{self.policy} policy: {self.continuation}; the opponent's cards weighted by "
            f"{self.weighted_by}"
        )
