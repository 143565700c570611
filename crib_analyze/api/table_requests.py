"""The request of a discard table to write (:class:`TableRequest`), resolved as
:class:`~crib_analyze.api.requests.DiscardRequest` is."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from crib_analyze.api.capabilities import Engine, dispatch
from crib_analyze.errors import UsageError
from crib_analyze.rules import Rules
from crib_analyze.settings import DEFAULT_TABLE_OPPONENT, TABLE_LIMIT, TABLE_OPPONENTS, check_choice


@dataclass(frozen=True)
class TableRequest:
    """A discard table to write (see :func:`~crib_analyze.api.tables.generate_table`):
    None where nothing was asked. After :meth:`resolve`, ``game`` is the rules,
    ``engine`` names the engine, and for the standard game ``opponent`` and ``restart``
    are set and ``shard`` is parsed."""

    opponent: str | None = None
    fmt: str | None = None
    limit: int | None = None
    shard: str | tuple[int, int] | None = None
    restart: bool | None = None
    model: Any = None
    game: str | Rules = "standard"
    engine: Engine | None = None

    def resolve(self) -> TableRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {"opponent": self.opponent, "model": self.model, "limit": self.limit,
                 "shard": self.shard, "restart": self.restart, "fmt": self.fmt}  # fmt: skip
        joker_opponent = self._joker_opponent()
        if joker_opponent is not None:  # the table of a pack with jokers takes it too
            given["opponent"] = None
        rules, engine = dispatch("generate_table", self.game, given)
        if engine == "any-game":  # every variant: the tables of the rules' games rank by each
            from crib_analyze.table.five_card import TABLE_GAMES

            if not rules.plain.is_standard and rules.name not in TABLE_GAMES:
                raise UsageError(
                    f"no table for {rules.name}: a seat's choice there is a split of ten "
                    "cards (keep four, pass four, throw two), too many hands to enumerate; "
                    "'discard --game' ranks one hand's splits"
                )
            return replace(self, game=rules, engine=engine, opponent=joker_opponent or "random")
        from crib_analyze.discard.engine import model_variant
        from crib_analyze.table.spec import parse_shard

        opponent = self.opponent or DEFAULT_TABLE_OPPONENT
        check_choice("opponent model for the table", opponent, TABLE_OPPONENTS)
        if opponent == "expert":
            model_variant(rules.throw_fives, rules.lowball)  # an expert model plays them
        if self.model is not None and opponent != "expert":
            raise UsageError("`model` applies to `opponent` expert")
        limit = None if self.limit is None else TABLE_LIMIT.check(self.limit)
        shard = parse_shard(self.shard) if isinstance(self.shard, str) else self.shard
        if shard is not None and self.fmt not in (None, "parquet"):
            raise UsageError("shards are written as Parquet (merge them, then choose the format)")
        return replace(self, game=rules, engine=engine, opponent=opponent, limit=limit,
                       shard=shard, restart=bool(self.restart))  # fmt: skip

    def _joker_opponent(self) -> str | None:
        """The opponent of the standard game's table with jokers (random, or the expert
        of the pack under the rules' other variants), None where none was asked or the
        game is another."""
        from crib_analyze.api.capabilities import rules_of

        rules = rules_of(self.game)
        if self.opponent is None or not rules.jokers or not rules.plain.is_standard:
            return None
        check_choice("opponent model for a table with jokers", self.opponent, ("random", "expert"))
        if self.opponent == "expert":
            from crib_analyze.artifacts.game_models import expert_model_of

            if expert_model_of(rules) is None:  # a combination no model is made for
                raise UsageError(
                    f"no expert of the pack with {', '.join(rules.variants)} is made: "
                    "'discard --jokers N --opponent expert' with them makes it once "
                    "(minutes), then the table can be written"
                )
        return self.opponent
