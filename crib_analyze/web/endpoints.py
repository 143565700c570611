"""What each endpoint of the page's API does: the parameters it takes (the API's names),
the API function it calls, and the readable view the command shows for the result.

Each takes the parameters as :func:`~crib_analyze.web.app.parameters` checked them and
returns :func:`~crib_analyze.web.app.answer`'s object; the board's endpoint returns the
chance of winning over every position instead (no command prints it whole).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from crib_analyze.api.requests import DiscardRequest
from crib_analyze.settings import WEB_MOST_DEALS, WEB_MOST_GAMES, WEB_MOST_SAMPLES
from crib_analyze.web.app import BadRequest, answer, parameters, request_fields

#: the parameters of the variants, as ``game(...)`` takes them
_VARIANTS: dict[str, tuple[type, ...]] = {
    "game": (str,), "lowball": (bool,), "jokers": (int,), "throw_fives": (bool,),
    "penalty": (str,),
}  # fmt: skip


def _rules(given: dict[str, Any]) -> Any:
    """The rules of the game and variants asked for (the API's ``game(...)``)."""
    from crib_analyze.api import game

    return game(
        given.pop("game", "standard"), lowball=bool(given.pop("lowball", False)),
        jokers=int(given.pop("jokers", 0)), throw_fives=bool(given.pop("throw_fives", False)),
        penalty=given.pop("penalty", "none"),
    )  # fmt: skip


def _cards(given: dict[str, Any], name: str = "cards") -> str:
    """Cards given as one string ("5H 6S") or a list of strings (["5H", "6S"])."""
    cards = given.pop(name, None)
    if cards is None:
        raise BadRequest(f"`{name}` is needed")
    if isinstance(cards, list):
        if not all(isinstance(c, str) for c in cards):
            raise BadRequest(f'`{name}` is a list of cards written as text, e.g. ["5H", "6S"]')
        return " ".join(cards)
    return str(cards)


_DISCARD = {
    **request_fields(DiscardRequest), "cards": (str, list), "why": (bool,), "starters": (bool,),
}  # fmt: skip


def _most(given: dict[str, Any], name: str, most: int) -> None:
    """A usage error when ``given[name]`` asks more work than a request of the page may
    (the command line takes more)."""
    value = given.get(name)
    if isinstance(value, int) and value > most:
        raise BadRequest(f"`{name}` is at most {most:,} on the page, got {value:,}")


def discard(body: dict[str, Any]) -> dict[str, Any]:
    """``discard``: the throws of one hand (:func:`~crib_analyze.api.discard_rows_for`),
    any game and variant; ``why`` and ``starters`` add those lines to the text."""
    from crib_analyze.api import discard_rows_for
    from crib_analyze.cards import format_cards
    from crib_analyze.render.discard import discard_meta, discard_text
    from crib_analyze.render.hands import distribution_text, game_throws_text

    given = parameters(body, _DISCARD)
    for name in ("samples", "position_samples"):
        _most(given, name, WEB_MOST_SAMPLES)
    hand = _cards(given)
    why, starters = bool(given.pop("why", False)), bool(given.pop("starters", False))
    request = DiscardRequest(**given).resolve()
    rows = discard_rows_for(hand, request)
    if request.distribution:
        text = distribution_text(rows, hand)
    elif request.engine == "any-game":
        text = game_throws_text(rows, starters)
    else:
        shown = format_cards(discard_meta(rows).hand)
        text = discard_text(rows, shown, why=why, starters=starters)
    return answer(rows, text)


_PLAY = {
    "seat": (str, int), "cards": (str, list), "starter": (str,), "discards": (str, list),
    "played": (str, list), "policy": (str,), "samples": (int,), "seed": (int,),
    "score": (str, list), "why": (bool,), **_VARIANTS,
}  # fmt: skip


def play(body: dict[str, Any]) -> dict[str, Any]:
    """``play``: which card to lay (:func:`~crib_analyze.api.advise_play_rows`); the
    play so far is ``played`` (the pone's card first; ``go`` where a player said it)."""
    from crib_analyze.api import advise_play_rows
    from crib_analyze.render.play import advice_text, game_advice_text

    given = parameters(body, _PLAY)
    _most(given, "samples", WEB_MOST_SAMPLES)
    hand = _cards(given)
    seat = given.pop("seat", None)
    if seat is None:
        raise BadRequest("`seat` is needed: dealer or pone (or another game's seat name)")
    played = _cards(given, "played") if "played" in given else ""
    discards = _cards(given, "discards") if "discards" in given else None
    why = bool(given.pop("why", False))
    score = given.pop("score", None)
    rules = _rules(given)
    rows = advise_play_rows(
        seat, hand, given.pop("starter", None), discards, played, game=rules,
        score=tuple(score) if isinstance(score, list) else score, **given,
    )  # fmt: skip
    text = game_advice_text(rows) if "net" in rows.columns else advice_text(rows, why)
    return answer(rows, text)


_ODDS = {
    "scores": (list,), "dealer": (bool,), "scoring": (str,), "games": (int,), "seed": (int,),
    "play_policy": (str,), "continuation": (bool,), **_VARIANTS,
}  # fmt: skip


def odds(body: dict[str, Any]) -> dict[str, Any]:
    """``odds``: the chances from a score (:func:`~crib_analyze.api.odds_rows`): the
    scores (mine, the opponent's; one a side in other games), who deals."""
    from crib_analyze.api import odds_rows
    from crib_analyze.render.board import chances_text

    given = parameters(body, _ODDS)
    _most(given, "games", WEB_MOST_GAMES)
    scores = given.pop("scores", None)
    if not scores or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise BadRequest("`scores` is a list of whole numbers: mine, then the opponent's")
    rules = _rules(given)
    rows = odds_rows(*scores, game=rules, **given)
    return answer(rows, chances_text(rows))


def board(body: dict[str, Any]) -> dict[str, Any]:
    """The chance of winning over the whole board (the board table's, standard game):
    ``dealer`` and ``pone``, each a list by my score of lists by the opponent's score."""
    parameters(body, {})
    return _board_answer()


@cache
def _board_answer() -> dict[str, Any]:
    """The board's answer, made once a process (the table never changes): five decimals,
    so that the page's percentage to one decimal is rounded once, not twice."""
    from crib_analyze.api import board_frame

    frame = board_frame()
    out: dict[str, Any] = {"target": int(frame["my_score"].max()) + 1}
    for role, dealer in (("dealer", True), ("pone", False)):
        part = frame[frame["dealer"] == dealer].sort_values(["my_score", "opp_score"])
        grid = part["p_win"].to_numpy().reshape(out["target"], out["target"])
        out[role] = [[round(float(p), 5) for p in line] for line in grid]
    return out


def games(body: dict[str, Any]) -> dict[str, Any]:
    """``games``: the games of the rules, their seats and deal (as ``games --format
    json`` prints them)."""
    from crib_analyze.api import games_rows

    parameters(body, {})
    return answer(games_rows(), "")


_REVIEW: dict[str, tuple[type, ...]] = {
    "record": (str,), "position_samples": (int,), "seed": (int,),
}  # fmt: skip


def review(
    body: dict[str, Any], on_progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """``review``: every decision of a game record (its text, uploaded or pasted; kept in
    memory, never a path) graded, as :func:`~crib_analyze.api.review_text_record`;
    ``on_progress`` (a job's) hears each deal graded."""
    from crib_analyze.api import review_text_record
    from crib_analyze.render.play import review_text
    from crib_analyze.results import rows_of_frame

    given = check_review(body)
    record = given.pop("record")
    deals = sum(line.strip().lower() == "deal" for line in record.splitlines())
    if on_progress is None and deals > WEB_MOST_DEALS:  # not a job: kept short
        raise BadRequest(f"a record of {deals} deals: grade it as a job "
                         f"(/api/jobs/review), or send at most {WEB_MOST_DEALS}")  # fmt: skip
    rows = rows_of_frame(review_text_record(record, on_progress=on_progress, **given))
    return answer(rows, review_text(rows))


def check_review(body: dict[str, Any]) -> dict[str, Any]:
    """``review``'s parameters, checked (before a job starts, too)."""
    given = parameters(body, _REVIEW)
    if not given.get("record"):
        raise BadRequest("`record` is needed: the game record's text")
    _most(given, "position_samples", WEB_MOST_SAMPLES)
    return given


_QUIZ: dict[str, tuple[type, ...]] = {"seed": (int,), "role": (str,), "throw": (str, list)}


def throw_quiz(body: dict[str, Any]) -> dict[str, Any]:
    """The discard trainer, kept in the page: ``seed`` deals the hand (and the role,
    when ``role`` is "random"); with ``throw`` the answer is graded. The page keeps the
    tally; the server keeps nothing."""
    from crib_analyze.api import start_quiz
    from crib_analyze.cards import format_cards
    from crib_analyze.verdicts import throw_grade_words

    given = parameters(body, _QUIZ)
    if "seed" not in given:
        raise BadRequest("`seed` is needed: it deals the hand")
    quiz = start_quiz(seed=given["seed"], role=given.get("role", "random"))
    deal = quiz.deal()
    out: dict[str, Any] = {"hand": format_cards(deal.hand).split(), "role": deal.role}
    if "throw" in given:
        throw = quiz.parse_throw(deal, _cards(given, "throw"))
        grade = quiz.grade(deal, throw)
        best = deal.rows["discard"][list(deal.rows[f"{deal.role}_best"]).index(True)]
        out["grade"] = {
            "discard": grade.discard, "loss": grade.loss, "rank": grade.rank,
            "best": grade.best, "near_tie": grade.near_tie, "why": list(grade.why),
            "best_throw": str(best),
        }  # fmt: skip
        out["verdict"] = throw_grade_words(
            grade.discard, grade.best, grade.near_tie, grade.loss, grade.rank
        )
    return out


_PLAY_QUIZ: dict[str, tuple[type, ...]] = {"seed": (int,), "role": (str,), "card": (str,)}


def play_quiz(body: dict[str, Any]) -> dict[str, Any]:
    """The pegging trainer, kept in the page: ``seed`` deals the position; with
    ``card`` the card is graded against the play advice."""
    from crib_analyze.api import play_grade_rows, start_play_quiz
    from crib_analyze.cards import format_card, format_cards
    from crib_analyze.render.play import advice_text
    from crib_analyze.verdicts import card_grade_words

    given = parameters(body, _PLAY_QUIZ)
    if "seed" not in given:
        raise BadRequest("`seed` is needed: it deals the position")
    quiz = start_play_quiz(seed=given["seed"], role=given.get("role", "random"))
    position = quiz.deal()
    out: dict[str, Any] = {
        "role": position.role, "hand": format_cards(position.hand).split(),
        "legal": format_cards(position.legal).split(), "starter": format_card(position.starter),
        "discards": format_cards(position.discards).split(), "played": position.played_text,
        "count": position.count,
    }  # fmt: skip
    if "card" in given:
        grade = quiz.grade(position, quiz.parse_card(position, given["card"]))
        rows = play_grade_rows(grade)
        out["grade"] = {"card": grade.card, "best": grade.best, "loss": grade.loss,
                        "is_best": grade.is_best}  # fmt: skip
        out["verdict"] = card_grade_words(grade.card, grade.is_best, grade.loss, grade.best)
        out["text"] = advice_text(rows, why=True)
    return out


#: the work that runs as a job (``/api/jobs/<name>``): long, with progress, cancellable;
#: each with the check of its parameters, made before it starts
JOBS: dict[str, tuple[Callable[..., Any], Callable[..., dict[str, Any]]]] = {
    "review": (check_review, review),
}

#: the POST endpoints, by the path after ``/api/``
ENDPOINTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "discard": discard,
    "play": play,
    "odds": odds,
    "review": review,
    "quiz/throw": throw_quiz,
    "quiz/play": play_quiz,
}
