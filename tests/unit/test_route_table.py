"""The app registers its API routes from app.py's table, importing no route module: the table is
derived from the handlers' declarations (infra/routes.py), names each of them once, and a route's
method and path are stated in one place of chalicelib; importing the app leaves every route module
for its first request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app import ROUTES, app
from chalicelib.api.endpoint import Declared
from infra.routes import APP, declarations, render

CHALICELIB = Path(__file__).resolve().parents[2] / "chalicelib"


def test_the_table_is_written_from_the_declarations_as_they_stand() -> None:
    assert render(APP.read_text(), declarations()) == APP.read_text(), "app.py is stale: run `make routes`"


def test_the_table_names_every_declared_route_once_under_its_handler() -> None:
    declared = {(d.method, d.path): d for d in declarations()}
    assert len(declared) == len(declarations())  # no route declared twice
    assert [(r.method, r.path) for r in ROUTES] == list(dict.fromkeys((r.method, r.path) for r in ROUTES))
    assert {(r.method, r.path) for r in ROUTES} == set(declared)
    for route in ROUTES:
        handler = route.declared()
        assert isinstance(handler, Declared)
        assert handler is declared[(route.method, route.path)]
        assert route.json_body == handler.json_body, route
        tool = handler.operation.tool if handler.operation else None
        assert route.tool == (tool.name if tool else None), route


def test_a_route_s_path_is_written_in_its_handler_s_module_alone() -> None:
    sources = {p: p.read_text() for p in CHALICELIB.rglob("*.py")}
    for route in ROUTES:
        home = Path(sys.modules[route.declared().module].__file__ or "")
        written = {p for p, text in sources.items() if f'"{route.path}"' in text}
        assert written <= {home}, (route.path, written)


def test_the_app_routes_each_table_entry_under_its_handler_s_name() -> None:
    for route in ROUTES:
        entry = app.routes[route.path][route.method]
        assert (entry.view_name, entry.content_types) == (route.view, route.content_types)
        assert route.view == route.declared().name


def test_importing_the_app_imports_no_route_module() -> None:
    names = {r.declared().module for r in ROUTES}
    modules = sorted(names | {"chalicelib.api.endpoint", "pydantic"})
    probe = f"import sys, app; print([m for m in {modules!r} if m in sys.modules])"
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


def test_a_process_s_first_request_runs_with_the_collector_paused_and_later_ones_do_not() -> None:
    probe = """
import gc, json, app
from chalice.test import Client
runs = []
gc.callbacks.append(lambda phase, info: runs.append(info["generation"]) if phase == "start" else None)
with Client(app.app) as client:
    first = client.http.get("/api/v1/health").status_code
    during_first = len(runs)
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    for _ in range(20):
        client.http.get("/api/v1/health")
        [object() for _ in range(1000)] and [[] for _ in range(1000)]
print(json.dumps([first, during_first, frozen > 0, enabled, len(runs) > during_first]))
"""
    answered = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    last_line = answered.stdout.splitlines()[-1]  # after the access log
    status, collections_during_first, froze, enabled_after, collected_later = json.loads(last_line)
    assert status == 200
    assert collections_during_first == 0  # it imports the wiring: thousands of objects, no collection
    assert froze  # what it built is frozen
    assert enabled_after  # and the collector runs again
    assert collected_later
