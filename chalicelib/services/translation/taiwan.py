"""Taiwanese addresses in Latin letters as Chunghwa Post writes them in English (its address
translation service and international mail guidance): names in Hanyu Pinyin (chinese.py), the
address words abbreviated (路 Rd., 街 St., 大道 Blvd., 段 Sec., 巷 Ln., 弄 Aly., 號 No., 樓 F.,
directions 東 E., 西 W., 南 S., 北 N.), 之 as a hyphen (1之30號 → No. 1-30, 四樓之5 → 4F.-5), a
numeral before the road word as an ordinal (市港五路 → Shigang 5th Rd.), villages (里/村) Vil.,
townships (鎮/鄉) Township, districts (區) Dist., counties (縣) County, cities (市) City, and the
smallest part first: 4F.-5, No. 163, Shigang 5th Rd., Xinhu Vil., Jinhu Township, Kinmen County.

The same forms serve every Latin-script locale: they are the ones the post office reads. A
street the pattern does not fit (官路邊, a place name) is one pinyin name."""

from __future__ import annotations

import re
import unicodedata

from chalicelib.services.translation.chinese import name_in_pinyin

_NUMERALS = dict(zip("一二三四五六七八九十", range(1, 11), strict=True))
_DIRECTIONS = {"東": "E.", "西": "W.", "南": "S.", "北": "N.", "东": "E."}
_ROAD_WORDS = {"大道": "Blvd.", "路": "Rd.", "街": "St."}
_AREA_WORDS = {
    "里": "Vil.",
    "村": "Vil.",
    "鎮": "Township",
    "鄉": "Township",
    "区": "Dist.",
    "區": "Dist.",
    "縣": "County",
    "市": "City",
}
_STREET = re.compile(
    r"^(?P<road>.+?(?:大道|路|街))"
    r"(?:(?P<section>[一二三四五六七八九十]+|[\u3400-\u9fff]{1,3}?)段)?"
    r"(?:(?P<lane>\d+)巷)?(?:(?P<alley>\d+)弄)?$"
)
_ROAD = re.compile(
    r"^(?P<name>.+?)(?P<numeral>[一二三四五六七八九十])?(?P<direction>[東西南北东])?(?P<word>大道|路|街)$"
)
_FLOOR = re.compile(r"(?:(?P<basement>地下)?(?P<floor>[一二三四五六七八九十]+|\d+)[樓楼層层])")


def street(text: str) -> str:
    """民族路210巷5弄 → Aly. 5, Ln. 210, Minzu Rd.; 環島北路一段 → Sec. 1, Huandao N. Rd."""
    parts = _STREET.match(unicodedata.normalize("NFKC", text))
    if parts is None:
        return name_in_pinyin(text)
    section = parts["section"]
    words = [
        f"Aly. {parts['alley']}" if parts["alley"] else None,
        f"Ln. {parts['lane']}" if parts["lane"] else None,
        _section(section) if section else None,
        _road(parts["road"]),
    ]
    return ", ".join(w for w in words if w)


def _section(section: str) -> str:
    number = _number(section)
    return f"Sec. {number}" if number else f"{name_in_pinyin(section)} Sec."


def _road(road: str) -> str:
    parts = _ROAD.match(road)
    if parts is None:
        return name_in_pinyin(road)
    words = [name_in_pinyin(parts["name"])]
    if parts["numeral"]:
        words.append(_ordinal(_NUMERALS[parts["numeral"]]))
    if parts["direction"]:
        words.append(_DIRECTIONS[parts["direction"]])
    words.append(_ROAD_WORDS[parts["word"]])
    return " ".join(words)


def house_number(text: str) -> str:
    """250之1號 → No. 250-1, 9號之9 → No. 9-9, 9號地下一層 → B1, No. 9."""
    normalized = unicodedata.normalize("NFKC", text)
    floor = _FLOOR.search(normalized)
    number = normalized[: floor.start()] if floor else normalized
    number = re.sub(r"[號号]", "", number).replace("之", "-").strip("-")
    words = [_floor(floor) if floor else None, f"No. {number}" if number else None]
    return ", ".join(w for w in words if w)


def unit(text: str) -> str:
    """四樓之5 → 4F.-5, 七樓 → 7F., 地下一層 → B1."""
    normalized = unicodedata.normalize("NFKC", text)
    floor = _FLOOR.search(normalized)
    if floor is None:
        return name_in_pinyin(normalized)
    rest = (normalized[: floor.start()] + normalized[floor.end() :]).replace("之", "-")
    return _floor(floor) + rest


def area(text: str) -> str:
    """北門里 → Beimen Vil., 金城鎮 → Jincheng Township, 金門縣 → Jinmen County."""
    word = _AREA_WORDS.get(text[-1:]) if len(text) > 1 else None
    return f"{name_in_pinyin(text[:-1], text[-1])} {word}" if word else name_in_pinyin(text)


def county(official: str, native: str) -> str:
    """The gazetteer's county or city name with its word, as the post writes it (Kinmen County)."""
    word = _AREA_WORDS.get(native[-1:]) if native.endswith(("縣", "市")) else None
    return f"{official} {word}" if word and not official.endswith(word) else official


def _floor(floor: re.Match[str]) -> str:
    number = _number(floor["floor"]) or floor["floor"]
    return f"B{number}" if floor["basement"] else f"{number}F."


def _number(text: str) -> int | None:
    """A Chinese numeral up to 99 (十一 → 11), or None."""
    if text.isdigit():
        return int(text)
    if not text or any(ch not in _NUMERALS for ch in text):
        return None
    if "十" not in text:
        return _NUMERALS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    return (_NUMERALS.get(tens, 1) if tens else 1) * 10 + (_NUMERALS.get(ones, 0) if ones else 0)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
