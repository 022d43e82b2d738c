"""Address translation through the real app on moto, with real pool records."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, api_over, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import TRANSLATION_SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SYNCED = TRANSLATION_SOURCES
LOCALES = ["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]
TRANSLATE = "/api/v1/address-translation"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("translation"), SYNCED) as wired:
        yield wired


def address(api: Api, country: str, **filters: str) -> dict[str, Any]:
    found: dict[str, Any] = api.get("/api/v1/generate", country=country, seed="t", **filters)["data"][
        "result"
    ]["address"]
    return found


def translate(api: Api, address_id: str, locale: str, status: int = 200) -> dict[str, Any]:
    body = api.post(TRANSLATE, {"addressId": address_id, "targetLocale": locale}, status)
    found: dict[str, Any] = body["data"] if status == 200 else body["error"]
    return found


def test_a_japanese_address_in_english_uses_the_published_romaji(api: Api) -> None:
    ja = address(api, "JP", postcode="641-0056")
    en = translate(api, ja["id"], "en")
    assert en["componentSources"]["street"] == "source"
    assert en["components"]["city"] == "Wakayama-shi"
    assert re.fullmatch(r"\d+(-\d+)*", en["components"]["houseNumber"])  # 13番17号 → 13-17
    assert en["lines"][-1] == "Japan"
    assert en["singleLine"].isascii()
    assert en["lines"][-2] == "641-0056"  # the Latin-script format puts the postcode last


@pytest.mark.parametrize(("locale", "prefecture"), [("zh-TW", "和歌山縣"), ("zh-CN", "和歌山县")])
def test_a_japanese_address_in_chinese_converts_the_script(api: Api, locale: str, prefecture: str) -> None:
    ja = address(api, "JP")
    zh = translate(api, ja["id"], locale)
    assert zh["components"]["region"] == prefecture
    assert zh["componentSources"]["region"] in {"converted", "gazetteer"}
    assert zh["lines"][-1] == "日本"
    first = next(line for line in zh["lines"] if not line.startswith("〒"))
    assert first == prefecture  # native order: the postcode, then the prefecture first


def test_a_chinese_address_in_english_is_pinyin_with_street_words(api: Api) -> None:
    cn = address(api, "CN", residential="false")
    en = translate(api, cn["id"], "en")
    assert en["componentSources"]["street"] == "converted"
    assert en["singleLine"].isascii()
    street = en["components"]["street"]
    assert (
        street.endswith(("Road", "Street", "Avenue", "Lane"))
        or cn["components"]["street"][-1] not in "路街道巷"
    )
    number = cn["components"]["houseNumber"]  # 5566号 → 5566, 6号院 → Yard 6 (translation/chinese.py)
    expected = f"Yard {number.removesuffix('号院')}" if number.endswith("号院") else number.rstrip("号")
    assert en["components"]["houseNumber"] == expected
    assert en["lines"][-1] == "China"


def test_a_chinese_address_in_traditional_chinese(api: Api) -> None:
    cn = address(api, "CN", residential="false")
    tw = translate(api, cn["id"], "zh-TW")
    assert tw["components"]["houseNumber"] == cn["components"]["houseNumber"].replace("号", "號")
    assert tw["lines"][-1] == "中國"
    assert "号" not in tw["singleLine"]


@pytest.mark.parametrize(("locale", "country"), [("fr", "Belgique"), ("de", "Belgien")])
def test_a_belgian_address_in_french_and_german(api: Api, locale: str, country: str) -> None:
    be = address(api, "BE")
    found = translate(api, be["id"], locale)
    assert found["lines"][-1] == country
    assert found["components"]["street"] == be["components"]["street"]  # French: the source; no German names
    assert found["componentSources"]["street"] == ("source" if locale == "fr" else "original")
    assert found["lines"][0] == f"{be['components']['street']} {be['components']['houseNumber']}"


def test_a_locale_outside_the_nine_is_400(api: Api) -> None:
    be = address(api, "BE")
    assert translate(api, be["id"], "nl", 400)["code"] == "INVALID_REQUEST"


@pytest.mark.parametrize(("locale", "country"), [("ja", "アメリカ合衆国"), ("ko", "미국")])
def test_a_us_address_in_japanese_and_korean_keeps_the_latin_street(
    api: Api, locale: str, country: str
) -> None:
    us = address(api, "US")
    found = translate(api, us["id"], locale)
    assert found["components"]["street"] == us["components"]["street"]
    assert found["components"]["houseNumber"] == us["components"]["houseNumber"]
    assert found["components"]["country"] == country
    assert found["lines"][-1] == country


@pytest.mark.parametrize("locale", ["en", "de", "fr", "es", "pt"])
def test_a_korean_address_in_latin_locales_is_the_road_name_address_in_english(api: Api, locale: str) -> None:
    kr = address(api, "KR", residential="false", q="광교중앙로49번길")
    found = translate(api, kr["id"], locale)
    number = kr["components"]["houseNumber"]
    assert found["lines"][:3] == [f"{number}, Gwanggyojungang-ro 49beon-gil", "Yeongtong-gu", "Suwon-si"]
    assert ", ".join(found["lines"][:-1]).isascii()  # all but the country (Südkorea)


def test_a_russian_address_in_english_translates_the_street_type_only(api: Api) -> None:
    ru = address(api, "RU", residential="false", q="улица", city="Москва")
    en = translate(api, ru["id"], "en")
    de = translate(api, ru["id"], "de")
    street = ru["components"]["street"]
    assert "улица" in street.split()  # before the name (улица Правды) or after it (Новодмитровская улица)
    assert en["components"]["street"].endswith(" Street")
    assert "ulitsa" in de["components"]["street"].split()
    assert en["singleLine"].isascii()
    assert de["lines"][-1] == "Russland"
    assert en["lines"].count("Moskva") == 1  # the federal city written once


@pytest.mark.parametrize("country", ["JP", "CN", "TW", "BE", "US", "KR", "RU"])
def test_every_locale_answers_with_lines(api: Api, country: str) -> None:
    one = address(api, country, residential="false")
    for locale in LOCALES:
        found = translate(api, one["id"], locale)
        assert found["lines"]
        assert all(line.strip() for line in found["lines"])
        assert {"street", "houseNumber"} <= set(found["components"])
        assert set(found["componentSources"]) <= set(found["components"])
        assert set(found["componentSources"].values()) <= {"source", "gazetteer", "converted", "original"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"addressId": "jp-aaaaaaaaaaaaaaaa", "targetLocale": "en"}, 404, "ADDRESS_NOT_FOUND"),
        ({"addressId": "zz-aaaaaaaaaaaaaaaa", "targetLocale": "en"}, 404, "ADDRESS_NOT_FOUND"),
        ({"addressId": "x", "targetLocale": "it"}, 400, "INVALID_REQUEST"),
        ({"addressId": "x"}, 400, "INVALID_REQUEST"),
        ({"targetLocale": "en"}, 400, "INVALID_REQUEST"),
        ({"addressId": "x", "targetLocale": "en", "extra": 1}, 400, "INVALID_REQUEST"),
        ({"addressId": 5, "targetLocale": "en"}, 400, "INVALID_REQUEST"),
    ],
)
def test_errors(api: Api, body: dict[str, Any], status: int, code: str) -> None:
    assert api.post(TRANSLATE, body, status)["error"]["code"] == code


def test_translation_needs_a_generate_token(pool: deps.Dependencies) -> None:
    with api_over(pool, scope="read") as reader:
        error = reader.post(TRANSLATE, {"addressId": "x", "targetLocale": "en"}, 403)["error"]
    assert error["code"] == "FORBIDDEN"
