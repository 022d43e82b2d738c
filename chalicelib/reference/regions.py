"""ISO 3166-2 first-level regions: resolving a source's region text, or deriving a region from the
city (where first-level units are communes) or a US ZIP code. Gazetteers: pycountry, zipcodes."""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from functools import cache

from chalicelib.domain.locations import value_key
from chalicelib.reference.countries import facts

# Administrative suffixes the sources write and the translations leave out.
_SUFFIX = re.compile(r"(特别行政区|维吾尔自治区|壮族自治区|回族自治区|自治区|省|市|縣|县|都|道|府|県)$")
# Source vocabularies that are not ISO units but lie wholly within one (documented, tested).
_ALIASES = {
    "GB": dict.fromkeys(
        [
            "north east",
            "north west",
            "yorkshire and the humber",
            "east midlands",
            "west midlands",
            "east of england",
            "london",
            "south east",
            "south west",
        ],
        "GB-ENG",
    ),
}


# Official native names pycountry's translations lack, or cannot tell apart once the suffix is gone
# (Hsinchu and Chiayi are each a City and a County). Names of the unit itself: not derived.
_NATIVE_NAMES = {
    "TW": {
        "金門縣": "TW-KIN",
        "連江縣": "TW-LIE",
        "新北市": "TW-NWT",
        "宜蘭縣": "TW-ILA",
        "基隆市": "TW-KEE",
        "新竹市": "TW-HSZ",
        "新竹縣": "TW-HSQ",
        "嘉義市": "TW-CYI",
        "嘉義縣": "TW-CYQ",
        "臺北市": "TW-TPE",
        "台北市": "TW-TPE",
        "臺中市": "TW-TXG",
        "台中市": "TW-TXG",
        "臺南市": "TW-TNN",
        "台南市": "TW-TNN",
        "臺東縣": "TW-TTT",
        "台東縣": "TW-TTT",
    },
    "NL": {"friesland": "NL-FR"},
    "CN": {"宁夏回族自治区": "CN-NX", "宁夏": "CN-NX"},
    # The city's official name, which Google's rules take as its key; and the English names.
    "VN": {
        "Thành phố Hồ Chí Minh": "VN-SG",
        "Ho Chi Minh City": "VN-SG",
        "Hà Nội": "VN-HN",
        "Thành phố Hà Nội": "VN-HN",
        "Hanoi": "VN-HN",
        "Ha Noi": "VN-HN",
    },
}


@dataclass(frozen=True)
class Region:
    code: str
    name: str


@dataclass(frozen=True)
class Resolution:
    region: Region
    derived: bool  # not the row's own first-level region: an ancestor, an alias, a city or a ZIP


class RegionGazetteer:
    """Resolves region text for one country."""

    def __init__(self, country: str) -> None:
        self.country = country
        import pycountry  # ISO's tables load in some 50 ms: at a country's first lookup only

        subdivisions = list(pycountry.subdivisions.get(country_code=country) or [])  # type: ignore[no-untyped-call]
        self._by_code = {s.code: s for s in subdivisions}
        self.first_level = tuple(
            sorted(
                (Region(s.code, display_name(s.name)) for s in subdivisions if not s.parent_code),
                key=lambda r: r.code,
            )
        )
        self._names = _name_index(country, subdivisions)
        self._native = _native_names(country, subdivisions)

    def resolve(self, text: str) -> Resolution | None:
        key = value_key(text)
        if not key:
            return None
        alias = _ALIASES.get(self.country, {}).get(key)
        if alias:
            return Resolution(self._region(alias), derived=True)
        code = self._code_for(key)
        if code is None:
            return None
        top = self._top(code)
        return Resolution(self._region(top), derived=top != code)

    def top_level(self, code: str) -> str | None:
        """The first-level unit a subdivision code lies in (itself when first-level)."""
        return self._top(code) if code in self._by_code else None

    def by_code(self, code: str) -> Region | None:
        return self._region(code) if code in self._by_code else None

    def province(self, text: str) -> Region | None:
        """The second-level unit (an Italian or Spanish province) the text names, if it names one."""
        code = self._code_for(value_key(text)) if value_key(text) else None
        return self.province_by_code(code) if code else None

    def province_by_code(self, code: str) -> Region | None:
        """The subdivision if it is second-level: its parent is a first-level unit."""
        parent = self._by_code[code].parent_code if code in self._by_code else None
        if not parent:
            return None
        parent = parent if "-" in parent else f"{self.country}-{parent}"
        return self._region(code) if self._top(parent) == parent else None

    def is_municipality(self, code: str) -> bool:
        """A city governed as a first-level unit (Hà Nội, Thành phố Hồ Chí Minh): ISO's type."""
        unit = self._by_code.get(code)
        return unit is not None and unit.type == "Municipality" and not unit.parent_code

    def first_level_for_city(self, city: str) -> Region | None:
        """Where first-level units are communes or parishes (LI, AD, MC), the city names one."""
        code = self._names.get(value_key(city))
        return self._region(code) if code and code == self._top(code) else None

    def _code_for(self, key: str) -> str | None:
        upper = key.upper()
        if f"{self.country}-{upper}" in self._by_code:
            return f"{self.country}-{upper}"
        if upper in self._by_code:
            return upper
        native = _native_index(self.country).get(key)
        return native or self._names.get(key) or self._names.get(_SUFFIX.sub("", key))

    def _top(self, code: str) -> str:
        seen = set()
        while (parent := self._by_code[code].parent_code) and code not in seen:
            seen.add(code)
            code = parent if "-" in parent else f"{self.country}-{parent}"
        return code

    def _region(self, code: str) -> Region:
        """Named in the country's own language and script where ISO's name is a romanization
        (경기도, not Gyeonggi-do; Москва, not Moskva), so a native address line stays in one script."""
        return Region(code, self._native.get(code) or display_name(self._by_code[code].name))


# ISO appends a bracketed note to some names: a former code (SE "Stockholms län [SE-01]"), another
# language's name (ES "A Coruña [La Coruña]", GB "Isle of Anglesey [Sir Ynys Môn GB-YNM]").
_NOTE = re.compile(r"\s*\[([^\]]*)\]$")
_NOTE_CODE = re.compile(r"\s*\b[A-Z]{2}-[A-Z0-9]{1,3}\b")


def display_name(iso_name: str) -> str:
    """The name a form shows: ISO's bracketed note dropped, and names ISO lists inverted
    ("Bruxelles-Capitale, Région de") in reading order."""
    name = _NOTE.sub("", iso_name)
    before, comma, after = name.partition(", ")
    return f"{after} {before}" if comma else name


def _iso_names(iso_name: str) -> set[str]:
    """Every name ISO gives a unit: as listed, shown, and the other-language name of its note."""
    names = {iso_name, display_name(iso_name), _NOTE.sub("", iso_name)}
    if note := _NOTE.search(iso_name):
        names.add(_NOTE_CODE.sub("", note[1]).strip())
    return {n for n in names if n}


def _name_index(country: str, subdivisions: list[object]) -> dict[str, str]:
    """value_key of every name (ISO, local translations, with and without suffix) → code.
    A name shared by two units (Chiayi City and County) is dropped: ambiguous, never guessed."""
    index: dict[str, set[str]] = {}
    translations = [_translation(locale) for locale in facts(country).subdivision_locales]
    for sub in subdivisions:
        code: str = sub.code  # type: ignore[attr-defined]
        names = _iso_names(sub.name) | {t.gettext(sub.name) for t in translations if t}  # type: ignore[attr-defined]
        for name in names:
            for key in {value_key(name), _SUFFIX.sub("", value_key(name))}:
                index.setdefault(key, set()).add(code)
    return {key: codes.pop() for key, codes in index.items() if len(codes) == 1}


def _native_names(country: str, subdivisions: list[object]) -> dict[str, str]:
    """code → the name in the country's language: the official names above, else the first of the
    country's gettext locales that translates ISO's name."""
    native: dict[str, str] = {}
    for official, unit in _NATIVE_NAMES.get(country, {}).items():
        if not official.isascii():
            native.setdefault(unit, official)  # the first listed is the official form (臺北市)
    translations = [t for t in map(_translation, facts(country).subdivision_locales) if t]
    for sub in subdivisions:
        code: str = sub.code  # type: ignore[attr-defined]
        iso_name: str = sub.name  # type: ignore[attr-defined]
        for translation in translations:
            if code not in native and (name := translation.gettext(iso_name)) != iso_name:
                native[code] = display_name(name)
    return native


@cache
def _native_index(country: str) -> dict[str, str]:
    return {value_key(name): code for name, code in _NATIVE_NAMES.get(country, {}).items()}


@cache
def _translation(locale: str) -> gettext.NullTranslations | None:
    try:
        import pycountry

        return gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[locale])
    except OSError:
        return None


@cache
def gazetteer(country: str) -> RegionGazetteer:
    return RegionGazetteer(country)


@dataclass(frozen=True)
class ZipPlace:
    state: str
    city: str | None  # only when the ZIP has exactly one acceptable city


@cache
def us_zip(postcode: str) -> ZipPlace | None:
    """State (and city, when unambiguous) of a US ZIP code, from the packaged USPS-derived data."""
    import zipcodes  # lazy: its data loads on first use; only US rows without region/city need it

    five = postcode[:5]
    if not five.isdigit():
        return None
    matches = zipcodes.matching(five)  # type: ignore[no-untyped-call]
    if not matches:
        return None
    match = matches[0]
    single = match["city"] if not match.get("acceptable_cities") else None
    return ZipPlace(state=f"US-{match['state']}", city=single)
