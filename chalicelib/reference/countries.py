"""Per-country facts, one entry per served country. The pool configuration (which countries are
enabled, their bounds and coverage targets) lives in data/countries.json; everything else a
country needs is here."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AdminLevels:
    """OSM `admin_level` values of the boundaries that name an address's city and district, as
    that country maps them (https://wiki.openstreetmap.org/wiki/Tag:boundary=administrative)."""

    city: tuple[int, ...] = ()
    district: tuple[int, ...] = ()


@dataclass(frozen=True)
class CountryFacts:
    calling_code: str  # ITU-T E.164
    faker_locale: str  # names of test profiles
    postcode: str  # regular expression of the national written form (after postcodes.canonical)
    number_first: bool = True  # "24 Main St"; False: "Dorfstrasse 24"
    postcode_after_city: bool = False  # "Baltimore, MD 21201"; False: "9490 Vaduz"
    native_order: bool = False  # largest unit first, postcode first (JP, CN, TW, KR)
    family_name_first: bool = False
    region_as_code: bool = False  # the region written as its ISO code's second part (MD, NSW)
    residential_by_default: bool = False  # generation and hierarchy draw residential unless told
    admin_levels: AdminLevels = field(default_factory=AdminLevels)
    # The postal address names the second-level unit (IT sigla, ES provincia): served as `province`.
    postal_province: bool = False
    # pycountry's gettext locales with this country's names of its ISO 3166-2 subdivisions.
    subdivision_locales: tuple[str, ...] = ()
    # Between street and number where the number follows ("Avenida Paulista, 1578" in Brazil).
    number_separator: str = " "
    # Its first-level units include cities governed as provinces (Hà Nội): such a unit is its own city.
    municipal_regions: bool = False


COUNTRIES: dict[str, CountryFacts] = {
    "AD": CountryFacts("376", "es_ES", r"AD\d{3}", number_first=False, admin_levels=AdminLevels(city=(7,))),
    "AT": CountryFacts("43", "de_AT", r"\d{4}", number_first=False, admin_levels=AdminLevels(city=(8,))),
    "AU": CountryFacts(
        "61",
        "en_AU",
        r"\d{4}",
        postcode_after_city=True,
        region_as_code=True,
        admin_levels=AdminLevels(city=(7,)),
    ),
    "BE": CountryFacts("32", "fr_BE", r"\d{4}", number_first=False, admin_levels=AdminLevels(city=(8,))),
    "BR": CountryFacts(
        "55",
        "pt_BR",
        r"\d{5}-\d{3}",
        number_first=False,
        postcode_after_city=True,
        region_as_code=True,
        number_separator=", ",
    ),
    "CA": CountryFacts(
        "1",
        "en_CA",
        r"[A-Z]\d[A-Z] \d[A-Z]\d",
        postcode_after_city=True,
        region_as_code=True,
        admin_levels=AdminLevels(city=(8,)),
    ),
    "CN": CountryFacts(
        "86",
        "zh_CN",
        r"\d{6}",
        native_order=True,
        family_name_first=True,
        residential_by_default=True,
        subdivision_locales=("zh_CN",),
    ),
    "CH": CountryFacts("41", "de_CH", r"\d{4}", number_first=False, admin_levels=AdminLevels(city=(8,))),
    "CZ": CountryFacts(
        "420",
        "cs_CZ",
        r"\d{3} \d{2}",
        number_first=False,
        admin_levels=AdminLevels(city=(8,), district=(10,)),
    ),
    "DE": CountryFacts(
        "49", "de_DE", r"\d{5}", number_first=False, admin_levels=AdminLevels(city=(8, 6), district=(10, 9))
    ),
    "DK": CountryFacts("45", "da_DK", r"\d{4}", number_first=False, admin_levels=AdminLevels(city=(7,))),
    "ES": CountryFacts(
        "34", "es_ES", r"\d{5}", number_first=False, postal_province=True, admin_levels=AdminLevels(city=(8,))
    ),
    "FI": CountryFacts("358", "fi_FI", r"\d{5}", number_first=False, admin_levels=AdminLevels(city=(8,))),
    "FR": CountryFacts("33", "fr_FR", r"\d{5}", admin_levels=AdminLevels(city=(8,), district=(9,))),
    "GB": CountryFacts("44", "en_GB", r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", postcode_after_city=True),
    # No postcodes: any published one is invalid. Written in Chinese order or English order, by the
    # script of its street (formatting.py).
    "HK": CountryFacts("852", "zh_TW", r"(?!)", family_name_first=True),
    "IS": CountryFacts("354", "is_IS", r"\d{3}", number_first=False),
    "IT": CountryFacts(
        "39", "it_IT", r"\d{5}", number_first=False, postal_province=True, admin_levels=AdminLevels(city=(8,))
    ),
    "JP": CountryFacts(
        "81", "ja_JP", r"\d{3}-\d{4}", native_order=True, family_name_first=True, subdivision_locales=("ja",)
    ),
    "KR": CountryFacts(
        "82", "ko_KR", r"\d{5}", native_order=True, family_name_first=True, subdivision_locales=("ko",)
    ),
    "LI": CountryFacts(
        "423", "de_CH", r"94(8[5-9]|9[0-8])", number_first=False, admin_levels=AdminLevels(city=(8,))
    ),
    "MC": CountryFacts("377", "fr_FR", r"980\d{2}", admin_levels=AdminLevels(city=(8,), district=(10,))),
    "NL": CountryFacts(
        "31", "nl_NL", r"\d{4} [A-Z]{2}", number_first=False, admin_levels=AdminLevels(city=(8,))
    ),
    "NO": CountryFacts("47", "no_NO", r"\d{4}", number_first=False, admin_levels=AdminLevels(city=(7,))),
    "PL": CountryFacts(
        "48", "pl_PL", r"\d{2}-\d{3}", number_first=False, admin_levels=AdminLevels(city=(8,))
    ),
    "PT": CountryFacts(
        "351",
        "pt_PT",
        r"\d{4}-\d{3}",
        number_first=False,
        admin_levels=AdminLevels(city=(7,), district=(8, 9)),
    ),
    "RU": CountryFacts(
        "7",
        "ru_RU",
        r"\d{6}",
        number_first=False,
        admin_levels=AdminLevels(city=(4, 6), district=(8,)),
        subdivision_locales=("ru",),
    ),
    "SE": CountryFacts(
        "46", "sv_SE", r"\d{3} \d{2}", number_first=False, admin_levels=AdminLevels(city=(7,))
    ),
    "SG": CountryFacts("65", "en_GB", r"\d{6}", postcode_after_city=True),
    "TW": CountryFacts(
        "886",
        "zh_TW",
        r"\d{3}(\d{2,3})?",
        native_order=True,
        family_name_first=True,
        subdivision_locales=("zh_TW",),
    ),
    "US": CountryFacts(
        "1",
        "en_US",
        r"\d{5}(-\d{4})?",
        postcode_after_city=True,
        region_as_code=True,
        admin_levels=AdminLevels(city=(8,)),
    ),
    "VN": CountryFacts(
        "84",
        "vi_VN",
        r"\d{5}(\d)?",  # the 5-digit codes of 2017 and the older 6-digit ones, as Google's rules accept
        family_name_first=True,
        municipal_regions=True,
    ),
}

UNKNOWN = CountryFacts("999", "en_US", r".+")


def facts(country: str) -> CountryFacts:
    """The country's facts; a country without an entry gets neutral defaults (never a crash)."""
    return COUNTRIES.get(country, UNKNOWN)
