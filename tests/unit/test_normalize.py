from __future__ import annotations

from collections.abc import Mapping

import pytest

from chalicelib.domain.addresses import MatchLevel, PropertyType
from chalicelib.reference.pool_config import SourceConfig, load_pool_config
from chalicelib.reference.postcodes import canonical, check_postcode
from chalicelib.services.sync.normalize import (
    Candidate,
    Dropped,
    DropReason,
    FieldRemoval,
    clean_text,
    normalize,
)
from tests.support.factories import make_address, make_raw

CONFIG = load_pool_config()


def _normalize(
    overrides: Mapping[str, object] | None = None, *, street_level: bool = False
) -> Candidate | Dropped:
    raw = make_raw(**(overrides or {}))
    source = SourceConfig.model_validate({"streetLevel": street_level})
    return normalize(raw, CONFIG.countries.get(raw.country), source)


def test_valid_row_becomes_a_candidate() -> None:
    candidate = _normalize()
    assert isinstance(candidate, Candidate)
    assert candidate.match_level is MatchLevel.HOUSE_NUMBER
    assert candidate.postcode == "50-202"


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"country": "ZZ"}, DropReason.COUNTRY_NOT_ENABLED),
        ({"street": "FAKE ST", "city": "ANYTOWN"}, DropReason.PLACEHOLDER_TEXT),
        ({"street": "UNKNOWN"}, DropReason.PLACEHOLDER_TEXT),
        ({"number": "-9"}, DropReason.PLACEHOLDER_NUMBER),
        ({"lon": "", "lat": ""}, DropReason.INVALID_COORDINATES),
        ({"lon": "abc"}, DropReason.INVALID_COORDINATES),
        ({"lon": "nan"}, DropReason.INVALID_COORDINATES),
        ({"lon": "-13575131", "lat": "4483791"}, DropReason.COORDINATES_OUT_OF_RANGE),
        ({"lon": "0", "lat": "0"}, DropReason.PLACEHOLDER_COORDINATES),
        ({"lon": "2.35", "lat": "48.85"}, DropReason.OUTSIDE_COUNTRY),
        ({"street": ""}, DropReason.MISSING_STREET),
        ({"street": " - "}, DropReason.MISSING_STREET),
        ({"number": ""}, DropReason.MISSING_NUMBER),
    ],
)
def test_each_drop_reason(overrides: dict[str, str], reason: DropReason) -> None:
    assert _normalize(overrides) == Dropped(reason)


def test_street_level_sources_keep_rows_without_numbers() -> None:
    candidate = _normalize({"number": ""}, street_level=True)
    assert isinstance(candidate, Candidate)
    assert candidate.match_level is MatchLevel.STREET
    assert candidate.number == ""


@pytest.mark.parametrize(
    ("postcode", "removal"),
    [
        ("00-000", FieldRemoval.POSTCODE_PLACEHOLDER),
        ("5O-2O2", FieldRemoval.POSTCODE_INVALID),
        ("502", FieldRemoval.POSTCODE_INVALID),
    ],
)
def test_bad_postcodes_are_removed_and_the_row_kept(postcode: str, removal: FieldRemoval) -> None:
    candidate = _normalize({"postcode": postcode})
    assert isinstance(candidate, Candidate)
    assert candidate.postcode == ""
    assert candidate.removed == [removal]


@pytest.mark.parametrize(
    ("country", "text", "expected"),
    [
        ("JP", "6408273", "640-8273"),
        ("NL", "1614LN", "1614 LN"),
        ("GB", "ec2y8bb", "EC2Y 8BB"),
        ("US", "941031234", "94103-1234"),
        ("US", "94103", "94103"),
        ("DE", " 69117 ", "69117"),
    ],
)
def test_postcodes_take_their_national_written_form(country: str, text: str, expected: str) -> None:
    assert canonical(country, text) == expected
    assert check_postcode(country, text).value == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rue gramme", "Rue Gramme"),
        ("avenue d'italie", "Avenue d'Italie"),
        ("rue du faubourg-saint-denis", "Rue du Faubourg-Saint-Denis"),
        ("OCTAVIA ST", "OCTAVIA ST"),  # USPS upper case stays as published
        ("Ulica  Księcia   Witolda", "Ulica Księcia Witolda"),
        ("- 114 High Street", "114 High Street"),
        ("白山１丁目", "白山１丁目"),  # the register's full-width digits are its spelling
    ],
)
def test_clean_text(text: str, expected: str) -> None:
    assert clean_text(text, is_name=True) == expected


@pytest.mark.parametrize(
    ("overrides", "kind"),
    [
        ({"use": "institutional"}, PropertyType.INSTITUTIONAL),
        ({"use": "commercial"}, PropertyType.COMMERCIAL),
        ({"premises": {"building": "house"}}, PropertyType.RESIDENTIAL),
        ({"premises": {"building": "school"}}, PropertyType.INSTITUTIONAL),
        ({"premises": {"building": "apartments", "shop": "bakery"}}, PropertyType.MIXED),
        ({"use": "commercial", "premises": {"building": "house"}}, PropertyType.COMMERCIAL),
        ({"premises": {"building": "yes"}}, PropertyType.UNKNOWN),
        ({}, PropertyType.UNKNOWN),
    ],
)
def test_property_type_only_from_source_evidence(overrides: dict[str, object], kind: PropertyType) -> None:
    candidate = _normalize(overrides)
    assert isinstance(candidate, Candidate)
    assert candidate.property_type is kind


def test_a_source_s_no_number_value_makes_a_street_level_address() -> None:
    raw = make_raw(number="0")  # the Icelandic register writes 0 for "no number"
    source = SourceConfig.model_validate({"noNumber": ["0"]})
    candidate = normalize(raw, CONFIG.countries.get(raw.country), source)
    assert isinstance(candidate, Candidate)
    assert (candidate.number, candidate.match_level) == ("", MatchLevel.STREET)
    assert candidate.removed == [FieldRemoval.NUMBER_MEANS_NONE]
    plain = normalize(raw, CONFIG.countries.get(raw.country), SourceConfig())
    assert isinstance(plain, Candidate)
    assert plain.number == "0"  # elsewhere 0 is a number like any other


def test_a_small_country_s_margin_keeps_points_in_the_sea_out() -> None:
    # A CHAS clinic whose SVY21 coordinates are 0/0: the projection's false origin, south of Singapore.
    raw = make_raw(country="SG", lon="103.5817518", lat="1.0162643", postcode="118228")
    assert normalize(raw, CONFIG.countries["SG"], SourceConfig()) == Dropped(DropReason.OUTSIDE_COUNTRY)
    inside = make_raw(country="SG", lon="103.7869", lat="1.2905", postcode="118228")
    assert isinstance(normalize(inside, CONFIG.countries["SG"], SourceConfig()), Candidate)


def test_an_italian_address_gets_the_province_of_its_postcode_listed_as_derived() -> None:
    rome = make_address(
        source_id="osm-rome_esquilino-it",
        country="IT",
        language="it",
        street="Via Merulana",
        number="1",
        city="Roma",
        district="",
        region="",
        postcode="00185",
        lon="12.5036",
        lat="41.8936",
    )
    c = rome.components
    assert (c.region_code, c.province, c.province_code) == ("IT-62", "Roma", "IT-RM")
    assert {"region", "province"} <= set(rome.derived)
    assert rome.completeness.complete
    assert rome.formatted == "Via Merulana 1, 00185 Roma RM"


@pytest.mark.parametrize(
    ("country", "postcode", "served", "derived"),
    [
        ("AD", "500", "AD500", True),  # the prefix is not the row's text
        ("AD", "AD500", "AD500", False),
        ("GB", "ec2y8bb", "EC2Y 8BB", False),  # spacing and case only
        ("PT", "4300-198 PORTO", "4300-198", False),  # the locality dropped, nothing added
    ],
)
def test_a_postcode_whose_written_form_adds_characters_is_listed_as_derived(
    country: str, postcode: str, served: str, derived: bool
) -> None:
    places = {"AD": ("1.5218", "42.5063"), "GB": ("-0.0931", "51.5203"), "PT": ("-8.6109", "41.1337")}
    lon, lat = places[country]
    address = make_address(
        source_id=f"test-{country.lower()}", country=country, postcode=postcode, region="", lon=lon, lat=lat
    )
    assert address.components.postcode == served
    assert ("postcode" in address.derived) is derived
