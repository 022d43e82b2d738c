"""A near-miss variant's donor: another place's value, in another region where one is."""

from __future__ import annotations

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.near_misses import VariantKind, donor_for, needs, removed, variant_id
from tests.support.factories import make_address

WROCLAW = make_address(record_id="w1", city="Wrocław", postcode="50-202", region="dolnośląskie")


def _in(city: str, postcode: str, region: str, record_id: str) -> PublishedAddress:
    return make_address(record_id=record_id, city=city, district=city, postcode=postcode, region=region)


def test_a_donor_in_another_region_is_preferred_then_one_in_another_city() -> None:
    same_city = _in("Wrocław", "50-203", "dolnośląskie", "a")
    same_region = _in("Oleśnica", "56-400", "dolnośląskie", "b")
    elsewhere = _in("Gliwice", "44-100", "śląskie", "c")
    kind = VariantKind.POSTCODE_OF_ANOTHER_PLACE
    assert donor_for(WROCLAW, kind, [same_city, same_region, elsewhere]) == elsewhere
    assert donor_for(WROCLAW, kind, [same_city, same_region]) == same_region
    assert donor_for(WROCLAW, kind, [same_city]) is None  # the same city is no other place
    assert donor_for(WROCLAW, VariantKind.CITY_OF_ANOTHER_PLACE, [same_city]) is None
    spelled = _in("Wroclaw", "50-204", "dolnośląskie", "d")  # the same city without its accent
    assert donor_for(WROCLAW, VariantKind.CITY_OF_ANOTHER_PLACE, [spelled]) is None
    nowhere = make_address(record_id="e", city="", district="", postcode="50-205", region="")
    assert donor_for(WROCLAW, kind, [nowhere, same_region]) == same_region  # no city: not "another"


def test_removing_a_component_keeps_the_rest_and_a_variant_id_is_never_a_published_one() -> None:
    without = removed(WROCLAW, VariantKind.MISSING_POSTCODE)
    assert without.postcode is None
    assert without.street == WROCLAW.components.street
    assert needs(VariantKind.STREET_OF_ANOTHER_CITY) == ("city",)
    assert needs(VariantKind.POSTCODE_OF_ANOTHER_PLACE) == ("postcode", "city")
    assert needs(VariantKind.MISSING_UNIT) == ("unit",)
    made = variant_id(WROCLAW, VariantKind.MISSING_POSTCODE, None)
    assert made.startswith("pl-variant-")
    assert made != variant_id(WROCLAW, VariantKind.MISSING_NUMBER, None)
    assert len(WROCLAW.id) == len("pl-") + 16 != len(made)
