"""The app's route table: each route's method and path beside a reference to its handler's
declaration, so the app registers its routes without importing them. A route's module (its models,
services and, through them, storage) is imported by its first request, and a cold start pays only
for what it serves.

The table itself is app.py's, written by `make routes` (infra/routes.py) from the declarations
(api/endpoint.py): a route's method, path and scope are stated once, on its handler."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chalice.app import Chalice, Request, Response

if TYPE_CHECKING:
    from chalicelib.api.endpoint import Declared, Operation


@dataclass(frozen=True)
class Reference:
    """A handler's declaration named before its module is imported: the module is imported when the
    declaration is first needed."""

    module: str
    name: str

    def resolve(self) -> Declared:
        declared: Declared = getattr(importlib.import_module(self.module), self.name)
        return declared


class LazyModule:
    """A route module as app.py's table names it at run time: `module.handler` is a Reference."""

    def __init__(self, module: str) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Reference:
        return Reference(self._module, name)


def lazy_module(name: str) -> LazyModule:
    """A route module under chalicelib.api, imported by its first route's first request."""
    return LazyModule(f"chalicelib.api.{name}")


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    handler: Declared | Reference  # a Reference at run time, until its first request
    json_body: bool = False  # takes a JSON body: Chalice accepts only application/json for it
    tool: str | None = None  # its MCP tool's name, where it has one

    @property
    def view(self) -> str:
        """The handler's name: the view's name in Chalice's routes and the packaged API."""
        return self.handler.name

    @property
    def content_types(self) -> list[str]:
        return ["application/json"] if self.json_body else ["*/*"]

    def declared(self) -> Declared:
        handler = self.handler
        return handler.resolve() if isinstance(handler, Reference) else handler


_served: RouteTable | None = None  # the table app.py registered: the routes that describe routes read it


def served() -> RouteTable:
    if _served is None:
        raise RuntimeError("no route table registered: import app first")
    return _served


class RouteTable:
    def __init__(self, *routes: Route) -> None:
        self.routes = routes

    def __iter__(self) -> Iterator[Route]:
        return iter(self.routes)

    def register(self, app: Chalice) -> None:
        """Register each route on `app`, answered by its handler once its module is imported; this
        table becomes the one the OpenAPI documents and the MCP endpoint read."""
        global _served
        for route in self.routes:
            app.route(route.path, methods=[route.method], content_types=route.content_types)(
                _lazy_view(app, route)
            )
        _served = self

    def route(self, method: str, path: str) -> Route:
        """The table's entry for (method, path)."""
        return next(r for r in self.routes if (r.method, r.path) == (method, path))

    def dispatch(self, method: str, path: str, request: Request, path_params: dict[str, str]) -> Response:
        """Answer `request` as the route for (method, path) does, from within another route (an MCP
        tool call runs the REST operation it names, through the same pipeline)."""
        return self.route(method, path).declared()(request, path_params)

    def operations(self) -> list[Operation]:
        """Every operation of the API, in the table's order, its route modules imported first (the
        OpenAPI documents)."""
        declared = (route.declared() for route in self.routes)
        return [d.operation for d in declared if d.operation is not None]


def _lazy_view(app: Chalice, route: Route) -> Callable[..., Response]:
    def view(**path_params: str) -> Response:
        request = app.current_request
        if request is None:  # Chalice sets it before it calls a view
            raise RuntimeError(f"{route.view} called outside a request")
        return handle(route, request, path_params)

    view.__name__ = route.view
    return view


_begun = False  # whether this process has begun a request


def handle(route: Route, request: Request, path_params: dict[str, str]) -> Response:
    """Answer a request on `route`, its module imported first (at once, when it is already).

    A process's first request imports most of the service (its route module, the wiring,
    storage): objects the cyclic collector would traverse again and again to find no garbage
    (13% of a cold first /generate). It runs with the collector paused, and what it built then
    moves to the permanent generation, which later collections skip."""
    global _begun
    if _begun:
        return route.declared()(request, path_params)
    _begun = True
    gc.disable()
    try:
        return route.declared()(request, path_params)
    finally:
        gc.freeze()
        gc.enable()
