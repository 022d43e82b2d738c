"""The Chalice application: creates the app and registers routes and middleware; nothing else.

The API's routes come from a table (chalicelib/api/route_table.py): each route's module is
imported by its first request, so a cold start's init imports none of them."""

from collections.abc import Callable

from chalice.app import Chalice, Response

from chalicelib.api import route_table
from chalicelib.api.console import console
from chalicelib.api.middleware import http_middleware
from chalicelib.api.route_table import ROUTES, Route
from chalicelib.jobs import jobs

app = Chalice(app_name="address-generation-service")
app.register_middleware(http_middleware, "http")


def _lazy(route: Route) -> Callable[..., Response]:
    def view(**path_params: str) -> Response:
        request = app.current_request
        if request is None:  # Chalice sets it before it calls a view
            raise RuntimeError(f"{route.view} called outside a request")
        return route_table.handle(route, request, path_params)

    view.__name__ = route.view
    return view


for route in ROUTES:
    app.route(route.path, methods=[route.method], content_types=route.content_types)(_lazy(route))
for blueprint in (console, jobs):
    app.register_blueprint(blueprint)
