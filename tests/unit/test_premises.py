"""Property types come from what a source states or its OSM tags name, never from a guess."""

import pytest

from chalicelib.domain.addresses import PropertyType as T
from chalicelib.domain.premises import property_type


@pytest.mark.parametrize(
    ("tags", "kind"),
    [
        ({"building": "apartments"}, T.RESIDENTIAL),
        ({"building": "yes", "shop": "bakery"}, T.COMMERCIAL),
        ({"amenity": "restaurant"}, T.COMMERCIAL),
        ({"tourism": "hotel"}, T.COMMERCIAL),
        ({"office": "insurance"}, T.COMMERCIAL),
        ({"office": "government"}, T.INSTITUTIONAL),
        ({"amenity": "school"}, T.INSTITUTIONAL),
        ({"amenity": "doctors"}, T.INSTITUTIONAL),  # health care is institutional, as a clinic register is
        ({"healthcare": "physiotherapist"}, T.INSTITUTIONAL),
        ({"building": "warehouse"}, T.INDUSTRIAL),
        ({"man_made": "works"}, T.INDUSTRIAL),
        ({"building": "Industrial"}, T.INDUSTRIAL),  # values are compared case-folded
        ({"building": "apartments", "shop": "bakery"}, T.MIXED),
        ({"building": "school", "amenity": "cafe"}, T.MIXED),
        ({"building": "retail", "shop": "supermarket", "amenity": "pharmacy"}, T.COMMERCIAL),
        ({"building": "yes"}, T.UNKNOWN),
        ({"amenity": "parking"}, T.UNKNOWN),  # names no premises
        ({"shop": "vacant"}, T.UNKNOWN),
        ({"man_made": "tower"}, T.UNKNOWN),
        ({}, T.UNKNOWN),
    ],
)
def test_an_osm_object_s_tags_name_its_type(tags: dict[str, str], kind: T) -> None:
    assert property_type("", tags) is kind


def test_a_row_s_statement_wins_over_its_tags_and_its_source_s() -> None:
    assert property_type("institutional", {"shop": "kiosk"}, T.COMMERCIAL) is T.INSTITUTIONAL
    assert property_type("", {"building": "house"}, T.INSTITUTIONAL) is T.INSTITUTIONAL  # a clinic register
    assert property_type("not-a-type", {}) is T.UNKNOWN  # a value outside the list is no statement
