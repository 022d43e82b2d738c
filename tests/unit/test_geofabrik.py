"""Which OSM extract serves a country, read off a real copy of Geofabrik's index (2022-03-17, in
../shared/sources/geofabrik), quirks included: codes listed on other territories' extracts,
extracts shared by two countries, a country inside an extract that does not list it."""

from __future__ import annotations

import pycountry
import pytest

from chalicelib.sources.geofabrik import Extract, NoExtract, extracts_for, parse_index
from tests.support.factories import SOURCES, needs_sources

pytestmark = needs_sources

NAMES = {c.alpha_2: c.name for c in pycountry.countries}


@pytest.fixture(scope="module")
def index() -> list[Extract]:
    return parse_index((SOURCES / "geofabrik" / "index-v1-nogeom.json").read_text(encoding="utf-8"))


def test_a_country_s_own_extract_is_found_with_its_download_and_updates(index: list[Extract]) -> None:
    found, missing = extracts_for(index, ["AD", "TW", "US", "DE"], NAMES)
    assert missing == []
    assert found["AD"].pbf == "https://download.geofabrik.de/europe/andorra-latest.osm.pbf"
    assert found["AD"].updates == "https://download.geofabrik.de/europe/andorra-updates"
    assert {c: e.id for c, e in found.items()} == {
        "AD": "andorra",
        "TW": "taiwan",
        "US": "us",
        "DE": "germany",
    }


def test_a_code_listed_on_other_territories_extracts_takes_the_one_named_like_the_country(
    index: list[Extract],
) -> None:
    assert len([e for e in index if "VU" in e.countries]) == 6  # the index's own error
    found, missing = extracts_for(index, ["VU", "MH"], NAMES)
    assert missing == []
    assert {c: e.id for c, e in found.items()} == {"VU": "vanuatu", "MH": "marshall-islands"}


def test_shared_extracts_and_countries_no_extract_lists_are_reported_not_guessed(
    index: list[Extract],
) -> None:
    found, missing = extracts_for(index, ["IL", "PS", "SN", "GM", "SG"], NAMES)
    assert found == {}
    reasons = {m.country: m.reason for m in missing}
    assert (
        reasons["IL"]
        == reasons["PS"]
        == "only in extracts shared with other countries (israel-and-palestine)"
    )
    assert reasons["SN"] == "only in extracts shared with other countries (senegal-and-gambia)"
    assert reasons["SG"] == "no extract lists it"  # it is inside malaysia-singapore-brunei, listed MY
    assert all(isinstance(m, NoExtract) for m in missing)


def test_every_extract_with_a_download_is_read(index: list[Extract]) -> None:
    assert len(index) == 474
    assert all(e.pbf.startswith("https://download.geofabrik.de/") for e in index)
    covered, _ = extracts_for(index, NAMES, NAMES)
    assert len(covered) > 170  # most of the world has an extract of its own
