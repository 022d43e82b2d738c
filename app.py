"""The Chalice application: creates the app and registers blueprints and middleware; nothing else."""

from chalice.app import Chalice

from chalicelib.api.admin import admin
from chalicelib.api.catalog import catalog
from chalicelib.api.console import console
from chalicelib.api.context import context
from chalicelib.api.export import export
from chalicelib.api.generation import generation
from chalicelib.api.middleware import http_middleware
from chalicelib.api.probes import probes
from chalicelib.api.reports import reports
from chalicelib.api.translation import translation
from chalicelib.jobs import jobs

app = Chalice(app_name="address-generation-service")
app.register_middleware(http_middleware, "http")
for blueprint in (probes, reports, generation, export, catalog, context, translation, admin, console, jobs):
    app.register_blueprint(blueprint)
