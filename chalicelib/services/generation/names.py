"""A test profile's name in the forms a country's address forms ask for: the native name, its Latin
form where the native script is not Latin (passport practice), and its kana reading in Japan.

- JP: Faker's ja_JP pairs, in which kanji, katakana and Hepburn romaji are one name's three forms.
- CN, TW: Hanyu Pinyin as a passport writes it (family name, then the given name as one word; no
  tones, no apostrophes), with the family name read as a family name (单 Shan, 曾 Zeng, 解 Xie).
- KR: the family name as passports conventionally write it (김 Kim, 이 Lee, 박 Park), the given
  name in the Revised Romanization, syllable by syllable: the notice (2014-42, art. 3-4) writes no
  sound change inside a personal name (복남 Boknam).
- RU: ICAO Doc 9303's transliteration, which Russian passports use since 2013 (Юлия → Iuliia).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

from chalicelib.reference.countries import facts


class NameSource(Protocol):
    """What a name is drawn from: a seeded Faker generator's person provider."""

    def seed_instance(self, seed: int) -> object: ...
    def first_name_female(self) -> str: ...
    def first_name_male(self) -> str: ...
    def last_name(self) -> str: ...
    # ja_JP's: (kanji, katakana, romaji) of one name
    def first_name_female_pair(self) -> tuple[str, str, str]: ...
    def first_name_male_pair(self) -> tuple[str, str, str]: ...
    def last_name_pair(self) -> tuple[str, str, str]: ...


@dataclass(frozen=True)
class PersonName:
    given: str
    family: str
    full: str


@dataclass(frozen=True)
class ProfileName:
    native: PersonName
    latin: PersonName | None  # None where the native name is in Latin letters
    latin_system: str | None
    kana: PersonName | None  # JP only: the katakana reading (フリガナ)


LATIN_SYSTEMS = {
    "JP": "Hepburn",
    "CN": "Hanyu Pinyin",
    "TW": "Hanyu Pinyin",
    "KR": "Revised Romanization (family names as passports write them)",
    "RU": "ICAO Doc 9303",
}


def draw_name(country: str, fake: NameSource, gender: str) -> ProfileName:
    if country == "JP":
        return _japanese(fake, gender)
    given = fake.first_name_female() if gender == "female" else fake.first_name_male()
    family = _family_name(fake, gender)
    native = _person(country, given, family)
    latin = _latin(country, given, family)
    return ProfileName(native, latin, LATIN_SYSTEMS.get(country) if latin else None, None)


def _japanese(fake: NameSource, gender: str) -> ProfileName:
    given = fake.first_name_female_pair() if gender == "female" else fake.first_name_male_pair()
    family = fake.last_name_pair()  # (kanji, katakana, romaji) of one name
    romaji = _tables()["ja_romaji"]
    latin_given, latin_family = romaji.get(given[1], given[2]), romaji.get(family[1], family[2])
    return ProfileName(
        native=PersonName(given[0], family[0], f"{family[0]}{given[0]}"),
        latin=PersonName(latin_given, latin_family, f"{latin_family} {latin_given}"),
        latin_system=LATIN_SYSTEMS["JP"],
        kana=PersonName(given[1], family[1], f"{family[1]} {given[1]}"),
    )


def _family_name(fake: NameSource, gender: str) -> str:
    gendered = getattr(fake, f"last_name_{gender}", None)  # Polish and Russian surnames agree with gender
    return str(gendered() if callable(gendered) else fake.last_name())


def _person(country: str, given: str, family: str) -> PersonName:
    if not facts(country).family_name_first:
        return PersonName(given, family, f"{given} {family}")
    # CJK names run together (陳子豪); Vietnamese ones, in Latin letters, are spaced (Trần Thảo).
    full = (
        f"{family} {given}"
        if unicodedata.name(family[-1:] or " ", "").startswith("LATIN")
        else f"{family}{given}"
    )
    return PersonName(given, family, full)


def _latin(country: str, given: str, family: str) -> PersonName | None:
    """In the native order: family name first in Latin letters too where the native name puts it
    first (as the governments of China, Japan and Korea ask for romanized names)."""
    if country in ("CN", "TW"):
        latin_given, latin_family = _pinyin_given(given), _pinyin_family(family)
    elif country == "KR":
        latin_given, latin_family = _korean_given(given), _korean_family(family)
    elif country == "RU":
        latin_given, latin_family = _icao(given), _icao(family)
    else:
        return None
    first_last = f"{latin_family} {latin_given}" if facts(country).family_name_first else None
    return PersonName(latin_given, latin_family, first_last or f"{latin_given} {latin_family}")


def _pinyin_given(given: str) -> str:
    """The given name read alone (read with the family name, a phrase can swallow both: 于思妤)."""
    return _pinyin(_simplified(given))


def _pinyin_family(family: str) -> str:
    known = _tables()["zh_family_names"]
    return known.get(family) or known.get(_simplified(family)) or _pinyin(_simplified(family))


def _pinyin(text: str) -> str:
    from pypinyin import lazy_pinyin  # lazy: 0.2 s to import, only CN and TW profiles need it

    # pypinyin writes ü as v; GB/T 28039-2011 writes it yu where diacritics cannot be (Lyu).
    return "".join(lazy_pinyin(text)).replace("v", "yu").capitalize()


def _simplified(text: str) -> str:
    from chalicelib.services.translation.scripts import convert_han

    return convert_han(text, "Hant", "Hans") or text


def _korean_given(given: str) -> str:
    from chalicelib.services.translation.korean import syllable_by_syllable

    return syllable_by_syllable(given).capitalize()


def _korean_family(family: str) -> str:
    from chalicelib.services.translation.korean import syllable_by_syllable

    known = _tables()["ko_family_names"].get(family)
    return str(known) if known else syllable_by_syllable(family).capitalize()


def _icao(text: str) -> str:
    return str(_icao_schema().translate(text))


@cache
def _icao_schema() -> Any:
    import iuliia  # type: ignore[import-untyped]  # lazy: only RU profiles load it

    return iuliia.schemas.get("icao_doc_9303")


@cache
def _tables() -> dict[str, dict[str, str]]:
    """Family names whose reading as a family name differs from the character's usual reading
    (CN/TW), and the Korean family names' conventional passport spellings (sources in the file)."""
    text = resources.files("chalicelib.reference").joinpath("data/name_romanization.json").read_text("utf-8")
    tables: dict[str, dict[str, str]] = json.loads(text)
    return tables
