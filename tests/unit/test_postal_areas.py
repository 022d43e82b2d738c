"""Components filled from postal authorities' tables, through the real normalize → publish path."""

from __future__ import annotations

from typing import Any

import pytest

from chalicelib.reference.postal_areas import postcode_place
from tests.support.factories import make_address

_POINTS = {"AT": ("15.6049", "48.4102"), "LI": ("9.5209", "47.1410"), "MC": ("7.4236", "43.7400")}


def _osm(country: str, source: str, **fields: Any) -> dict[str, Any]:
    lon, lat = _POINTS[country]
    base = {"source_id": source, "record_id": "n1", "country": country, "region": "", "district": ""}
    return base | {"lon": lon, "lat": lat} | fields


def test_a_postcode_with_one_delivery_place_gives_the_city() -> None:
    address = make_address(
        **_osm("AT", "osm-krems-at", language="de", street="Ringstraße", number="5", city="", postcode="3500")
    )
    assert address.components.city == "Krems an der Donau"
    assert "city" in address.derived
    assert address.completeness.complete


def test_an_unknown_postcode_leaves_the_city_missing() -> None:
    address = make_address(
        **_osm("AT", "osm-krems-at", language="de", street="Ringstraße", number="5", city="", postcode="3999")
    )
    assert address.components.city is None
    assert "city" not in address.derived
    assert address.completeness.missing == ("city",)


def test_a_published_city_is_kept_over_the_table() -> None:
    address = make_address(
        **_osm(
            "AT",
            "osm-krems-at",
            language="de",
            street="Ringstraße",
            number="5",
            city="Krems",
            postcode="3500",
        )
    )
    assert address.components.city == "Krems"
    assert "city" not in address.derived


@pytest.mark.parametrize(
    ("country", "source", "fields", "postcode"),
    [
        ("LI", "osm-liechtenstein-li", {"city": "Vaduz", "street": "Städtle", "language": "de"}, "9490"),
        ("LI", "osm-liechtenstein-li", {"city": "Eschen", "street": "Essanestrasse", "language": "de"}, None),
        ("MC", "osm-monaco-mc", {"city": "Monaco", "street": "Rue Grimaldi", "language": "fr"}, "98000"),
        ("MC", "osm-monaco-mc", {"city": "Beausoleil", "street": "Rue Grimaldi", "language": "fr"}, None),
    ],
)
def test_an_area_with_exactly_one_postcode_gives_it(
    country: str, source: str, fields: dict[str, str], postcode: str | None
) -> None:
    address = make_address(**_osm(country, source, number="1", postcode="", **fields))
    assert address.components.postcode == postcode
    assert ("postcode" in address.derived) is (postcode is not None)


def test_the_postcode_table_gives_the_region_of_a_row_outside_its_extract_s_country() -> None:
    # Feldkirch (AT) addresses in the Liechtenstein extract: its configured region is LI's, not theirs
    fields = {"street": "Am Schellenberg", "number": "17", "city": "Feldkirch", "postcode": "6800"}
    address = make_address(
        **_osm("AT", "osm-liechtenstein-li", language="de", lon="9.5550", lat="47.2271", **fields)
    )
    assert (address.components.region_code, address.components.region) == ("AT-8", "Vorarlberg")
    assert "region" in address.derived


def test_every_czech_postcode_with_leading_1_is_delivered_in_prague() -> None:
    assert postcode_place("CZ", "190 00") == "Praha"
    assert postcode_place("CZ", "182 00") == "Praha"
    assert postcode_place("CZ", "602 00") is None  # Brno: not in a table we hold
