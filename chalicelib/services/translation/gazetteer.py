"""Official names from packaged gazetteers: country names from CLDR (babel, BSD), first-level
region names and their translations from ISO 3166-2 (pycountry, LGPL-2.1 data used unmodified)."""

from __future__ import annotations

import gettext
from functools import cache

from chalicelib.reference.regions import display_name
from chalicelib.services.translation.locales import DisplayLocale
from chalicelib.services.translation.scripts import is_latin


def country_name(country: str, locale: DisplayLocale) -> str | None:
    from babel import Locale  # lazy: only translations need CLDR

    name = Locale.parse(locale.babel).territories.get(country)
    return str(name) if name else None


def region_name(code: str, locale: DisplayLocale) -> str | None:
    """The ISO 3166-2 name of `code` in the locale: a published translation, or for Latin output
    the ISO name itself when it is in Latin script. None when the gazetteer has neither."""
    import pycountry  # ISO's tables load in some 50 ms: at the first translation only

    unit = pycountry.subdivisions.get(code=code)  # type: ignore[no-untyped-call]
    if unit is None:
        return None
    iso_name: str = unit.name
    translated = _translation(locale.iso_gettext).gettext(iso_name) if locale.iso_gettext else iso_name
    if translated != iso_name:
        return display_name(translated)
    return display_name(iso_name) if locale.latin and is_latin(iso_name) else None


@cache
def _translation(iso_locale: str) -> gettext.NullTranslations:
    import pycountry

    try:
        return gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[iso_locale])
    except OSError:
        return gettext.NullTranslations()
