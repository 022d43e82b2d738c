"""Writes app.py's route table from the handlers' declarations (`@endpoint`, `@view` and
`@guarded_view` in chalicelib/api), where a route's method, path, scope, models and MCP tool are
stated once: `make routes` (python -m infra.routes) rewrites it, and tests/unit/test_route_table.py
fails while it is stale.

The table keeps the order it has: a new route goes after the last of its module's, or at the end."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import chalicelib.api
from chalicelib.api.endpoint import Declared

APP = Path(__file__).resolve().parent.parent / "app.py"
MARK = "# The routes, written by `make routes` from the handlers' declarations: edit those, not these lines."
_LISTED = re.compile(r'Route\("(?P<method>[A-Z]+)", "(?P<path>[^"]+)"')


def declarations() -> list[Declared]:
    """Every route the modules of chalicelib/api declare, each module's in the order of its source."""
    found: list[Declared] = []
    for info in pkgutil.iter_modules(chalicelib.api.__path__, "chalicelib.api."):
        if info.ispkg:
            continue
        module = importlib.import_module(info.name)
        own = [d for d in vars(module).values() if isinstance(d, Declared) and d.module == info.name]
        found += sorted(own, key=lambda d: d.handler.__code__.co_firstlineno)
    return found


def ordered(declared: list[Declared], listed: list[tuple[str, str]]) -> list[Declared]:
    """`declared` in the order app.py lists them; a route it does not list after its module's last."""
    place = {key: n for n, key in enumerate(listed)}
    table = [d for d in declared if (d.method, d.path) in place]
    table.sort(key=lambda d: place[(d.method, d.path)])
    for new in (d for d in declared if (d.method, d.path) not in place):
        same = [n for n, d in enumerate(table) if d.module == new.module]
        table.insert(same[-1] + 1 if same else len(table), new)
    return table


def render(app_source: str, declared: list[Declared]) -> str:
    """app.py with its table written from `declared`, one route a line (outside `ruff format`)."""
    head, _, listed_part = app_source.partition(MARK)
    table = ordered(declared, [(m["method"], m["path"]) for m in _LISTED.finditer(listed_part)])
    modules = sorted({_short(d.module) for d in table})
    lines = [
        MARK,
        "# fmt: off",
        "if TYPE_CHECKING:",
        "    from chalicelib.api import (",
        *(f"        {m}," for m in modules),
        "    )",
        "else:  # at run time, each is imported by its first request",
        *(f'    {m} = lazy_module("{m}")' for m in modules),
        "",
        "ROUTES = RouteTable(",
        *(f"    {_entry(d)}," for d in table),
        ")",
        "# fmt: on",
        "ROUTES.register(app)",
    ]
    return head.rstrip() + "\n\n\n" + "\n".join(lines) + "\n"


def _entry(d: Declared) -> str:
    extras = ", json_body=True" if d.json_body else ""
    tool = d.operation.tool if d.operation else None
    extras += f', tool="{tool.name}"' if tool else ""
    return f'Route("{d.method}", "{d.path}", {_short(d.module)}.{d.name}{extras})'


def _short(module: str) -> str:
    return module.removeprefix("chalicelib.api.")


def main() -> None:
    written = render(APP.read_text(), declarations())
    if written != APP.read_text():
        APP.write_text(written)
        print(f"wrote {APP.name}'s route table")


if __name__ == "__main__":
    main()
