"""What a discard ranking was made from, typed, and its words, made here from the
numbers (not by a front end): the verdicts, what the throws are ranked by, the
opponent, the assumptions in one line, the details of ``--verbose``, and a note for
each variant in play (its rule from :attr:`~crib_analyze.rules.Rules.variant_rules`,
then what it does to this ranking).

>>> meta = DiscardMeta(role="dealer", opponent="expert", sort="total", pegging="table")
>>> meta.ranked_by
'dealer total = net + peg, dealer net = hand + crib + heels'
>>> meta.assumed
'as dealer; expert opponent; the play counted'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta
from crib_analyze.rules import game


@dataclass(frozen=True, kw_only=True)
class DiscardMeta(ResultMeta):
    """A discard ranking's provenance and words (``verdicts`` by role; ``verdict``, the
    base field, is the chosen role's, or the dealer's with no role)."""

    role: str | None = None
    opponent: str = "expert"
    model: str | None = None
    samples: int | None = None
    seed: int | None = None
    policy: str | None = None
    need: int | None = None
    sort: str = "net"
    heels: float = 0.0
    near_tie_points: float = 0.0
    pegging: str | None = None
    penalty: str = "none"
    throw_fives: bool = False
    lowball: bool = False
    jokers: int = 0
    hand: tuple[int, ...] = ()
    verdicts: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, list[str]] = field(default_factory=dict)
    starters: dict[str, dict[str, str]] = field(default_factory=dict)
    forced: tuple[str, ...] = ()  # throw fives: the fives each legal throw must hold
    score: tuple[int, int] | None = None
    goal: str | None = None
    scoring: str | None = None
    position_samples: int | None = None
    position_seed: int | None = None
    position_play: str | None = None  # how the play of those deals was counted
    distribution: bool = False

    @property
    def ranked_by(self) -> str:
        """In words, what the rows are ranked by."""
        if self.goal == "win":
            return "the chance of winning the game from this score"
        if self.goal == "match":
            return f"expected match points ({self.scoring} scoring) from this score"
        who = self.role or "dealer"
        net = {
            "dealer": "dealer net = hand + crib + heels",
            "pone": "pone net = hand - crib",
        }[who]
        if self.penalty != "none":
            net += " + penalty"
        value = f"{who} total = net + peg" if self.pegging else net
        if self.lowball:
            value += ", lowest first"
        if self.sort == "total":
            return f"{value}, {net}"
        if self.sort == "net":
            return net
        if self.sort == "hand":
            return f"hand mean (ties by {value})"
        if self.sort == "crib":
            order = "lowest first" if self.role == "pone" else "highest first"
            return f"crib, {order} (ties by {value})"
        return f"P(hand >= {self.need}), then {value}"

    @property
    def opponent_words(self) -> str:
        """The opponent model in words, with the expert model used."""
        if self.opponent == "sampled":
            text = (
                f"opponent: sampled, {self.samples or 0:,} hands throwing by the "
                f"{self.policy} policy (seed {self.seed}; crib ± 1 s.e.)"
            )
        elif self.opponent == "expert":
            text = "opponent: expert (exact combination)"
        else:
            text = "opponent: random (exact)"
        return text + (f"; {self.model}" if self.model else "")

    @property
    def assumed(self) -> str:
        """One line after the hand: the role, the opponent, the play, the score."""
        who = f"as {self.role}" if self.role else "both roles"
        if self.opponent == "sampled":
            opponent = f"sampled opponent ({self.samples or 0:,} hands, {self.policy} policy)"
        else:
            opponent = f"{self.opponent} opponent"
        if self.model and not self.model.startswith("packaged"):
            opponent += f" ({self.model})"
        words = [who, opponent, "the play counted" if self.pegging else "without the play"]
        if self.goal and self.score is not None:
            words.append(f"from {self.score[0]}-{self.score[1]}")
        return "; ".join(words)

    @property
    def details(self) -> tuple[str, ...]:
        """What ``--verbose`` says after the hand: what was ranked by, the model, heels,
        the play, the score and how it was simulated."""
        who = f"as {self.role}" if self.role else "both roles"
        out = [f"{who}, ranked by {self.ranked_by}", self.opponent_words]
        if self.role != "pone":
            out.append(
                f"heels: {self.heels:.3f} (a jack starter gives the dealer 2), in dealer net"
            )
        if self.pegging:
            out.append(f"the play: {self.pegging}; peg = your pegging minus the opponent's")
        if self.goal and self.score is not None:
            mine, theirs = self.score
            out.append(
                f"score: you {mine}, opponent {theirs}; each throw's deal simulated "
                f"{self.position_samples or 0:,} times on shared cards (seed "
                f"{self.position_seed}), {self.position_play}, then the board "
                "table; ± one standard error"
            )
        return tuple(out)


def variant_notes(meta: DiscardMeta) -> tuple[str, ...]:
    """A note for each variant in play: its rule, then what it does to this ranking."""
    rules = game(
        "standard", lowball=meta.lowball, jokers=meta.jokers, throw_fives=meta.throw_fives,
        penalty=meta.penalty,  # type: ignore[arg-type]
    )  # fmt: skip
    out = []
    for rule in rules.variant_rules:
        kind = rule.split(":")[0]
        if kind.endswith("penalty"):
            seen = "P(0) and the expected penalty in the net" if meta.role else "in the nets"
            rule += f"; {seen}"
        elif kind == "lowball":
            rule += "; ranked lowest first, loss = above the lowest"
            if meta.opponent == "expert":
                rule += "; the opponent wants the fewest points too (the lowball expert model)"
        elif kind == "throw fives":
            forced = _forced_words(meta.forced)
            who = (
                "the expert model built under the rule"
                if meta.opponent == "expert"
                else ("random opponent")
            )
            rule += f"; {forced}; the opponent throws its fives too ({who})"
        out.append(rule)
    return tuple(out)


def _forced_words(forced: tuple[str, ...]) -> str:
    """What the throw-fives rule makes this hand throw."""
    if not forced:
        return "you hold no five: any throw"
    if len(forced[0].split()) == 1:
        return f"you must throw {forced[0]} (the other card is yours)"
    if len(forced) == 1:
        return f"you must throw {forced[0]}"
    return "you must throw two of your fives: " + ", ".join(forced)
