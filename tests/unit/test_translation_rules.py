"""The rules translation applies: romanization, script conversion, gazetteer names, layouts."""

from __future__ import annotations

import pytest

from chalicelib.domain.addresses import Components, MatchLevel, PropertyType, Provenance, PublishedAddress
from chalicelib.reference import japan_post
from chalicelib.services.translation import chinese, cyrillic, gazetteer, japanese, korean, taiwan
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
    assert chinese.pinyin(text, english) == latin


@pytest.mark.parametrize(
    ("text", "latin"),
    [
        ("朝阳区", "Chaoyang District"),  # polyphones read by word, from the place-name lexicon
        ("长宁区", "Changning District"),
        ("蚌山区", "Bengshan District"),
        ("盐都区", "Yandu District"),
        ("闵行区", "Minhang District"),
        ("长宁路", "Changning Road"),  # a place's name inside a street keeps the place's reading
        ("浦东新区", "Pudong New Area"),
        ("西安市", "Xi'an Shi"),  # the apostrophe before a syllable starting with a, o or e
        ("静安区", "Jing'an District"),
        ("三峡广场双巷子街", "Sanxia Guangchang Shuangxiangzi Street"),  # 巷子 is inside a name
        ("官路邊", "Guanlubian"),  # a place name, no road in it
    ],
)
def test_chinese_place_names_read_as_words(text: str, latin: str) -> None:
    assert chinese.pinyin(text, english=True) == latin


@pytest.mark.parametrize(
    ("text", "latin"),
    [
        ("광교중앙로49번길", "Gwanggyojungang-ro 49beon-gil"),
        ("중부대로239번길", "Jungbu-daero 239beon-gil"),
        ("세종대로23길", "Sejong-daero 23-gil"),
        ("종로", "Jong-ro"),  # no sound change across the generic's hyphen
        ("독립문로", "Dongnimmun-ro"),  # nasalization
        ("왕십리로", "Wangsimni-ro"),
        ("선릉로", "Seolleung-ro"),  # ㄹ after ㄴ
        ("수원시", "Suwon-si"),
        ("영통구", "Yeongtong-gu"),
        ("서울특별시", "Seoul-teukbyeolsi"),
        ("한국어", "Hangugeo"),  # liaison
        ("같이", "Gachi"),  # palatalization
        ("묵호", "Mukho"),  # aspiration kept apart in nouns
        ("신라", "Silla"),
    ],
)
def test_korean_in_the_revised_romanization(text: str, latin: str) -> None:
    assert korean.romanize(text) == latin


@pytest.mark.parametrize(
    ("text", "english", "latin"),
    [
        ("улица Покровка", True, "Pokrovka Street"),
        ("Мясницкая улица", True, "Myasnitskaya Street"),
        ("Большой Харитоньевский переулок", True, "Bol'shoy Kharitonyevskiy Lane"),
        ("Щёлковское шоссе", True, "Shchelkovskoye Highway"),
        ("улица Покровка", False, "ulitsa Pokrovka"),  # other locales keep the standard's word
        ("25А к1", False, "25A k1"),  # noqa: RUF001 (a Cyrillic letter)
        ("Москва", False, "Moskva"),
    ],
)
def test_russian_in_gost_52290(text: str, english: bool, latin: str) -> None:
    assert cyrillic.romanize(text, english) == latin


def test_taiwan_in_chunghwa_post_english() -> None:
    assert taiwan.street("民族路210巷5弄") == "Aly. 5, Ln. 210, Minzu Rd."
    assert taiwan.street("環島北路一段") == "Sec. 1, Huandao N. Rd."
    assert taiwan.street("市港五路") == "Shigang 5th Rd."
    assert taiwan.street("官路邊") == "Guanlubian"
    assert [taiwan.house_number(n) for n in ("1之30號", "9號之9", "9號地下一層")] == [
        "No. 1-30",
        "No. 9-9",
        "B1, No. 9",
    ]
    assert [taiwan.unit(u) for u in ("四樓之5", "七樓", "十一樓之2")] == ["4F.-5", "7F.", "11F.-2"]
    assert [taiwan.area(a) for a in ("北門里", "金城鎮", "金寧鄉")] == [
        "Beimen Vil.",
        "Jincheng Township",
        "Jinning Township",
    ]


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
    assert japanese.hepburn(kanji, kana) == latin


@pytest.mark.parametrize(
    ("text", "latin"), [("1番1号", "1-1"), ("13番17号", "13-17"), ("5番地", "5"), ("３－１２", "3-12")]
)
def test_japanese_house_numbers(text: str, latin: str) -> None:
    assert japanese.japanese_house_number(text) == latin


@pytest.mark.parametrize(
    ("text", "english", "latin"),
    [
        ("2号楼C-05单元", True, "Building 2 Unit C-05"),
        ("一层1052单元", True, "Floor 1 Unit 1052"),
        ("101室", True, "Room 101"),
        ("B1铺位", True, "Shop B1"),
        ("地下1层", True, "Basement Floor 1"),
        ("1层1F06", True, "Floor 1 1F06"),
        ("3幢第一层101单元", True, "Building 3 Floor 1 Unit 101"),  # 幢 a building, 第 an ordinal
        ("B座一层04单元", True, "Block B Floor 1 Unit 04"),
        ("1号楼A座首层02单元", True, "Building 1 Block A Ground Floor Unit 02"),
        ("二十三层", True, "Floor 23"),
        ("1层31号铺", True, "Floor 1 Shop 31"),
        ("2号楼C-05单元", False, "2 haolou C-05 danyuan"),  # the table is English-only
    ],
)
def test_chinese_unit_words_follow_the_table_in_english(text: str, english: bool, latin: str) -> None:
    assert chinese.chinese_unit(text, english) == latin


def test_chinese_house_numbers_drop_the_marker() -> None:
    numbers = ["5566号", "19號", "甲79号", "6号院"]
    assert [chinese.chinese_house_number(n, english=True) for n in numbers] == [
        "5566",
        "19",
        "Jia 79",
        "Yard 6",
    ]


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


def _published(country: str, source: str, **components: str) -> PublishedAddress:
    return PublishedAddress(
        id=f"{country.lower()}-test",
        country=country,
        match_level=MatchLevel.HOUSE_NUMBER,
        property_type=PropertyType.UNKNOWN,
        components=Components(**components),
        formatted="",
        lon=0.0,
        lat=0.0,
        provenance=Provenance(source, "ODbL-1.0", "test"),
    )


# Real published addresses: Suwon (OSM), Moscow (OSM), Shanghai (Starbucks), Kinmen (door plates).
SUWON = _published(
    "KR",
    "osm-suwon-kr",
    street="광교중앙로49번길",
    house_number="46",
    district="영통구",
    city="수원시",
    region="경기도",
    region_code="KR-41",
    postcode="16500",
)
MOSCOW = _published(
    "RU",
    "osm-moscow_centre-ru",
    street="улица Макаренко",
    house_number="1/19",
    city="Москва",
    region="Москва",
    region_code="RU-MOW",
    postcode="105062",
)
SHANGHAI = _published(
    "CN",
    "cn-countrywide-starbucks",
    street="世纪大道",
    house_number="1589号",
    district="浦东新区",
    city="上海市",
    region="上海市",
    region_code="CN-SH",
)
KINMEN = _published(
    "TW",
    "tw-kinmen-doorplates-zh",
    street="市港五路",
    house_number="163號",
    unit="四樓之5",
    district="新湖里",
    city="金湖鎮",
    region="金門縣",
    region_code="TW-KIN",
    postcode="891",
)


@pytest.mark.parametrize(
    ("address", "primary", "line"),
    [
        (
            SUWON,
            "ko",
            "46, Gwanggyojungang-ro 49beon-gil, Yeongtong-gu, Suwon-si, Gyeonggi-do, 16500, South Korea",
        ),
        (MOSCOW, "ru", "Makarenko Street 1/19, Moskva, 105062, Russia"),  # the federal city once
        (
            SHANGHAI,
            "zh-Hans",
            "1589 Shiji Avenue, Pudong New Area, Shanghai Shi, China",
        ),  # the municipality once
        (
            KINMEN,
            "zh-Hant",
            "4F.-5, No. 163, Shigang 5th Rd., Xinhu Vil., Jinhu Township, Kinmen County 891, Taiwan",
        ),
    ],
)
def test_english_lines_in_each_script_s_standard(address: PublishedAddress, primary: str, line: str) -> None:
    assert translate(address, "en", primary).single_line == line
