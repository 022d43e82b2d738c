"""The rules translation applies: romanization, script conversion, gazetteer names, layouts."""

from __future__ import annotations

import pytest

from chalicelib.domain.addresses import Components, MatchLevel, PropertyType, Provenance, PublishedAddress
from chalicelib.reference import japan_post
from chalicelib.services.translation import gazetteer, romanize
from chalicelib.services.translation.locales import LOCALES, speaks
from chalicelib.services.translation.scripts import convert_han, is_latin
from chalicelib.services.translation.service import translate


@pytest.mark.parametrize(
    ("text", "english", "latin"),
    [
        ("徽州大道", True, "Huizhou Avenue"),
        ("徽州大道", False, "Huizhou Dadao"),
        ("解放东路", True, "Jiefang East Road"),
        ("解放东路", False, "Jiefang Dong Lu"),
        ("包河区", True, "Baohe District"),
        ("合肥市", True, "Hefei Shi"),  # no established English word for 市: pinyin
        ("西海路三段106巷12弄", True, "Xihai Road San Duan 106 Lane 12 Nong"),
        ("金門縣", True, "Jinmen County"),  # Traditional characters too
        ("中关村大街", True, "Zhongguancun Street"),  # 村 inside a name that has its own generic
        ("中关村大街", False, "Zhongguancun Dajie"),
        ("中关村东路", True, "Zhongguancun East Road"),
        ("荣市街", True, "Rongshi Street"),
        ("广东省深圳市", True, "Guangdong Province Shenzhen Shi"),
        ("南竹杆胡同", True, "Nanzhugan Hutong"),
    ],
)
def test_pinyin_keeps_names_and_renders_only_tabled_words(text: str, english: bool, latin: str) -> None:
    assert romanize.pinyin(text, english) == latin


@pytest.mark.parametrize(
    ("kanji", "kana", "latin"),
    [
        ("文京区", "ブンキョウク", "Bunkyo-ku"),
        ("和歌山市", "ワカヤマシ", "Wakayama-shi"),
        ("東京都", "トウキョウト", "Tokyo-to"),
        ("今福１丁目", "イマブク１チョウメ", "Imabuku 1-chome"),
        ("秋葉町", "アキバチョウ", "Akiba-cho"),
        ("本駒込", "ほんこまごめ", "Honkomagome"),  # hiragana readings too
        ("x", "ギッチョウ", "Gitcho"),  # sokuon before ch
        ("x", "シャチョウ", "Shacho"),  # yoon after sh
    ],
)
def test_hepburn_from_kana(kanji: str, kana: str, latin: str) -> None:
    assert romanize.hepburn(kanji, kana) == latin


@pytest.mark.parametrize(
    ("text", "latin"), [("1番1号", "1-1"), ("13番17号", "13-17"), ("5番地", "5"), ("３－１２", "3-12")]
)
def test_japanese_house_numbers(text: str, latin: str) -> None:
    assert romanize.japanese_house_number(text) == latin


@pytest.mark.parametrize(
    ("text", "english", "latin"),
    [
        ("2号楼C-05单元", True, "Building 2 Unit C-05"),
        ("一层1052单元", True, "Floor 1 Unit 1052"),
        ("101室", True, "Room 101"),
        ("B1铺位", True, "Shop B1"),
        ("地下1层", True, "Basement Floor 1"),
        ("1层1F06", True, "Floor 1 1F06"),
        ("2号楼C-05单元", False, "2 haolou C-05 danyuan"),  # the table is English-only
    ],
)
def test_chinese_unit_words_follow_the_table_in_english(text: str, english: bool, latin: str) -> None:
    assert romanize.chinese_unit(text, english) == latin


def test_chinese_house_numbers_drop_the_marker() -> None:
    assert (romanize.chinese_house_number("5566号"), romanize.chinese_house_number("19號")) == ("5566", "19")


@pytest.mark.parametrize(
    ("text", "source", "target", "converted"),
    [
        ("安徽省合肥市包河区", "Hans", "Hant", "安徽省合肥市包河區"),
        ("金門縣金城鎮", "Hant", "Hans", "金门县金城镇"),
        ("和歌山県", "Jpan", "Hant", "和歌山縣"),
        ("和歌山県", "Jpan", "Hans", "和歌山县"),
        ("金門縣", "Hant", "Jpan", "金門県"),
        ("Main St", "Hans", "Hant", None),  # nothing to convert
        ("和歌山県", "Jpan", "Kore", None),  # no Han-to-Hangul conversion
    ],
)
def test_han_script_conversion(text: str, source: str, target: str, converted: str | None) -> None:
    assert convert_han(text, source, target) == converted


def test_which_country_languages_a_locale_speaks() -> None:
    assert speaks("zh-Hans", LOCALES["zh-CN"])
    assert not speaks("zh-Hans", LOCALES["zh-TW"])
    assert speaks("ja", LOCALES["ja"])
    assert speaks("fr", LOCALES["fr"])
    assert not speaks("nl", LOCALES["de"])


@pytest.mark.parametrize(
    ("code", "locale", "name"),
    [
        ("US-CA", "ja", "カリフォルニア"),
        ("PL-02", "de", "Niederschlesien"),
        ("JP-30", "en", "Wakayama"),  # the ISO name, Latin, for Latin output
        ("CN-AH", "zh-CN", "安徽省"),
        ("CN-AH", "ko", None),  # no Korean translation, and a Latin ISO name is no Korean name
        ("BE-BRU", "en", "Région de Bruxelles-Capitale"),  # ISO lists it inverted
    ],
)
def test_region_names_from_iso_3166_2(code: str, locale: str, name: str | None) -> None:
    assert gazetteer.region_name(code, LOCALES[locale]) == name


def test_country_names_from_cldr() -> None:
    assert [gazetteer.country_name("BE", LOCALES[t]) for t in ("de", "ja", "ko")] == [
        "Belgien",
        "ベルギー",
        "벨기에",
    ]


def test_latin_detection_ignores_digits_and_punctuation() -> None:
    assert is_latin("Rue Haute 369, 1000")
    assert not is_latin("千石1")


# A real published address (Bunkyo, Tokyo, OpenAddresses ABR): its source gives no street reading.
SENGOKU = PublishedAddress(
    id="jp-azkvjutr6xpjp7ei",
    country="JP",
    match_level=MatchLevel.HOUSE_NUMBER,
    property_type=PropertyType.UNKNOWN,
    components=Components(
        street="千石１丁目", house_number="1番1号", city="文京区", region="東京都", region_code="JP-13"
    ),
    formatted="東京都文京区千石１丁目1番1号",
    lon=139.7447889,
    lat=35.7232976,
    provenance=Provenance("jp-bunkyo_ku-abr-ja", "CC-BY-4.0", "test"),
    readings={"region_kana": "トウキョウト", "city_kana": "ブンキョウク"},
)


def test_japan_post_readings_fill_in_for_a_street_without_one() -> None:
    assert japan_post.street_kana("東京都", "文京区", "千石１丁目") == "センゴク1チョウメ"
    assert japan_post.street_kana("東京都", "文京区", "存在しない町") is None
    english = translate(SENGOKU, "en", "ja")
    assert english.components["street"] == "Sengoku 1-chome"
    assert english.sources["street"] == "converted"
    assert english.lines == ["1-1 Sengoku 1-chome, Bunkyo-ku, Tokyo", "Japan"]


def test_native_layout_for_japanese_output_and_latin_for_english() -> None:
    japanese = translate(SENGOKU, "ja", "ja")
    assert japanese.lines == ["東京都", "文京区千石１丁目1番1号", "日本"]
    assert set(japanese.sources.values()) == {"source", "gazetteer"}  # gazetteer: the country name


# A real published address (Beijing, Starbucks store locator 2017) with a unit.
BEISANHUAN = PublishedAddress(
    id="cn-3nkruutsx37yyori",
    country="CN",
    match_level=MatchLevel.HOUSE_NUMBER,
    property_type=PropertyType.COMMERCIAL,
    components=Components(
        street="北三环东路",
        house_number="36号",
        unit="2号楼C-05单元",
        district="东城区",
        city="北京市",
        region="北京市",
        region_code="CN-BJ",
    ),
    formatted="北京市东城区北三环东路36号2号楼C-05单元",
    lon=116.41,
    lat=39.97,
    provenance=Provenance("cn-countrywide-starbucks", "none", "test"),
)


def test_chinese_units_in_english_use_the_unit_words_and_pinyin_elsewhere() -> None:
    english = translate(BEISANHUAN, "en", "zh")
    assert english.components["unit"] == "Building 2 Unit C-05"
    assert english.components["street"] == "Beisanhuan East Road"
    assert english.sources["unit"] == "converted"
    assert translate(BEISANHUAN, "de", "zh").components["unit"] == "2 haolou C-05 danyuan"
