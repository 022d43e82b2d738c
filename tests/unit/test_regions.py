from __future__ import annotations

import pytest

from chalicelib.reference.regions import display_name, gazetteer, us_zip


@pytest.mark.parametrize(
    ("country", "text", "code", "derived"),
    [
        ("JP", "東京都", "JP-13", False),
        ("JP", "和歌山県", "JP-30", False),
        ("JP", "Wakayama", "JP-30", False),
        ("CN", "北京市", "CN-BJ", False),
        ("CN", "内蒙古自治区", "CN-NM", False),
        ("CN", "宁夏回族自治区", "CN-NX", False),
        ("TW", "金門縣", "TW-KIN", False),
        ("TW", "嘉義市", "TW-CYI", False),
        ("TW", "嘉義縣", "TW-CYQ", False),
        ("PL", "dolnośląskie", "PL-02", False),
        ("US", "CA", "US-CA", False),
        ("US", "California", "US-CA", False),
        ("US", "us-oh", "US-OH", False),
        ("IT", "Toscana", "IT-52", False),
        ("NL", "Friesland", "NL-FR", False),
        ("GB", "London", "GB-ENG", True),  # an English region: inside England, not an ISO unit
        ("GB", "Yorkshire and the Humber", "GB-ENG", True),
    ],
)
def test_region_text_resolves_to_first_level_iso_codes(
    country: str, text: str, code: str, derived: bool
) -> None:
    resolved = gazetteer(country).resolve(text)
    assert resolved is not None
    assert (resolved.region.code, resolved.derived) == (code, derived)


@pytest.mark.parametrize(("country", "text"), [("US", "Atlantis"), ("JP", ""), ("GB", "Narnia")])
def test_unknown_region_text_is_not_guessed(country: str, text: str) -> None:
    assert gazetteer(country).resolve(text) is None


def test_lower_level_units_roll_up_to_their_first_level_ancestor() -> None:
    resolved = gazetteer("FR").resolve("Paris")
    assert resolved is not None
    assert resolved.region.code == "FR-IDF"
    assert resolved.derived


def test_communes_as_first_level_units_come_from_the_city() -> None:
    region = gazetteer("LI").first_level_for_city("Vaduz")
    assert region is not None
    assert region.code == "LI-11"
    assert gazetteer("US").first_level_for_city("Springfield") is None


def test_us_zip_gives_state_and_only_an_unambiguous_city() -> None:
    place = us_zip("94103")
    assert place is not None
    assert (place.state, place.city) == ("US-CA", "San Francisco")
    assert us_zip("00000") is None
    assert us_zip("abcde") is None


def test_inverted_iso_names_read_naturally() -> None:
    assert display_name("Bruxelles-Capitale, Région de") == "Région de Bruxelles-Capitale"
    assert display_name("Bayern") == "Bayern"


@pytest.mark.parametrize(
    ("country", "code", "name"),
    [
        ("SE", "SE-AB", "Stockholms län"),  # ISO: "Stockholms län [SE-01]", its former code
        ("GB", "GB-AGY", "Isle of Anglesey"),  # ISO: "... [Sir Ynys Môn GB-YNM]"
        ("ES", "ES-C", "A Coruña"),  # ISO: "A Coruña [La Coruña]"
    ],
)
def test_iso_s_bracketed_notes_are_not_part_of_the_served_name(country: str, code: str, name: str) -> None:
    region = gazetteer(country).by_code(code)
    assert region is not None
    assert region.name == name
    assert all("[" not in r.name for r in gazetteer(country).first_level)


@pytest.mark.parametrize(
    ("country", "text", "code"),
    [("SE", "Stockholms län", "SE-AB"), ("GB", "Sir Ynys Môn", "GB-WLS"), ("ES", "La Coruña", "ES-GA")],
)
def test_the_name_in_an_iso_note_resolves_too(country: str, text: str, code: str) -> None:
    resolved = gazetteer(country).resolve(text)
    assert resolved is not None
    assert resolved.region.code == code


@pytest.mark.parametrize(
    ("country", "code", "native"),
    [
        ("KR", "KR-41", "경기도"),  # ISO's own name is the romanization Gyeonggi-do
        ("RU", "RU-MOW", "Москва"),
        ("CN", "CN-BJ", "北京市"),
        ("TW", "TW-KIN", "金門縣"),
        ("TW", "TW-TPE", "臺北市"),  # the official form, not the common 台北市
        ("DE", "DE-BY", "Bayern"),  # Latin-script countries keep ISO's name
    ],
)
def test_a_region_is_named_in_the_country_s_own_language_and_script(
    country: str, code: str, native: str
) -> None:
    region = gazetteer(country).by_code(code)
    assert region is not None
    assert region.name == native


def test_provinces_are_second_level_units_within_their_region() -> None:
    italy = gazetteer("IT")
    assert italy.province("Roma") == italy.province_by_code("IT-RM")
    assert italy.province_by_code("IT-62") is None  # Lazio is a region, not a province
    assert italy.top_level("IT-RM") == "IT-62"
