"""The fifth data release's four countries as a tester meets them, synced from their real OSM
extracts: Hong Kong's bilingual street tags split by script (never romanized), its area derived
from its district; Vietnam's diacritics kept and its look-alike Đ read as Đ; Brazil's state from
the CEP; Helsinki's house number copied into its city removed; street furniture dropped."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.services.sync.report import SyncReport
from tests.support.api import Api, served_addresses, synced_pool
from tests.support.factories import needs_sources

pytestmark = needs_sources

SOURCES = [
    "osm-helsinki-fi",
    "osm-hanoi-vn",
    "osm-ho_chi_minh_city-vn",
    "osm-tsim_sha_tsui-hk",
    "osm-sao_paulo-br",
]
LATIN = ("en", "de", "fr", "es", "pt")


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("fifth"), SOURCES) as wired:
        yield wired


@pytest.fixture
def report(pool: deps.Dependencies) -> SyncReport:
    latest = pool.stores.registry.latest_sync_report()
    assert latest is not None
    return SyncReport.from_dict(latest)


def _served(pool: deps.Dependencies, country: str) -> list[PublishedAddress]:
    return served_addresses(pool, country)


def _translated(api: Api, address_id: str, locale: str) -> dict[str, Any]:
    body = {"addressId": address_id, "targetLocale": locale}
    data: dict[str, Any] = api.post("/api/v1/address-translation", body)["data"]
    return data


def test_every_country_is_published_and_street_furniture_is_not(
    pool: deps.Dependencies, report: SyncReport
) -> None:
    published = {c for c, o in report.countries.items() if o.status == "published"}
    assert published == {"BR", "FI", "HK", "VN"}
    # Bus stops and their platforms, subway entrances, a taxi stand, a speed camera.
    assert report.sources["osm-sao_paulo-br"].dropped["not_premises"] == 50
    # Bulevardi 7 copied its number into addr:city on 7 objects: removed, and the address served
    # once, with the city another of its publications gives.
    helsinki = _served(pool, "FI")
    assert not any((a.components.city or "x").isdigit() for a in helsinki)
    bulevardi = [
        a for a in helsinki if (a.components.street, a.components.house_number) == ("Bulevardi", "7")
    ]
    assert [a.components.city for a in bulevardi] == ["Helsinki"]
    served = [a for c in ("BR", "FI", "HK", "VN") for a in _served(pool, c)]
    assert not any("-23.5640658" in (a.components.street or "") for a in served)  # the camera's street


def test_hong_kong_splits_its_two_scripts_and_never_romanizes_them(pool: deps.Dependencies, api: Api) -> None:
    served = _served(pool, "HK")
    nathan = next(a for a in served if a.components.street == "彌敦道" and not a.components.unit)
    assert nathan.names["en"] == {"street": "Nathan Road", "region": "Kowloon"}
    assert (nathan.components.region, nathan.components.region_code, nathan.components.postcode) == (
        "九龍",
        None,
        None,
    )
    assert "region" in nathan.derived  # from Yau Tsim Mong, the district the extract lies in
    assert nathan.formatted.startswith("九龍彌敦道")
    for locale in LATIN:
        translated = _translated(api, nathan.id, locale)["components"]
        assert (translated["street"], translated["region"]) == ("Nathan Road", "Kowloon"), locale
    assert _translated(api, nathan.id, "zh-TW")["components"]["street"] == "彌敦道"
    mody = next(a for a in served if a.components.street == "Mody Road")
    assert mody.formatted.endswith("Mody Road, Kowloon")  # English order for an English street
    flats = [a for a in served if a.components.unit and a.components.unit.endswith("/F")]
    assert len(flats) > 150  # Chungking Mansions' guesthouses: each its own flat


def test_vietnam_keeps_its_diacritics_and_reads_its_look_alike_d(pool: deps.Dependencies, api: Api) -> None:
    served = _served(pool, "VN")
    texts = [t for a in served for t in (a.components.street, a.components.city, a.components.district) if t]
    assert not any("\u00d0" in t for t in texts)  # Ð (eth) became Đ
    assert all(unicodedata.is_normalized("NFC", t) for t in texts)
    hung_dao = next(a for a in served if a.components.street == "Đường Trần Hưng Đạo")
    for locale in LATIN:
        assert _translated(api, hung_dao.id, locale)["components"]["street"] == "Đường Trần Hưng Đạo"
    numbered = [a for a in served if a.components.district == "Quận 5" and "district" in a.derived]
    assert numbered  # addr:district=5
    hanoi = [a for a in served if a.components.region_code == "VN-HN" and "city" in a.derived]
    assert hanoi
    assert {a.components.city for a in hanoi} == {"Hà Nội"}  # a city governed as a province
    share = sum(a.completeness.complete for a in served) / len(served)
    assert share > 0.95  # Google's rules: the street and the city


def test_brazil_takes_its_state_from_the_cep_and_writes_it_as_correios_do(
    pool: deps.Dependencies,
) -> None:
    served = _served(pool, "BR")
    with_cep = [a for a in served if a.components.postcode]
    assert {a.components.region_code for a in with_cep} == {"BR-SP"}
    assert sum("region" in a.derived for a in with_cep) >= len(with_cep) - 2  # 2 publish addr:state
    paulista = next(a for a in with_cep if a.components.street == "Avenida Paulista")
    assert ", São Paulo - SP, " in paulista.formatted
    assert paulista.formatted.startswith(f"Avenida Paulista, {paulista.components.house_number}")


def test_their_profiles_get_no_real_looking_phone(api: Api) -> None:
    for country in ("BR", "FI", "HK", "VN"):
        phone = api.get("/api/v1/generate", country=country, seed="p")["data"]["result"]["profile"]["phone"]
        assert (phone["type"], phone["dialable"]) == ("unassigned", False), country


def test_their_catalogs_find_a_place_by_either_of_its_names(api: Api) -> None:
    """Hong Kong's area is one catalog entry, 九龍, found by its English name too; Vietnam's city
    by its name without diacritics."""
    kowloon = api.get("/api/v1/locations/search", country="HK", field="region", q="Kowloon")["data"]
    assert [r["value"] for r in kowloon["regions"]] == ["九龍"]
    region_id = kowloon["regions"][0]["id"]
    drawn = api.get("/api/v1/generate", country="HK", regionId=region_id, seed="k")["data"]["result"][
        "address"
    ]
    assert drawn["components"]["region"] == "九龍"
    hanoi = api.get("/api/v1/locations/search", country="VN", field="city", q="ha noi")["data"]
    assert "Hà Nội" in [c["value"] for c in hanoi["cities"]]
    children = api.get("/api/v1/locations/hierarchy", country="BR", childType="region", residential="false")[
        "data"
    ]
    assert [r["value"] for r in children["children"]] == ["São Paulo"]
