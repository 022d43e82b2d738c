"""DB-IP's English region names → ISO 3166-2 first-level codes."""

from __future__ import annotations

import pycountry
import pytest

from chalicelib.domain.ip import parse_ip, placeable
from chalicelib.reference.exonyms import EXONYMS
from chalicelib.services.context.regions import region_code


@pytest.mark.parametrize(
    ("country", "name", "code"),
    [
        ("DE", "Bavaria", "DE-BY"),
        ("DE", "Hesse", "DE-HE"),
        ("IT", "Lombardy", "IT-25"),
        ("DE", "State of Berlin", "DE-BE"),
        ("AT", "State of Vienna", "AT-9"),
        ("NL", "North Holland", "NL-NH"),
        ("PL", "Lower Silesia", "PL-02"),
        ("FR", "Rhone-Alpes", "FR-ARA"),  # a pre-2016 region, wholly inside today's
        ("US", "California", "US-CA"),  # ISO names in English
        ("CA", "Quebec", "CA-QC"),  # without the accent
        ("CN", "Beijing", "CN-BJ"),  # without "Shi"
        ("CN", "Guangxi", "CN-GX"),  # without "Zhuangzu Zizhiqu"
        ("KR", "Seoul", "KR-11"),  # without "-teukbyeolsi"
        ("RU", "Novosibirsk Oblast", "RU-NVS"),  # Novosibirskaya oblast'
        ("KE", "Nairobi County", "KE-30"),  # Nairobi City
        ("JP", "Tokyo", "JP-13"),
        ("GB", "England", "GB-ENG"),
        ("MX", "Mexico City", "MX-CMX"),  # not the State of Mexico
        ("MX", "Mexico", "MX-MEX"),
    ],
)
def test_names_map_to_first_level_codes(country: str, name: str, code: str) -> None:
    assert region_code(country, name) == code


@pytest.mark.parametrize(
    ("country", "name"),
    [("TW", "Taiwan"), ("HK", "Kowloon"), ("DE", "Atlantis"), ("US", ""), ("ZZ", "Nowhere")],
)
def test_names_that_fit_no_unit_map_to_nothing(country: str, name: str) -> None:
    assert region_code(country, name) is None


def test_every_exonym_names_a_first_level_unit_of_its_country() -> None:
    for country, names in EXONYMS.items():
        for name, code in names.items():
            unit = pycountry.subdivisions.get(code=code)  # type: ignore[no-untyped-call]
            assert unit is not None, (name, code)
            assert unit.country_code == country, (name, code)
            assert unit.parent_code is None, (name, code)


@pytest.mark.parametrize(
    ("text", "normalized", "public"),
    [
        ("8.8.8.8", "8.8.8.8", True),
        ("::ffff:8.8.8.8", "8.8.8.8", True),
        ("2a00:1450::1", "2a00:1450::1", True),
        ("10.0.0.1", "10.0.0.1", False),
        ("::1", "::1", False),
        ("100.64.0.1", "100.64.0.1", False),
        ("2001:db8::1", "2001:db8::1", False),
    ],
)
def test_addresses_parse_and_only_public_ones_are_placeable(text: str, normalized: str, public: bool) -> None:
    address = parse_ip(text)
    assert (str(address), placeable(address)) == (normalized, public)


@pytest.mark.parametrize("text", ["1.2.3", "1.2.3.4/32", "fe80::1%eth0", "01.2.3.4", ""])
def test_malformed_addresses_do_not_parse(text: str) -> None:
    with pytest.raises(ValueError, match=r"address|zone"):
        parse_ip(text)
