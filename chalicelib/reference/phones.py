"""Telephone numbers regulators reserve for fiction (films, TV, books), by country, and the area each
belongs to: a test profile's phone is drawn from these only, so it passes a form's validation
(libphonenumber accepts every block here: tests/unit/test_phones.py checks each against it) and
can never ring a person. docs/generation.md's "Test profiles" table cites each regulator's document.

Left out, though reserved, because libphonenumber rejects them (a form would too): Ofcom's mobile
07700 900xxx, Nottingham 0115 496 0xxx and 01632 960xxx; ARCEP's mobile 06 39 98 xx xx.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

NANP_AREA_CODES_FILE = resources.files("chalicelib.reference").joinpath("data/nanp_area_codes.json")
NANP_TIME_ZONES_FILE = resources.files("chalicelib.reference").joinpath("data/nanp_time_zones.json")

PhoneKind = Literal["landline", "mobile", "landline_or_mobile", "non_geographic"]


@dataclass(frozen=True)
class Block:
    """A reserved block: its numbers with the drawn digits as #, in libphonenumber's international
    and national formats; `serves`: the area keys (area_keys) of the addresses it belongs to, none
    for a number valid anywhere in the country."""

    kind: PhoneKind
    international: str  # "+44 20 7946 0###"
    national: str  # "020 7946 0###"
    area: str | None = None  # the area's name, as the regulator gives it
    serves: frozenset[str] = frozenset()
    zones: frozenset[str] = frozenset()  # the IANA time zones its numbers belong to, where known

    def filled(self, digits: str) -> tuple[str, str]:
        """Both formats with `digits` in place of the #s, in order."""
        international, national = self.international, self.national
        for digit in digits:
            international = international.replace("#", digit, 1)
            national = national.replace("#", digit, 1)
        return international, national

    @property
    def size(self) -> int:
        size: int = 10 ** self.international.count("#")
        return size


@dataclass(frozen=True)
class Rule:
    regulator: str
    document: str
    url: str


RULES = {
    "US": Rule(
        "NANPA",
        "555 line numbers: 555-0100 to 555-0199 reserved for fictitious use in every area code",
        "https://www.nationalnanpa.com/number_resource_info/555_numbers.html",
    ),
    "GB": Rule(
        "Ofcom",
        "Telephone numbers for use in TV and radio drama programmes",
        "https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbers-for-drama",
    ),
    "AU": Rule(
        "ACMA",
        "Phone numbers for use in TV shows, films and creative works",
        "https://www.acma.gov.au/phone-numbers-use-tv-shows-films-and-creative-works",
    ),
    "FR": Rule(
        "ARCEP",
        "Décision n° 2018-0881 modifiée (plan national de numérotation): numéros pour œuvres audiovisuelles",
        "https://www.arcep.fr/uploads/tx_gsavis/18-0881.pdf",
    ),
    "DE": Rule(
        "Bundesnetzagentur",
        'Mitteilung Nr. 148/2021, Rufnummern für Medienproduktionen ("Drama Numbers"), Amtsblatt 07/2021',
        "https://www.bundesnetzagentur.de/DE/Fachthemen/Telekommunikation/Nummerierung/_DL/mittlg148_2021.pdf",
    ),
    "SE": Rule(
        "PTS",
        "Telefonnummer för användning i böcker och filmer etc. (2020)",
        "https://www.pts.se/sv/bransch/telefoni/nummer-och-adressering/telefonnummer-for-anvandning-i-bocker-och-filmer-etc/",
    ),
}
RULES["CA"] = RULES["US"]  # one numbering plan: Canada's administrator follows NANPA's guidelines


def area_keys(city: str | None, region_code: str | None, postcode: str | None) -> frozenset[str]:
    """What an address's phone area is matched on: its city, its ISO 3166-2 region, and the first
    one and two characters of its postcode (a GB postcode area, a French département)."""
    keys = set()
    if city:
        keys.add(_city(city))
    if region_code:
        keys.add(f"region:{region_code}")
    if postcode:
        compact = postcode.replace(" ", "").upper()
        keys.update(f"postcode:{compact[:n]}" for n in (1, 2) if len(compact) > n)
    return frozenset(keys)


def _city(name: str) -> str:
    """Compared as written, but for case, Unicode form and hyphens or dots (Newcastle-upon-Tyne)."""
    folded = unicodedata.normalize("NFKC", name).casefold().replace("-", " ").replace(".", " ")
    return "city:" + " ".join(folded.split())


def _cities(*names: str) -> frozenset[str]:
    return frozenset(_city(name) for name in names)


def _postcodes(prefixes: str) -> frozenset[str]:
    return frozenset(f"postcode:{prefix}" for prefix in prefixes.split())


def _regions(*codes: str) -> frozenset[str]:
    return frozenset(f"region:{code}" for code in codes)


def _singles(kind: PhoneKind, numbers: str, international: str, national: str) -> tuple[Block, ...]:
    """One block per number: `numbers` (space-separated) fill the formats' #s in order."""
    template = Block(kind, international, national)
    return tuple(Block(kind, *template.filled(number)) for number in numbers.split())


def _gb(code: str, national: str, area: str, serves: frozenset[str]) -> Block:
    return Block("landline", f"+44 {code} {national}", f"0{code} {national}", area, serves)


def _fr(zone: str, block: str, area: str, departments: str) -> Block:
    return Block(
        "landline", f"+33 {zone} {block} ## ##", f"0{zone} {block} ## ##", area, _postcodes(departments)
    )


def _de(code: str, block: str, area: str, *cities: str) -> Block:
    return Block("landline", f"+49 {code} {block}", f"0{code} {block}", area, _cities(area, *cities))


def _se(code: str, digits: str, area: str, *cities: str) -> Block:
    return Block("landline", f"+46 {code} {digits}", f"0{code}-{digits}", area, _cities(area, *cities))


# Ofcom's drama blocks belong to cities: matched on the address's post town (Tyneside's on the
# towns of its 0191 area); all of Northern Ireland dials 028 (postcode area BT).
_GB = (
    _gb("20", "7946 0###", "London", _cities("London")),
    _gb("113", "496 0###", "Leeds", _cities("Leeds")),
    _gb("114", "496 0###", "Sheffield", _cities("Sheffield")),
    _gb("116", "496 0###", "Leicester", _cities("Leicester")),
    _gb("117", "496 0###", "Bristol", _cities("Bristol")),
    _gb("118", "496 0###", "Reading", _cities("Reading")),
    _gb("121", "496 0###", "Birmingham", _cities("Birmingham")),
    _gb("131", "496 0###", "Edinburgh", _cities("Edinburgh")),
    _gb("141", "496 0###", "Glasgow", _cities("Glasgow")),
    _gb("151", "496 0###", "Liverpool", _cities("Liverpool")),
    _gb("161", "496 0###", "Manchester", _cities("Manchester", "Salford")),
    _gb(
        "191",
        "498 0###",
        "Tyneside",
        _cities("Newcastle upon Tyne", "Gateshead", "Sunderland", "South Shields", "North Shields"),
    ),
    _gb("28", "9649 6###", "Northern Ireland", _postcodes("BT") | _regions("GB-NIR")),
    _gb("29", "2018 0###", "Cardiff", _cities("Cardiff")),
    # UK-wide, charged as a geographic call: the number for an address outside those cities.
    Block("non_geographic", "+44 306 999 0###", "0306 999 0###"),
)
_AU = (
    *(
        Block("landline", f"+61 {code} {block} ####", f"(0{code}) {block} ####", area, _regions(*regions))
        for code, area, regions in (
            ("2", "Central East (NSW, ACT)", ("AU-NSW", "AU-ACT")),
            ("3", "South East (VIC, TAS)", ("AU-VIC", "AU-TAS")),
            ("7", "North East (QLD)", ("AU-QLD",)),
            ("8", "Central West (SA, WA, NT)", ("AU-SA", "AU-WA", "AU-NT")),
        )
        for block in ("5550", "7010")
    ),
    *_singles(
        "mobile",
        "570006 570156 570157 570158 570159 570110 570313 570737 571266 571491 571804 572549 572665"
        " 572983 573770 573087 574118 574632 575254 575789 576398 576801 577426 577644 578957 578148"
        " 578888 579212 579760 579455",
        "+61 491 ### ###",
        "0491 ### ###",
    ),
)
# ARCEP's five geographic zones, by département (a postcode's first two digits; Corsica's are 20).
_FR = (
    _fr("1", "99 00", "Île-de-France (01)", "75 77 78 91 92 93 94 95"),
    _fr(
        "2",
        "61 91",
        "Nord-Ouest (02)",
        "14 18 22 27 28 29 35 36 37 41 44 45 49 50 53 56 61 72 76 85",
    ),
    _fr(
        "3",
        "53 01",
        "Nord-Est (03)",
        "02 08 10 21 25 39 51 52 54 55 57 58 59 60 62 67 68 70 71 80 88 89 90",
    ),
    _fr(
        "4",
        "65 71",
        "Sud-Est (04)",
        "01 03 04 05 06 07 11 13 15 20 2A 2B 26 30 34 38 42 43 48 63 66 69 73 74 83 84",
    ),
    _fr("5", "36 49", "Sud-Ouest (05)", "09 12 16 17 19 23 24 31 32 33 40 46 47 64 65 79 81 82 86 87"),
)
_DE = (
    _de("30", "23125###", "Berlin"),
    _de("69", "90009###", "Frankfurt am Main"),  # not bare "Frankfurt": Frankfurt (Oder) dials 0335
    _de("40", "66969###", "Hamburg"),
    _de("221", "4710###", "Köln", "Cologne"),
    _de("89", "99998###", "München", "Munich"),
    Block("mobile", "+49 171 39200##", "0171 39200##"),
    Block("mobile", "+49 176 040690##", "0176 040690##"),
    *_singles("mobile", "8817386 8895456", "+49 1522 #######", "01522 #######"),
    *_singles("mobile", "4599371", "+49 1525 #######", "01525 #######"),
    *_singles("mobile", "9925904 9968532 9973185 9973186 9980752", "+49 172 #######", "0172 #######"),
    *_singles("mobile", "9091317 9464308", "+49 174 #######", "0174 #######"),
)
_SE = (
    _se("8", "465 004 ##", "Stockholm"),
    _se("31", "390 06 ##", "Göteborg", "Gothenburg"),
    _se("40", "628 04 ##", "Malmö"),
    _se("980", "31 92 ##", "Kiruna"),
    *(
        Block("mobile", f"+46 70 174 06 {n:02d}", f"070-174 06 {n:02d}")
        for n in range(5, 100)  # 070-174 06 05 to 06 99: PTS's range starts at 05
    ),
)
BLOCKS: dict[str, tuple[Block, ...]] = {"GB": _GB, "AU": _AU, "FR": _FR, "DE": _DE, "SE": _SE}


def blocks(country: str) -> tuple[Block, ...]:
    """The country's reserved blocks libphonenumber accepts; () where no regulator reserves any."""
    if country in ("US", "CA"):
        return _nanp(country)
    return BLOCKS.get(country, ())


@cache
def _nanp(country: str) -> tuple[Block, ...]:
    """555-0100 to 555-0199 in each geographic area code, serving its state or province, in the
    time zones libphonenumber gives the area code."""
    table: dict[str, list[int]] = json.loads(NANP_AREA_CODES_FILE.read_text("utf-8"))
    zones: dict[str, list[str]] = json.loads(NANP_TIME_ZONES_FILE.read_text("utf-8"))
    return tuple(
        Block(
            "landline_or_mobile",
            f"+1 {npa}-555-01##",
            f"({npa}) 555-01##",
            f"{region} (area code {npa})",
            _regions(region),
            frozenset(zones.get(str(npa), ())),
        )
        for region, codes in table.items()
        if region.startswith(f"{country}-")
        for npa in codes
    )
