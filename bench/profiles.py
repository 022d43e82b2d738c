"""Test profiles per country as a tester's validators judge them, measured in one run.

Syncs shared/sources (or the countries named) into an in-memory DynamoDB Local, draws a seeded
sample of served addresses with their profiles per country (batch requests through the app), and
prints per country:
- phones libphonenumber accepts for the country (phonenumbers: libphonenumber-js's metadata);
- phones from a range the regulator reserves for fiction (`dialable`);
- phones of the address's own area: for NANP, an area code libphonenumber places in the address's
  state or province; elsewhere, a block that serves the address (`area` set);
- phones both invalid and not marked undialable (must be 0);
- the name forms present (native, Latin, kana) and e-mails in ASCII on an RFC 2606 domain.

    .venv/bin/python -m bench.profiles [CC ...]
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import phonenumbers
from chalice.test import Client

from bench.harness import served_samples
from tests.support.nanp import area_codes

SAMPLE = 100  # served addresses per country (2 batches of 50, seeded)
RESERVED_DOMAINS = {"example.com", "example.net", "example.org"}
HEADER = [
    "country",
    "sample",
    "valid",
    "reserved",
    "kinds",
    "own area",
    "invalid+unmarked",
    "names",
    "e-mail ok",
]


def main(countries: list[str]) -> list[str]:
    with served_samples(countries) as served:
        nanp = area_codes()
        rows = [
            _row(outcome.country, _sample(served.client, served.auth, outcome.country), nanp)
            for outcome in sorted(served.report.countries.values(), key=lambda o: o.country)
            if outcome.addresses
        ]
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _sample(client: Client, auth: dict[str, str], country: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for seed in range(SAMPLE // 50):
        body = {
            "count": 50,
            "filters": {"country": country, "residential": False},
            "options": {"seed": f"p{seed}"},
        }
        response = client.http.post("/api/v1/generate/batch", headers=auth, body=json.dumps(body).encode())
        assert response.status_code == 200, response.body
        results.extend(json.loads(response.body)["data"]["results"])
    return results


def _row(country: str, results: list[dict[str, Any]], nanp: dict[str, list[int]]) -> list[str]:
    valid = reserved = own_area = unmarked = emails = 0
    forms: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for result in results:
        profile, address = result["profile"], result["address"]
        phone = profile["phone"]
        is_valid = phonenumbers.is_valid_number_for_region(phonenumbers.parse(phone["e164"]), country)
        valid += is_valid
        reserved += phone["dialable"]
        unmarked += not is_valid and phone["dialable"]
        own_area += _own_area(country, phone, address["components"].get("regionCode"), nanp)
        kinds[phone["type"]] = kinds.get(phone["type"], 0) + 1
        present = "+".join(f for f in ("native", "latin", "kana") if f == "native" or profile[f])
        forms[present] = forms.get(present, 0) + 1
        local, _, domain = profile["email"].partition("@")
        emails += bool(re.fullmatch(r"[a-z0-9.]+", local)) and domain in RESERVED_DOMAINS
    n = len(results)
    names = ", ".join(f"{form} {count / n:.0%}" for form, count in sorted(forms.items()))
    kind_shares = ", ".join(f"{kind} {count / n:.0%}" for kind, count in sorted(kinds.items()))
    valid_share, reserved_share, area_share = (f"{count / n:.0%}" for count in (valid, reserved, own_area))
    row = [country, str(n), valid_share, reserved_share, kind_shares, area_share, str(unmarked)]
    return [*row, names, f"{emails / n:.0%}"]


def _own_area(country: str, phone: dict[str, Any], region: str | None, nanp: dict[str, list[int]]) -> bool:
    if country in ("US", "CA"):  # libphonenumber's own placing of the area code
        return region is not None and int(phone["e164"][2:5]) in nanp.get(region, [])
    return phone["area"] is not None


if __name__ == "__main__":
    print("\n".join(main(sys.argv[1:])))
