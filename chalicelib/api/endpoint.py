"""A route's declaration and its one pipeline. `@endpoint(Operation(...))` states a route once, on
its handler: method, path, scope, models, MCP tool, what the OpenAPI documents say of it; app.py's
table is derived from the declarations (`make routes`), and nothing is registered on import.

Pipeline: authenticate → check scope → count against the rate limit → parse input with pydantic →
call the handler (one service call) → serialize its response model. Domain errors become responses
here, because Chalice middleware never sees exceptions raised in views.

For an operation that only reads, the rate counter's write is sent before parsing and settled
after the handler: it is in flight while the handler's own reads are, so the request waits for the
slower of the two round trips, not their sum. A request over its limit still gets 429 (the
handler's answer is dropped) and has changed nothing; operations that write count first."""

from __future__ import annotations

import hashlib
import json
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from chalice.app import Request, Response
from pydantic import BaseModel, ValidationError

from chalicelib.api import request_scope
from chalicelib.api.errors import internal_error_response, rate_headers, service_error_response
from chalicelib.domain.tokens import Quota, Scope, Token
from chalicelib.errors import ErrorDetail, InvalidRequest, ServiceError
from chalicelib.logs import log_event
from chalicelib.services.auth import Admitting, authenticate, authorize, begin_admission

if TYPE_CHECKING:
    from chalicelib import deps

Q = TypeVar("Q")
B = TypeVar("B")
M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")  # what a route's `needs` picks, and its handler takes


@dataclass(frozen=True)
class McpTool:
    """An operation as a tool of the MCP endpoint (api/mcp_endpoint.py)."""

    name: str
    title: str
    text: Callable[[Any], str]  # the short text form of a success, from the operation's response model


@dataclass(frozen=True)
class Operation:
    """One endpoint as the OpenAPI document describes it."""

    method: str
    path: str
    name: str
    summary: str
    tag: str
    response: type[BaseModel]
    scope: Scope | None
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    path_params: type[BaseModel] | None = None
    errors: tuple[int, ...] = ()
    description: str = ""
    status: int = 200  # of a success: 201 for what it creates, 202 for what it only starts
    read_only: bool | None = None  # None: GET reads, other methods write
    # Media types of a success besides JSON, each with its body's description (an export's formats).
    other_media: tuple[tuple[str, str], ...] = ()
    not_found: str = "NO_POOL_COVERAGE"  # the code of its 404, when it has one
    gone: tuple[str, ...] = ("SNAPSHOT_EXPIRED",)  # the codes of its 410, when it has one
    headers: tuple[str, ...] = ()  # a success's own headers (openapi._HEADERS), beyond the common ones
    cacheable: bool = False  # may answer Immutable: ETag and Cache-Control, and 304 to If-None-Match
    tool: McpTool | None = None  # where test agents call it as an MCP tool too

    @property
    def reads_only(self) -> bool:
        """Whether the handler may run before its request is admitted (its answer then dropped)."""
        return self.method == "GET" if self.read_only is None else self.read_only

    @property
    def document(self) -> str:
        """Which OpenAPI document describes it: the administrators' API has its own."""
        return "admin" if self.tag == "admin" else "public"


# A view takes the request and its path parameters; the app's route for (method, path) calls it
# (app.py, api/route_table.py).
View = Callable[[Request, dict[str, str]], Response]


@dataclass(frozen=True)
class Declared:
    """A route as its handler's module declares it: the only place its method and path are stated
    (with its operation's scope, models and MCP tool, where it has them). app.py's route table is
    derived from these declarations (`make routes`)."""

    method: str
    path: str
    handler: Callable[..., Any]
    answer: View
    operation: Operation | None = None  # None: outside the OpenAPI documents

    @property
    def name(self) -> str:
        """The handler's name: the view's name in Chalice's routes and the packaged API."""
        return self.handler.__name__

    @property
    def module(self) -> str:
        return self.handler.__module__

    @property
    def json_body(self) -> bool:
        """Takes a JSON body: Chalice accepts only application/json for it."""
        return self.operation.body is not None if self.operation else self.method == "POST"

    def __call__(self, request: Request, path_params: dict[str, str]) -> Response:
        return self.answer(request, path_params)


def view(method: str, path: str) -> Callable[[Callable[..., Response]], Declared]:
    """Declare a route outside the pipeline (the OpenAPI documents): called with its path parameters."""

    def decorator(function: Callable[..., Response]) -> Declared:
        return Declared(method, path, function, lambda request, path_params: function(**path_params))

    return decorator


@dataclass(frozen=True)
class Call(Generic[Q, B]):
    """What a handler gets besides its dependencies: the parsed input and the caller."""

    query: Q
    body: B
    path: dict[str, Any]
    token: Token | None
    source_ip: str | None
    forwarded_for: str | None


@dataclass(frozen=True)
class Download:
    """An answer whose body is already written, in its own media type (an export page as CSV or
    NDJSON), with headers of its own."""

    body: str
    content_type: str
    headers: dict[str, str]


@dataclass(frozen=True)
class Immutable:
    """An answer that cannot change before `until` (seeded, from a pinned snapshot kept until
    then): sent with a strong ETag and `Cache-Control: immutable` (RFC 8246); a request whose
    If-None-Match holds that ETag gets 304."""

    result: BaseModel | Download
    until: datetime


A = TypeVar("A", bound=BaseModel | Download)


def cacheable(answer: A, pinned_until: datetime | None, *, reproducible: bool) -> A | Immutable:
    """A reproducible (seeded) answer from a pinned snapshot stays the same until the snapshot may
    expire; anything else is sent as it is."""
    return Immutable(answer, pinned_until) if pinned_until is not None and reproducible else answer


# A handler gets the call and only the dependencies its route names (`needs`), never the container;
# mypy ties the two: a handler's second parameter has the type its route's `needs` returns.
HandlerOf = Callable[[Call[Any, Any], D], BaseModel | Download | Immutable]
Handler = HandlerOf[Any]
Needs = Callable[["deps.Dependencies"], Any]


def _nothing(dependencies: deps.Dependencies) -> None:
    return None


@overload
def endpoint(operation: Operation) -> Callable[[HandlerOf[None]], Declared]: ...


@overload
def endpoint(
    operation: Operation, needs: Callable[[deps.Dependencies], D]
) -> Callable[[HandlerOf[D]], Declared]: ...


def endpoint(operation: Operation, needs: Needs = _nothing) -> Callable[[Handler], Declared]:
    """Declare `handler` as `operation`, answered through the request pipeline; `needs` picks, from
    the process's dependencies, what the handler is given."""

    def decorator(handler: Handler) -> Declared:
        def answer(request: Request, path_params: dict[str, str]) -> Response:
            return _handle(operation, handler, needs, request, path_params)

        return Declared(operation.method, operation.path, handler, answer, operation)

    return decorator


def guarded_view(method: str, path: str) -> Callable[[Callable[[Request], Response]], Declared]:
    """Declare a route outside the OpenAPI documents whose every request needs an active token, of
    any scope (the MCP endpoint: each tool call it serves then goes through the pipeline of the
    operation it calls, with that operation's scope and rate limit). Called with the request."""

    def decorator(function: Callable[[Request], Response]) -> Declared:
        def guarded(request: Request, path_params: dict[str, str]) -> Response:
            return _answered(path, lambda: _authenticated(function, request))

        return Declared(method, path, function, guarded)

    return decorator


def _authenticated(function: Callable[[Request], Response], request: Request) -> Response:
    from chalicelib import deps

    gate = deps.get().admission()
    token = authenticate(request.headers.get("authorization"), gate.tokens, gate.clock.now())
    request_scope.current().token_id = token.token_id
    return function(request)


def _answered(route: str, work: Callable[[], Response]) -> Response:
    """`work`'s response; a domain error's response in the one error shape; a 500 that leaks
    nothing (and is logged) for anything else."""
    scope = request_scope.current()
    try:
        return work()
    except ServiceError as error:
        return service_error_response(error, scope.request_id)
    except Exception as error:  # noqa: BLE001 - the last line of defence: log it, never leak it
        log_event(
            "unhandled_error",
            level=logging.ERROR,
            requestId=scope.request_id,
            route=route,
            tokenId=scope.token_id,
            error=type(error).__name__,
            traceback=traceback.format_exc(limit=20),
        )
        return internal_error_response(scope.request_id)


def _handle(
    operation: Operation, handler: Handler, needs: Needs, request: Request, path_params: dict[str, str]
) -> Response:
    quota: Quota | None = None

    def admitted() -> Response:
        nonlocal quota
        # Imported at the first request, not with the app: the wiring loads PynamoDB and botocore,
        # which a cold start's `import app` need not wait for.
        from chalicelib import deps

        dependencies = deps.get()
        token = None
        admission: Admitting | None = None
        if operation.scope is not None:
            gate = dependencies.admission()
            now = gate.clock.now()
            token = authenticate(request.headers.get("authorization"), gate.tokens, now)
            request_scope.current().token_id = token.token_id
            authorize(token, operation.scope)
            admission = begin_admission(token, gate.counter, gate.uses, now)
            if not operation.reads_only:
                quota, admission = admission.result(), None
        try:
            answer = _respond(operation, handler, request, path_params, token, lambda: needs(dependencies))
            if isinstance(answer, Immutable):
                answer = _immutable(operation, answer, request, dependencies.clock.now())
            return answer
        finally:
            if admission is not None:
                quota = admission.result()  # RateLimited here outranks the handler's outcome

    response = _answered(operation.path, admitted)
    if quota is not None:
        response.headers.update(rate_headers(quota))
    return response


def _respond(
    operation: Operation,
    handler: Handler,
    request: Request,
    path_params: dict[str, str],
    token: Token | None,
    needed: Callable[[], Any],
) -> Response | Immutable:
    call: Call[Any, Any] = Call(
        query=_parse(operation.query, _query_dict(request), "query") if operation.query else None,
        body=_parse(operation.body, _json_body(request), "body") if operation.body else None,
        path=_parse(operation.path_params, path_params, "path").model_dump() if operation.path_params else {},
        token=token,
        source_ip=request.context.get("identity", {}).get("sourceIp"),
        forwarded_for=request.headers.get("x-forwarded-for"),
    )
    result = handler(call, needed())
    if isinstance(result, Immutable):
        if not operation.cacheable:  # its document would not say so
            raise AssertionError(f"{operation.name} answered Immutable without being cacheable")
        return result
    if isinstance(result, Download):
        headers: dict[str, str | list[str]] = {"Content-Type": result.content_type, **result.headers}
        return Response(result.body, headers=headers, status_code=operation.status)
    return Response(result.model_dump(mode="json", by_alias=True), status_code=operation.status)


def _immutable(operation: Operation, answer: Immutable, request: Request, now: datetime) -> Response:
    result = answer.result
    if isinstance(result, Download):
        body, headers = result.body, {"Content-Type": result.content_type, **result.headers}
    else:  # serialized as Chalice would, so the ETag names the bytes sent
        body = json.dumps(result.model_dump(mode="json", by_alias=True), separators=(",", ":"))
        headers = {"Content-Type": "application/json"}
    seconds = max(0, int((answer.until - now).total_seconds()))
    tag = f'"{hashlib.sha256(body.encode()).hexdigest()[:32]}"'
    cache = {"ETag": tag, "Cache-Control": f"private, max-age={seconds}, immutable"}
    if _matches(request.headers.get("if-none-match"), tag):
        return Response("", headers=dict(cache), status_code=304)
    return Response(body, headers={**headers, **cache}, status_code=operation.status)


def _matches(if_none_match: str | None, tag: str) -> bool:
    """RFC 9110 13.1.2: `*`, or any listed tag equal to ours by weak comparison."""
    if not if_none_match:
        return False
    listed = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in listed or tag in listed


def _parse(model: type[M], data: Any, where: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        details = tuple(ErrorDetail(_field_name(e["loc"], where), e["msg"]) for e in exc.errors())
        names = ", ".join(sorted({d.field for d in details}))
        raise InvalidRequest(f"invalid {where}: {names}", details) from exc


def _field_name(loc: tuple[int | str, ...], where: str) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or where


def _query_dict(request: Request) -> dict[str, str]:
    params = request.query_params
    if not params:
        return {}
    repeated = sorted(k for k in params if len(params.getlist(k)) > 1)
    if repeated:
        details = tuple(ErrorDetail(k, "given more than once") for k in repeated)
        raise InvalidRequest(f"query parameters given more than once: {', '.join(repeated)}", details)
    return {k: params[k] for k in params}


def _json_body(request: Request) -> Any:
    raw = request.raw_body
    if not raw:
        raise InvalidRequest("a JSON body is required", (ErrorDetail("body", "missing"),))
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest("the body is not valid JSON", (ErrorDetail("body", str(exc)),)) from exc
