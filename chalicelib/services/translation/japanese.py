"""Japanese in Latin letters, where the source publishes no romaji: the source's kana readings in
modified Hepburn, long vowels unmarked (Tōkyō → Tokyo), the administrative suffix split off as
Japan Post romanizes it (文京区 ブンキョウク → Bunkyo-ku), and chōme/banchi/gō numbers as hyphenated
digits (1番1号 → 1-1)."""

from __future__ import annotations

import re
import unicodedata

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
