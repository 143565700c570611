"""The page's server: the static page and its JSON API, as a Starlette app.

Every endpoint under ``/api/`` takes one JSON object of the matching API function's
parameters (their names as the API spells them; unknown names and wrong types are
refused), runs that function and answers::

    {"verdict": "...", "notes": [...], "rows": [...], "text": "..."}

``rows`` is what the command's ``--format json`` prints, ``verdict`` and ``notes`` the
result's own words, ``text`` the command's readable view (80 columns). A bad request
gets 400 and ``{"error": "<the API's one line>"}``; never a traceback. Requests are
capped at :data:`~crib_analyze.settings.WEB_MAX_BODY` bytes and by the work they may ask
(``WEB_MOST_*``); a POST must say it is JSON and come from the page's own origin (a page
elsewhere cannot send one: cross-site requests); the app answers only to the Host names
it serves (loopback, or the address it was bound to: DNS rebinding). No request's data
is written to disk and no endpoint takes a file path (the kernel cache and the expert's
crib cache are filled as by every command). One analysis runs at a time (the kernels
use every core); a job takes its turns between its steps.
"""

from __future__ import annotations

import json
import threading
import traceback
from collections.abc import Callable, Sequence
from dataclasses import fields
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from crib_analyze import notices
from crib_analyze.errors import CribAnalyzeError
from crib_analyze.results import Rows
from crib_analyze.settings import LOOPBACK_HOSTS, WEB_MAX_BODY, __version__

log = notices.logger("crib_analyze.web")
_ONE_AT_A_TIME = threading.Lock()  # the kernels fill the cores: analyses queue

#: JSON types a parameter may take, by the type its annotation names
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "bool": (bool,), "str": (str,), "list": (list,),
}  # fmt: skip


class BadRequest(Exception):
    """A request the endpoint refuses: its one line, and the status (400, 413)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _allowed(annotation: str) -> tuple[type, ...]:
    """The JSON types a field's annotation (its text) admits; None is always admitted."""
    kinds = [k.strip() for k in annotation.replace("|", ",").split(",")]
    found: list[type] = []
    for kind in kinds:
        base = kind.split("[")[0]
        found += _JSON_TYPES.get(base, ())
        if base == "tuple":  # a score as a pair
            found.append(list)
        if base in ("Any", "Rules"):
            found.append(str)
    return tuple(found) or (str,)


def parameters(body: dict[str, Any], accepted: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """The body's parameters once each is a name ``accepted`` knows, of a type it takes
    (None for "not given"), or a :class:`BadRequest` naming the first that is not."""
    for name, value in body.items():
        if name not in accepted:
            raise BadRequest(f"unknown parameter {name!r}; this endpoint takes: "
                             f"{', '.join(sorted(accepted))}")  # fmt: skip
        kinds = accepted[name]
        ok = value is None or (isinstance(value, kinds) and not (
            isinstance(value, bool) and bool not in kinds))  # fmt: skip
        if not ok:
            names = " or ".join(sorted({k.__name__ for k in kinds}))
            raise BadRequest(f"`{name}` must be {names}, got {json.dumps(value)}")
    return {k: v for k, v in body.items() if v is not None}


def request_fields(cls: type, leave_out: tuple[str, ...] = ()) -> dict[str, tuple[type, ...]]:
    """The parameters of a request dataclass a page may send, with their JSON types
    (``model``, a file path, and ``engine``, set by the request itself, left out)."""
    out = {}
    for f in fields(cls):
        if f.name in ("model", "engine", *leave_out):
            continue
        out[f.name] = _allowed(str(f.type))
    return out


def same_origin(request: Request) -> None:
    """A POST or DELETE from the page itself: JSON (a form or a plain text post, which a
    page elsewhere may send without asking, is refused) from this origin or none."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method == "POST" and kind != "application/json":
        raise BadRequest("send JSON, with Content-Type: application/json", 415)
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
        raise BadRequest(f"requests from {origin} are refused: the page is this server's", 403)


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read in memory up to the size cap."""
    if request.method in ("POST", "DELETE"):
        same_origin(request)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > WEB_MAX_BODY:
        raise BadRequest(f"the request is over {WEB_MAX_BODY:,} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > WEB_MAX_BODY:
            raise BadRequest(f"the request is over {WEB_MAX_BODY:,} bytes", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request is not JSON") from None
    except RecursionError:
        raise BadRequest("the request's JSON is nested too deeply") from None
    if not isinstance(body, dict):
        raise BadRequest("the request is a JSON object of parameters")
    return body


def answer(rows: Rows, text: str) -> dict[str, Any]:
    """What every endpoint answers: the rows as ``--format json`` prints them, the
    result's verdict and notes, the readable view."""
    from crib_analyze.render.common import rows_json

    meta = rows.meta
    return {
        "verdict": rows.attrs.get("verdict", ""),
        "notes": list(meta.notes) if meta is not None else [],
        "rows": json.loads(rows_json(rows)),
        "text": text,
    }


def endpoint(run: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[..., Any]:
    """An endpoint of the API: the body read and checked, ``run`` called with it (one
    analysis at a time, in a worker thread), its errors one line with their status."""
    from starlette.concurrency import run_in_threadpool

    async def handle(request: Request) -> Response:
        try:
            body = await read_body(request)
            result = await run_in_threadpool(_locked, run, body)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except CribAnalyzeError as e:
            status = 400 if e.exit_code == 2 else 500
            return JSONResponse({"error": str(e)}, status_code=status)
        except Exception as e:  # a bug: logged here, one line to the page
            return _internal(e)
        return JSONResponse(result)

    return handle


def _internal(e: Exception) -> Response:
    """A bug's answer: one line to the client, the traceback to the server's log."""
    log.error("internal error: %s", "".join(traceback.format_exception(e)))
    return JSONResponse(
        {"error": f"internal error (a bug in crib-analyze {__version__}): {type(e).__name__}"},
        status_code=500,
    )


def job_routes() -> list[Route]:
    """``/api/jobs/<name>`` (POST: start), ``/api/jobs/id/<id>`` (GET: its state; DELETE:
    cancel it): :mod:`crib_analyze.web.jobs`."""
    from crib_analyze.web import jobs
    from crib_analyze.web.endpoints import JOBS

    def starter(check: Callable[..., Any], work: Callable[..., Any]) -> Callable[[Request], Any]:
        async def begin(request: Request) -> Response:
            try:
                body = await read_body(request)
                check(body)  # a bad request is refused now, not found failed later
                key = jobs.start(work, body, _ONE_AT_A_TIME)
                return JSONResponse({"job": key}, status_code=202)
            except BadRequest as e:
                return JSONResponse({"error": str(e)}, status_code=e.status)
            except CribAnalyzeError as e:
                return JSONResponse({"error": str(e)}, status_code=400 if e.exit_code == 2 else 503)
            except Exception as e:  # a bug: logged, one line
                return _internal(e)

        return begin

    async def state(request: Request) -> Response:
        try:
            if request.method == "DELETE":
                same_origin(request)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        job = jobs.find(request.path_params["key"])
        if job is None:
            return JSONResponse({"error": "no such job"}, status_code=404)
        if request.method == "DELETE":
            job.cancel.set()
        return JSONResponse(job.as_dict())

    return [
        *(Route(f"/api/jobs/{name}", starter(check, work), methods=["POST"])
          for name, (check, work) in JOBS.items()),
        Route("/api/jobs/id/{key}", state, methods=["GET", "DELETE"]),
    ]  # fmt: skip


def _locked(run: Callable[[dict[str, Any]], dict[str, Any]], body: dict[str, Any]) -> Any:
    with _ONE_AT_A_TIME:
        return run(body)


def create_app(hosts: Sequence[str] = LOOPBACK_HOSTS) -> Starlette:
    """The app: the page at ``/``, its files at ``/static/``, the API at ``/api/``;
    it answers only requests whose Host header is one of ``hosts`` (the names of the
    address it is bound to: DNS rebinding)."""
    from crib_analyze.web import endpoints

    static = resources.files("crib_analyze.web") / "static"
    routes = [
        Route("/", _page(static), methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
        *(
            Route(f"/api/{name}", endpoint(run), methods=["POST"])
            for name, run in endpoints.ENDPOINTS.items()
        ),
        Route("/api/board", endpoint(endpoints.board), methods=["GET"]),
        Route("/api/games", endpoint(endpoints.games), methods=["GET"]),
        *job_routes(),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
    return Starlette(routes=routes, middleware=middleware)


def _page(static: Any) -> Callable[[Request], Any]:
    page = (static / "index.html").read_text(encoding="utf-8")

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    return index
