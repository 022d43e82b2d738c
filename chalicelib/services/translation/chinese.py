"""Chinese in Latin letters, where the source publishes none: Hanyu Pinyin as the orthography rules
for place names write it (GB/T 16159-2012: the proper name one word, the generic word apart,
an apostrophe before a syllable starting with a, o or e: 西安 → Xi'an).

Readings are resolved by word, never by character: a place name takes its reading from a lexicon
of Chinese place names (data/cn_place_pinyin.json: the county-, prefecture- and province-level
names of CC-CEDICT, so 朝阳区 → Chaoyang, 长宁 → Changning, 蚌山 → Bengshan, 盐都 → Yandu, 闵行 →
Minhang), also where the name is part of a street (长宁路 → Changning Road); other text takes
pypinyin's (MIT) phrase readings. Traditional text is looked up in Simplified form.

A generic word ends a name only where another name of two characters or more follows it and ends
in a generic of its own; otherwise it belongs to the name (中关村大街 → Zhongguancun Street, 双巷子街
→ Shuangxiangzi Street, 官路边 → Guanlubian). In English output only, the words with an
established English rendering follow a fixed table: streets and areas (路 Road, 街/大街 Street,
大道 Avenue, 巷 Lane, 胡同 Hutong, 区 District, 新区 New Area, 县 County, 省 Province; directions 东
East, 西 West, 南 South, 北 North, 中 Middle) and, in units, 号楼/栋 Building, 号院 Yard, 单元
Unit, 层/楼 Floor, 室 Room, 铺位 Shop, 地下 Basement, written before their number (2号楼C-05单元 →
Building 2 Unit C-05), and the other words for a building in a compound: 幢 Building, 座 Block
(3幢第一层101单元 → Building 3 Floor 1 Unit 101: the ordinal 第 dropped, Chinese numerals in
digits); 商铺/店铺/铺 Shop, 首层 Ground Floor. No other word is translated. House numbers drop the
号/號 marker."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib import resources

from chalicelib.services.translation.scripts import convert_han

# Generic words, longest first, with their pinyin (as a separate word) and English rendering.
_GENERICS: dict[str, tuple[str, str | None]] = {
    "特别行政区": ("Tebie Xingzhengqu", None),
    "自治区": ("Zizhiqu", None),
    "自治州": ("Zizhizhou", None),
    "自治县": ("Zizhixian", None),
    "新区": ("Xinqu", "New Area"),
    "新區": ("Xinqu", "New Area"),
    "广场": ("Guangchang", None),
    "廣場": ("Guangchang", None),
    "大道": ("Dadao", "Avenue"),
    "大街": ("Dajie", "Street"),
    "胡同": ("Hutong", "Hutong"),
    "省": ("Sheng", "Province"),
    "市": ("Shi", None),
    "区": ("Qu", "District"),
    "區": ("Qu", "District"),
    "县": ("Xian", "County"),
    "縣": ("Xian", "County"),
    "镇": ("Zhen", None),
    "鎮": ("Zhen", None),
    "乡": ("Xiang", None),
    "鄉": ("Xiang", None),
    "村": ("Cun", None),
    "路": ("Lu", "Road"),
    "街": ("Jie", "Street"),
    "巷": ("Xiang", "Lane"),
    "弄": ("Nong", None),
    "段": ("Duan", None),
}
_DIRECTIONS = {"东": "East", "東": "East", "西": "West", "南": "South", "北": "North", "中": "Middle"}
_NUMBER_MARK = re.compile(r"[号號]$")
_HAN_RUN = re.compile("([\u3400-\u9fff\uf900-\ufaff]+)")
_ADMINISTRATIVE = ("省", "市", "区", "县", "州", "盟", "旗", "镇", "乡")


def pinyin(text: str, english: bool) -> str:
    words: list[str] = []
    start = 0
    for at, generic in _boundaries(text):
        words += _name_words(text[start:at], generic, english)
        syllables, in_english = _GENERICS[generic]
        words.append(in_english if english and in_english else syllables)
        start = at + len(generic)
    words += _name_words(text[start:], "", english)
    return " ".join(w for w in words if w)


def _boundaries(text: str) -> list[tuple[int, str]]:
    """The generic words that end a name, as (position, word), found from the right: one ends a
    name where the text ends or leaves Han there, or where what follows it up to the next such
    word is a name of two characters or more, or a numeral (三段)."""
    found: list[tuple[int, str]] = []
    i = len(text) - 1
    while i > 0:
        generic = next((g for g in _GENERICS if text.startswith(g, i - len(g) + 1)), None)
        at = i - len(generic) + 1 if generic else 0
        if generic is None or at == 0:
            i -= 1
            continue
        end = at + len(generic)
        follower = text[end : found[0][0]] if found else ""
        ends_a_name = not (end < len(text) and _HAN_RUN.match(text[end])) or (
            bool(follower) and (len(follower) >= 2 or follower in _CHINESE_DIGITS)
        )
        if ends_a_name:
            found.insert(0, (at, generic))
        i = at - 1 if ends_a_name else i - 1
    return found


def _name_words(run: str, generic: str, english: bool) -> list[str]:
    if not run:
        return []
    direction = run[-1] if len(run) > 2 and run[-1] in _DIRECTIONS else None
    name = run[:-1] if direction else run
    words = [name_in_pinyin(name, "" if direction else generic)]
    if direction:
        words.append(_DIRECTIONS[direction] if english else name_in_pinyin(direction, ""))
    return words


def name_in_pinyin(text: str, generic: str = "") -> str:
    """One word per run of Han characters, apart from the digits and Latin text around it."""
    parts = _HAN_RUN.split(unicodedata.normalize("NFKC", text))  # odd indexes: the Han runs
    last = len(parts) - 2  # the run next to the generic word
    words = [
        _word(_readings(p, generic if i == last else "")) if i % 2 else p.strip() for i, p in enumerate(parts)
    ]
    joined = " ".join(w for w in words if w)
    return joined[:1].upper() + joined[1:]


def _readings(name: str, generic: str) -> list[str]:
    simplified = convert_han(name + generic, "Hant", "Hans") or name + generic
    places, stems = _place_names()
    known = places.get(simplified) or stems.get(simplified[: len(name)])
    if known and len(known) >= len(name):
        return known[: len(name)]
    from pypinyin import lazy_pinyin  # lazy: 0.2 s to import, only Chinese-to-Latin needs it

    return list(lazy_pinyin(name))


def _word(syllables: list[str]) -> str:
    """Syllables as one word, an apostrophe where one starting with a, o or e would run on."""
    word = ""
    for syllable in syllables:
        word += ("'" if word and syllable[:1] in "aoe" and word[-1].isalpha() else "") + syllable
    return word


@cache
def _place_names() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Place names with their readings, and each name's stem without its generic word (长宁 of
    长宁区) where every place with that stem reads it alike."""
    text = resources.files("chalicelib.reference").joinpath("data/cn_place_pinyin.json").read_text("utf-8")
    places = {name: reading.split() for name, reading in json.loads(text)["names"].items()}
    stems: dict[str, list[str]] = {}
    ambiguous: set[str] = set()
    for name, reading in places.items():
        stem = name[:-1]
        known = len(stem) >= 2 and name.endswith(_ADMINISTRATIVE)
        if known and stems.setdefault(stem, reading[:-1]) != reading[:-1]:
            ambiguous.add(stem)
    return places, {stem: r for stem, r in stems.items() if stem not in ambiguous}


# Unit words with an established English rendering, written before their number in English.
_UNIT_WORDS = {
    "号楼": "Building",
    "號樓": "Building",
    "号院": "Yard",
    "號院": "Yard",
    "栋": "Building",
    "棟": "Building",
    "幢": "Building",
    "座": "Block",
    "单元": "Unit",
    "單元": "Unit",
    "铺位": "Shop",
    "鋪位": "Shop",
    "商铺": "Shop",
    "商鋪": "Shop",
    "店铺": "Shop",
    "店鋪": "Shop",
    "铺": "Shop",
    "鋪": "Shop",
    "首层": "Ground Floor",
    "首層": "Ground Floor",
    "层": "Floor",
    "層": "Floor",
    "楼": "Floor",
    "樓": "Floor",
    "室": "Room",
    "地下": "Basement",
}
_CHINESE_DIGITS = {d: i for i, d in enumerate("一二三四五六七八九", start=1)}
# 甲, 乙, 丙, 丁 before a number: the first, second... address at one number (甲79号 → Jia 79).
_STEMS = {"甲": "Jia", "乙": "Yi", "丙": "Bing", "丁": "Ding"}
_UNIT_PART = re.compile(
    r"(?P<stem>[甲乙丙丁])?第?(?P<number>[0-9A-Za-z一二三四五六七八九十]+(?:-[0-9A-Za-z]+)*)?号??(?P<word>"
    + "|".join(sorted(_UNIT_WORDS, key=len, reverse=True))
    + ")"
)


def chinese_unit(text: str, english: bool) -> str:
    """2号楼C-05单元 → Building 2 Unit C-05 in English; elsewhere pinyin like any other text."""
    normalized = unicodedata.normalize("NFKC", text)
    if not english:
        return pinyin(normalized, english)
    words: list[str] = []
    end = 0
    for match in _UNIT_PART.finditer(normalized):
        if rest := normalized[end : match.start()]:
            words.append(pinyin(rest, english))
        number = _chinese_numeral(match["number"] or "")
        stem = _STEMS.get(match["stem"] or "", "")
        words.append(" ".join(w for w in (_UNIT_WORDS[match["word"]], stem, number) if w))
        end = match.end()
    if rest := normalized[end:]:
        words.append(pinyin(rest, english))
    return " ".join(words)


def _chinese_numeral(text: str) -> str:
    """一 → 1, 十二 → 12, 二十 → 20 (a floor or unit below 100); any other text as written."""
    tens, ten, ones = text.partition("十")
    if not ten:
        return str(_CHINESE_DIGITS[text]) if len(text) == 1 and text in _CHINESE_DIGITS else text
    if len(tens) > 1 or len(ones) > 1 or not all(d in _CHINESE_DIGITS for d in tens + ones):
        return text
    return str(_CHINESE_DIGITS.get(tens, 1) * 10 + _CHINESE_DIGITS.get(ones, 0))


def chinese_house_number(text: str, english: bool) -> str:
    """5566号 → 5566, 甲79号 → Jia 79, 6号院 → Yard 6 (English) or 6 haoyuan."""
    number = _NUMBER_MARK.sub("", unicodedata.normalize("NFKC", text))
    if not _HAN_RUN.search(number):
        return number
    stem = _STEMS.get(number[:1])
    if stem and not _HAN_RUN.search(number[1:]):
        return f"{stem} {number[1:]}"
    return chinese_unit(text, english)
