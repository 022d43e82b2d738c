"""DB-IP's English first-level names → ISO 3166-2 codes. ISO names (pycountry) are mostly in the
local language (Bayern, Lombardia, Noord-Holland), so the English exonyms DB-IP writes come from an
explicit table, tested name by name; the rest match ISO names, codes and translations as the sync
does, then ISO names compared without accents, punctuation and unit-type words (Quebec = Québec,
Beijing = Beijing Shi, Seoul = Seoul-teukbyeolsi)."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from chalicelib.domain.locations import search_key
from chalicelib.reference.exonyms import EXONYMS
from chalicelib.reference.regions import display_name, gazetteer


@lru_cache(maxsize=8192)  # DB-IP has a few thousand distinct names: each is resolved once
def region_code(country: str, state: str) -> str | None:
    """The ISO 3166-2 first-level code DB-IP's state name means, or None (never guessed: a name
    that fits two units maps to neither)."""
    exonym = EXONYMS.get(country, {}).get(search_key(state).removeprefix("state of "))
    if exonym:
        return exonym
    resolution = gazetteer(country).resolve(state)
    if resolution is not None:
        return resolution.region.code
    code = _by_plain_name(country, plain(state))
    return gazetteer(country).top_level(code) if code else None


# Words of unit types that ISO names carry and DB-IP's names leave out, or the other way round.
_TYPE_WORDS = frozenset(
    [
        "shi",
        "sheng",
        "zizhiqu",
        "huizu",
        "zhuangzu",
        "uygur",
        "weiwuer",
        "teukbyeolsi",
        "gwangyeoksi",
        "teukbyeoljachido",
        "teukbyeoljachisi",
        "do",
        "province",
        "governorate",
        "county",
        "prefecture",
        "oblast",
        "voivodeship",
        "kray",
        "krai",
        "respublika",
        "republic",
        "lan",
        "emirate",
        "region",
    ]
)


_ADJECTIVE = re.compile(r"sk(aya|iy|ij)$")


def plain(name: str) -> str:
    """A name without accents, punctuation, bracketed parts, unit-type words and a leading "state of";
    Russian adjectival forms as their English stems (Sverdlovskaya → sverdlovsk)."""
    key = search_key(name.split("[")[0].split("(")[0]).removeprefix("state of ")
    for mark in "-/'\u2019\u2018.,":  # hyphens, slashes, straight and curly apostrophes, dots
        key = key.replace(mark, " ")
    words = (_ADJECTIVE.sub("sk", word) for word in key.split() if word not in _TYPE_WORDS)
    return " ".join(words)


def _by_plain_name(country: str, wanted: str) -> str | None:
    if not wanted:
        return None
    names = _plain_names(country)
    exact = names.get(wanted) or names.get(wanted.replace(" ", ""))
    if exact:
        return exact
    # A unique ISO name that the state's name begins or ends as whole words (Nairobi → Nairobi City,
    # Kuala Lumpur → Wilayah Persekutuan Kuala Lumpur).
    found = {
        code
        for name, code in names.items()
        if " " in name and (name.startswith(wanted + " ") or name.endswith(" " + wanted))
    }
    return found.pop() if len(found) == 1 else None


@cache
def _plain_names(country: str) -> dict[str, str]:
    """plain form (and without spaces) of every ISO name → code; a form two units share is dropped."""
    import pycountry  # ISO's tables load in some 50 ms: at a country's first lookup only

    found: dict[str, set[str]] = {}
    for sub in pycountry.subdivisions.get(country_code=country) or []:  # type: ignore[no-untyped-call]
        for name in {sub.name, display_name(sub.name)}:  # as listed, and as served (reading order, no note)
            form = plain(name)
            for key in {form, form.replace(" ", "")}:
                if key:
                    found.setdefault(key, set()).add(sub.code)
    return {key: codes.pop() for key, codes in found.items() if len(codes) == 1}
