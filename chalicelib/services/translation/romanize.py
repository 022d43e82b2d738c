"""Latin renderings of Chinese and Japanese address text, where the source publishes none.

Chinese: Hanyu Pinyin (pypinyin, MIT) without tones, one word per proper name, generic words
apart (合肥市 → Hefei Shi). A generic word ends a name only where no other generic follows it at
once, so it stays inside a name that has its own (中关村大街 → Zhongguancun Street, 荣市街 → Rongshi
Street). In English output only, the words with an established English rendering follow a fixed
table: streets and areas (路 Road, 街/大街 Street, 大道 Avenue, 巷 Lane, 胡同 Hutong, 区 District,
县 County, 省 Province; directions 东 East, 西 West, 南 South, 北 North, 中 Middle) and, in units,
号楼/栋 Building, 单元 Unit, 层/楼 Floor, 室 Room, 铺位 Shop, 地下 Basement, written before their
number (2号楼C-05单元 → Building 2 Unit C-05). No other word is translated. House numbers drop the
号/號 marker.

Japanese: the source's kana readings in modified Hepburn, long vowels unmarked (Tōkyō → Tokyo), the
administrative suffix split off as Japan Post romanizes it (文京区 ブンキョウク → Bunkyo-ku), and
chōme/banchi/gō numbers as hyphenated digits (1番1号 → 1-1)."""

from __future__ import annotations

import re
import unicodedata

# Generic words, longest first, with their pinyin (as a separate word) and English rendering.
_GENERICS: dict[str, tuple[str, str | None]] = {
    "特别行政区": ("Tebie Xingzhengqu", None),
    "自治区": ("Zizhiqu", None),
    "自治州": ("Zizhizhou", None),
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


def pinyin(text: str, english: bool) -> str:
    words: list[str] = []
    run = ""
    i = 0
    while i < len(text):
        generic = _generic_at(text, i) if run else None
        if generic is None or _ends_a_name(text, i + len(generic)):
            run += text[i]  # not a generic, or one inside a name that has its own (中关村大街)
            i += 1
            continue
        words += _name_words(run, english)
        syllables, in_english = _GENERICS[generic]
        words.append(in_english if english and in_english else syllables)
        run = ""
        i += len(generic)
    words += _name_words(run, english)
    return " ".join(w for w in words if w)


def _generic_at(text: str, i: int) -> str | None:
    return next((g for g in _GENERICS if text.startswith(g, i)), None)


def _ends_a_name(text: str, i: int) -> bool:
    """Whether a generic word (or a direction and one: 中关村东路) starts at `i`."""
    return bool(_generic_at(text, i) or (text[i : i + 1] in _DIRECTIONS and _generic_at(text, i + 1)))


# Unit words with an established English rendering, written before their number in English.
_UNIT_WORDS = {
    "号楼": "Building",
    "號樓": "Building",
    "栋": "Building",
    "棟": "Building",
    "单元": "Unit",
    "單元": "Unit",
    "铺位": "Shop",
    "鋪位": "Shop",
    "层": "Floor",
    "層": "Floor",
    "楼": "Floor",
    "樓": "Floor",
    "室": "Room",
    "地下": "Basement",
}
_CHINESE_DIGITS = dict(
    zip("一二三四五六七八九十", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"], strict=True)
)
_UNIT_PART = re.compile(
    r"(?P<number>[0-9A-Za-z一二三四五六七八九十]+(?:-[0-9A-Za-z]+)*)?(?P<word>"
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
        number = match["number"] or ""
        number = _CHINESE_DIGITS.get(number, number)
        words.append(f"{_UNIT_WORDS[match['word']]} {number}".strip())
        end = match.end()
    if rest := normalized[end:]:
        words.append(pinyin(rest, english))
    return " ".join(words)


def _name_words(run: str, english: bool) -> list[str]:
    if not run:
        return []
    direction = run[-1] if len(run) > 2 and run[-1] in _DIRECTIONS else None
    name = run[:-1] if direction else run
    words = [_syllables(name)]
    if direction:
        words.append(_DIRECTIONS[direction] if english else _syllables(direction))
    return words


def _syllables(text: str) -> str:
    """One word per run of Han characters, apart from the digits and Latin text around it."""
    from pypinyin import lazy_pinyin  # lazy: 0.2 s to import, only Chinese-to-Latin needs it

    parts = _HAN_RUN.split(unicodedata.normalize("NFKC", text))  # odd indexes: the Han runs
    words = ["".join(lazy_pinyin(p)) if i % 2 else p.strip() for i, p in enumerate(parts)]
    joined = " ".join(w for w in words if w)
    return joined[:1].upper() + joined[1:]


def chinese_house_number(text: str) -> str:
    return _NUMBER_MARK.sub("", unicodedata.normalize("NFKC", text))


# --- Japanese ---------------------------------------------------------------------------------

_KANA = {
    **dict(zip("アイウエオ", ["a", "i", "u", "e", "o"], strict=True)),
    **dict(zip("カキクケコ", ["ka", "ki", "ku", "ke", "ko"], strict=True)),
    **dict(zip("ガギグゲゴ", ["ga", "gi", "gu", "ge", "go"], strict=True)),
    **dict(zip("サシスセソ", ["sa", "shi", "su", "se", "so"], strict=True)),
    **dict(zip("ザジズゼゾ", ["za", "ji", "zu", "ze", "zo"], strict=True)),
    **dict(zip("タチツテト", ["ta", "chi", "tsu", "te", "to"], strict=True)),
    **dict(zip("ダヂヅデド", ["da", "ji", "zu", "de", "do"], strict=True)),
    **dict(zip("ナニヌネノ", ["na", "ni", "nu", "ne", "no"], strict=True)),
    **dict(zip("ハヒフヘホ", ["ha", "hi", "fu", "he", "ho"], strict=True)),
    **dict(zip("バビブベボ", ["ba", "bi", "bu", "be", "bo"], strict=True)),
    **dict(zip("パピプペポ", ["pa", "pi", "pu", "pe", "po"], strict=True)),
    **dict(zip("マミムメモ", ["ma", "mi", "mu", "me", "mo"], strict=True)),
    **dict(zip("ヤユヨ", ["ya", "yu", "yo"], strict=True)),
    **dict(zip("ラリルレロ", ["ra", "ri", "ru", "re", "ro"], strict=True)),
    **dict(zip("ワヲン", ["wa", "o", "n"], strict=True)),
    "ヴ": "vu",
}
_SMALL = {"ャ": "ya", "ュ": "yu", "ョ": "yo", "ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o"}
# Kanji suffix → (its kana reading, the romanized suffix after a hyphen).
_SUFFIXES = {
    "区": ("ク", "ku"),
    "市": ("シ", "shi"),
    "町": ("チョウ", "cho"),
    "村": ("ムラ", "mura"),
    "県": ("ケン", "ken"),
    "都": ("ト", "to"),
    "府": ("フ", "fu"),
}
_CHOME = re.compile(r"(\d+) chome$")


def hepburn(kanji: str, kana: str) -> str:
    """The kana reading of `kanji` in Hepburn, its administrative suffix hyphenated."""
    kana = unicodedata.normalize("NFKC", _katakana(kana))
    suffix = _SUFFIXES.get(kanji[-1:]) if kanji else None
    if suffix and kana.endswith(suffix[0]) and len(kana) > len(suffix[0]):
        return f"{_capitalized(_romaji(kana[: -len(suffix[0])]))}-{suffix[1]}"
    return _capitalized(_CHOME.sub(r"\1-chome", _romaji(kana)))


def japanese_house_number(text: str) -> str:
    """1番1号 → 1-1, 5番地 → 5, 3-12 stays."""
    normalized = unicodedata.normalize("NFKC", text)
    parts = [p for p in re.split(r"番地|番|号|の|-", normalized) if p]
    return "-".join(parts) if parts else normalized


def _katakana(text: str) -> str:
    return "".join(chr(ord(ch) + 0x60) if 0x3041 <= ord(ch) <= 0x3096 else ch for ch in text)


def _romaji(kana: str) -> str:
    out: list[str] = []
    double = False
    for ch in kana:
        if ch == "ッ":
            double = True
            continue
        if ch in _SMALL and out and out[-1].endswith("i") and len(out[-1]) > 1:
            base = out.pop()[:-1]
            syllable = base + (_SMALL[ch][1:] if base.endswith(("sh", "ch", "j")) else _SMALL[ch])
        elif ch == "ー":
            continue  # long vowel mark: unmarked
        else:
            syllable = _KANA.get(ch, ch)
        if double and syllable[:1].isalpha():
            syllable = ("t" if syllable.startswith("ch") else syllable[0]) + syllable
        double = False
        out.append(syllable)
    text = "".join(out)
    text = re.sub(r"ou|oo", "o", text)
    text = re.sub(r"uu", "u", text)
    return re.sub(r"(\d)([a-z])", r"\1 \2", re.sub(r"([a-z])(\d)", r"\1 \2", text))


def _capitalized(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in text.split(" "))
