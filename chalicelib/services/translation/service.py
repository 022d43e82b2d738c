"""The translation use case: one published address, every component resolved for the target
locale by the first rule that applies, then laid out in the address's country conventions.

Per component, in order (each result says which rule gave it):
  source     the text the source publishes in that language: the address itself when the target is
             the country's language and script, or a language variant (OpenAddresses romaji, the
             Belgian nl/fr files, OSM name:* tags)
  gazetteer  an official name: ISO 3166-2 region names and translations (pycountry), country names
             (CLDR via babel); a region the sync derived is a gazetteer name too
  converted  the same text in the target script: OpenCC between Simplified, Traditional and
             Japanese kanji; for Latin output, each script by its named standard: Hanyu Pinyin
             (chinese.py; Taiwan in Chunghwa Post's English forms, taiwan.py), Hepburn from the
             source's kana (japanese.py), the Revised Romanization of Korean (korean.py), GOST R
             52290-2004 for Russian (cyrillic.py)
  original   the text unchanged. Never a guessed translation of a proper name."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.reference import japan_post
from chalicelib.reference.countries import facts
from chalicelib.reference.formatting import province_text, region_abbreviation, street_line
from chalicelib.services.translation import chinese, cyrillic, gazetteer, japanese, korean, taiwan
from chalicelib.services.translation.layout import Fields, address_lines, format_pattern
from chalicelib.services.translation.locales import LOCALES, PRIMARY_SCRIPT, DisplayLocale, speaks
from chalicelib.services.translation.scripts import convert_han, has_han, has_hangul, is_latin

FIELDS = ("street", "house_number", "unit", "district", "city", "region", "postcode", "province")
_NAME_KEYS = {"house_number": "number"}  # how language variants name the fields
_KANA_KEYS = {
    "street": "street_kana",
    "city": "city_kana",
    "region": "region_kana",
    "district": "district_kana",
}


@dataclass(frozen=True)
class Translation:
    components: dict[str, str | None]  # FIELDS plus "country"
    sources: dict[str, str]  # component → source, gazetteer, converted or original
    lines: list[str]
    single_line: str


def translate(address: PublishedAddress, locale_tag: str, primary_language: str) -> Translation:
    locale = LOCALES[locale_tag]
    components: dict[str, str | None] = {}
    sources: dict[str, str] = {}
    for field in FIELDS:
        value, how = _resolve(field, getattr(address.components, field), address, locale, primary_language)
        components[field] = value
        if value is not None:
            sources[field] = how
    if address.components.city and address.components.city == address.components.region:
        components["city"], sources["city"] = components["region"], sources["region"]  # 上海市, Москва
    country = gazetteer.country_name(address.country, locale)
    components["country"] = country or address.country
    sources["country"] = "gazetteer" if country else "original"
    lines = _lines(address, components, locale)
    return Translation(components, sources, lines, (", " if locale.latin else " ").join(lines))


def _resolve(
    field: str, value: str | None, address: PublishedAddress, locale: DisplayLocale, primary: str
) -> tuple[str | None, str]:
    if value is None:
        return None, "original"
    derived = field in address.derived  # filled by the sync from a gazetteer or the source's area
    if speaks(primary, locale):
        return value, "gazetteer" if derived else "source"
    named = _published_name(field, address, locale)
    if named:
        return named, "gazetteer" if derived else "source"
    code = {"region": address.components.region_code, "province": address.components.province_code}.get(field)
    if code and (official := gazetteer.region_name(code, locale)):
        in_post_form = address.country == "TW" and locale.latin
        return (taiwan.county(official, value) if in_post_form else official), "gazetteer"
    converted = _converted(field, value, address, locale, primary)
    if converted is not None and converted != value:
        return converted, "converted"
    return value, "original"


# Where the published Latin form is English (Hong Kong's street signs: 彌敦道 Nathan Road), every
# Latin-script locale takes it: a romanization (Pinyin: Mídūn Dào) would name no street there.
_LATIN_IN_ENGLISH = frozenset({"HK"})


def _published_name(field: str, address: PublishedAddress, locale: DisplayLocale) -> str | None:
    key = _NAME_KEYS.get(field, field)
    named = address.names.get(locale.language, {}).get(key)
    if not named and locale.latin and address.country in _LATIN_IN_ENGLISH:
        named = address.names.get("en", {}).get(key)
    return named


def _converted(
    field: str, value: str, address: PublishedAddress, locale: DisplayLocale, primary: str
) -> str | None:
    if locale.latin:
        # Without a published English form, kept as written where English is the Latin form.
        return None if address.country in _LATIN_IN_ENGLISH else _latin(field, value, address, locale)
    script = PRIMARY_SCRIPT.get(primary)
    if script and locale.script in {"Hans", "Hant", "Jpan"}:
        return convert_han(value, script, locale.script)
    return None


def _latin(field: str, value: str, address: PublishedAddress, locale: DisplayLocale) -> str | None:
    normalized = unicodedata.normalize("NFKC", value)
    if is_latin(normalized):
        return normalized if facts(address.country).native_order else None  # full-width digits
    english = locale.tag == "en"
    if address.country == "JP":
        if field == "house_number":
            return japanese.japanese_house_number(value)
        kana = address.readings.get(_KANA_KEYS.get(field, "")) or _japan_post_kana(field, value, address)
        return japanese.hepburn(value, kana) if kana else None
    if address.country == "TW" and field in _TAIWAN:
        return _TAIWAN[field](value)
    if has_hangul(value):
        return korean.romanize(value)
    if cyrillic.has_cyrillic(value):
        return cyrillic.romanize(value, english)
    if has_han(value):
        if field == "house_number":
            return chinese.chinese_house_number(value, english)
        if field == "unit":
            return chinese.chinese_unit(value, english)
        return chinese.pinyin(value, english)
    return None


_TAIWAN = {
    "street": taiwan.street,
    "house_number": taiwan.house_number,
    "unit": taiwan.unit,
    "district": taiwan.area,
    "city": taiwan.area,
}


def _japan_post_kana(field: str, value: str, address: PublishedAddress) -> str | None:
    c = address.components
    if field != "street" or not (c.region and c.city):
        return None
    return japan_post.street_kana(c.region, c.city, value)


def _lines(address: PublishedAddress, c: dict[str, str | None], locale: DisplayLocale) -> list[str]:
    country = address.country
    native = not locale.latin and (facts(country).native_order or _chinese_street(address))
    fmt_has = _format_fields(country, latin=not native)
    region = (
        province_text(country, address.components)
        or region_abbreviation(country, address.components.region_code)
        or (c["province"] if facts(country).postal_province else c["region"])
    )
    # A municipality (上海市, Москва) is written once where the format names the region; a Brazilian
    # state named like its capital is not one: São Paulo - SP.
    municipality = c["city"] == c["region"] and country != "BR"
    city = None if municipality and (native or "S" in fmt_has) else c["city"]
    if native:
        parts = [city if "C" not in fmt_has else None, c["district"] if "D" not in fmt_has else None]
        street = _joined_in_cjk([p for p in (*parts, c["street"], c["house_number"], c["unit"]) if p])
    else:
        street = _latin_street(country, c)
        extra = [c["district"] if "D" not in fmt_has else None, city if "C" not in fmt_has else None]
        street = ", ".join(p for p in (street, *extra) if p)
    fields = Fields(
        street_address=street or None,
        district=c["district"] if "D" in fmt_has else None,
        city=city if "C" in fmt_has else None,
        region=region,
        postcode=c["postcode"],
        country=c["country"],
    )
    return address_lines(country, fields, latin=not native)


def _chinese_street(address: PublishedAddress) -> bool:
    """A Hong Kong address whose street is published in Chinese: written in Chinese order there."""
    street = address.components.street or ""
    return address.country == "HK" and has_han(street)


def _joined_in_cjk(parts: list[str]) -> str:
    """Run together, as CJK addresses write them, but for a space between two Latin letters or
    digits that would otherwise merge (36-44 and 5B5)."""
    joined = ""
    for part in parts:
        if (
            joined
            and joined[-1].isascii()
            and joined[-1].isalnum()
            and part[0].isascii()
            and part[0].isalnum()
        ):
            joined += " "
        joined += part
    return joined


def _latin_street(country: str, c: dict[str, str | None]) -> str:
    if country == "TW":  # Chunghwa Post: the smallest part first (4F.-5, No. 163, Shigang 5th Rd.)
        return ", ".join(p for p in (c["unit"], c["house_number"], c["street"]) if p)
    if country == "KR":  # the road-name address in English: "46, Gwanggyojungang-ro 49beon-gil"
        line = ", ".join(p for p in (c["house_number"], c["street"]) if p)
        return ", ".join(p for p in (line, c["unit"]) if p)
    latin_first = facts(country).native_order  # "1-1 Imabuku 1-chome", "5566 Huizhou Avenue"
    return street_line("US" if latin_first else country, c["street"], c["house_number"], c["unit"])


def _format_fields(country: str, latin: bool) -> set[str]:
    pattern = format_pattern(country, latin)
    return {pattern[i + 1] for i, ch in enumerate(pattern[:-1]) if ch == "%"}
