"""The NANP area codes of each US state and Canadian province, as libphonenumber's geocoding data
(Apache-2.0, which follows NANPA's assignments) describes them: the source of
chalicelib/reference/data/nanp_area_codes.json, and the time zones its timezone data gives each
area code (nanp_time_zones.json), and the test that keeps those files equal to it.
`python -m tests.support.nanp` rewrites them."""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from typing import Any

import phonenumbers
import pycountry
from phonenumbers import geocoder, timezone

from chalicelib.reference.phones import NANP_AREA_CODES_FILE, NANP_TIME_ZONES_FILE

# Names the geocoder writes that are not ISO 3166-2 names.
_ALIASES = {"washington state": "US-WA", "washington d.c.": "US-DC", "british colombia": "CA-BC"}


def area_codes() -> dict[str, list[int]]:
    """{ISO 3166-2 code: its area codes}, from the geocoder's description of NXX-555-0100 for every
    area code libphonenumber places in the US or Canada; non-geographic codes (800, 900, 5XX...)
    name no state and are left out."""
    names = dict(_ALIASES)
    for country in ("US", "CA"):
        for unit in pycountry.subdivisions.get(country_code=country) or []:  # type: ignore[no-untyped-call]
            names[unit.name.lower()] = unit.code
    table: dict[str, list[int]] = {}
    for npa in range(200, 1000):
        number = phonenumbers.parse(f"+1{npa}5550100")
        region = phonenumbers.region_code_for_number(number)
        if region not in ("US", "CA") or not phonenumbers.is_valid_number(number):
            continue
        description = geocoder.description_for_number(number, "en")
        for place in description.split("/"):  # 902: Nova Scotia/Prince Edward Island
            _, comma, state = place.rpartition(", ")
            code = f"{region}-{state}" if comma else names.get(place.lower())
            if code and code.startswith(region):
                table.setdefault(code, []).append(npa)
    return dict(sorted(table.items()))


def time_zones() -> dict[str, list[str]]:
    """{area code: the IANA time zones libphonenumber's timezone data gives it}, for every area
    code of `area_codes`."""
    return {
        str(npa): sorted(timezone.time_zones_for_number(phonenumbers.parse(f"+1{npa}5550100")))
        for npa in sorted({npa for codes in area_codes().values() for npa in codes})
    }


def _write(file: Traversable, table: dict[str, Any]) -> None:
    lines = [f"{json.dumps(key)}: {json.dumps(value)}" for key, value in table.items()]
    file.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # type: ignore[attr-defined]


if __name__ == "__main__":
    _write(NANP_AREA_CODES_FILE, area_codes())
    _write(NANP_TIME_ZONES_FILE, time_zones())
