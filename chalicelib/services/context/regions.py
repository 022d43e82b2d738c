"""DB-IP's English first-level names → ISO 3166-2 codes. ISO names (pycountry) are mostly in the
local language (Bayern, Lombardia, Noord-Holland), so the English exonyms DB-IP writes come from an
explicit table, tested name by name; the rest match ISO names, codes and translations as the sync
does, then ISO names compared without accents, punctuation and unit-type words (Quebec = Québec,
Beijing = Beijing Shi, Seoul = Seoul-teukbyeolsi)."""

from __future__ import annotations

import re
from functools import cache, lru_cache

import pycountry

from chalicelib.domain.locations import search_key
from chalicelib.services.sync.regions import gazetteer

# English names (search_key form) → ISO 3166-2 first-level code.
EXONYMS: dict[str, dict[str, str]] = {
    "DE": {
        "bavaria": "DE-BY",
        "hesse": "DE-HE",
        "lower saxony": "DE-NI",
        "north rhine-westphalia": "DE-NW",
        "rhineland-palatinate": "DE-RP",
        "saxony": "DE-SN",
        "saxony-anhalt": "DE-ST",
        "thuringia": "DE-TH",
        "mecklenburg-vorpommern": "DE-MV",
        "mecklenburg-western pomerania": "DE-MV",
        "baden-wurttemberg": "DE-BW",
    },
    "IT": {
        "lombardy": "IT-25",
        "piedmont": "IT-21",
        "tuscany": "IT-52",
        "sicily": "IT-82",
        "sardinia": "IT-88",
        "apulia": "IT-75",
        "aosta valley": "IT-23",
        "trentino-alto adige": "IT-32",
        "friuli venezia giulia": "IT-36",
        "friuli-venezia giulia": "IT-36",
        "emilia-romagna": "IT-45",
        "latium": "IT-62",
        "lazio": "IT-62",
    },
    "NL": {
        "north holland": "NL-NH",
        "south holland": "NL-ZH",
        "north brabant": "NL-NB",
        "friesland": "NL-FR",
    },
    "AT": {
        "vienna": "AT-9",
        "lower austria": "AT-3",
        "upper austria": "AT-4",
        "styria": "AT-6",
        "carinthia": "AT-2",
        "tyrol": "AT-7",
    },
    "BE": {
        "brussels capital": "BE-BRU",
        "brussels": "BE-BRU",
        "flanders": "BE-VLG",
        "wallonia": "BE-WAL",
    },
    "CH": {"zurich": "CH-ZH", "geneva": "CH-GE", "bern": "CH-BE", "lucerne": "CH-LU", "grisons": "CH-GR"},
    "PL": {
        "lower silesia": "PL-02",
        "kujawsko-pomorskie": "PL-04",
        "kuyavia-pomerania": "PL-04",
        "lublin": "PL-06",
        "lubusz": "PL-08",
        "lodz voivodeship": "PL-10",
        "lesser poland": "PL-12",
        "mazovia": "PL-14",
        "masovia": "PL-14",
        "opole voivodeship": "PL-16",
        "subcarpathia": "PL-18",
        "podlasie": "PL-20",
        "pomerania": "PL-22",
        "silesia": "PL-24",
        "swietokrzyskie": "PL-26",
        "warmia-masuria": "PL-28",
        "greater poland": "PL-30",
        "west pomerania": "PL-32",
    },
    "ES": {
        "catalonia": "ES-CT",
        "andalusia": "ES-AN",
        "madrid": "ES-MD",
        "valencia": "ES-VC",
        "basque country": "ES-PV",
        "balearic islands": "ES-IB",
        "canary islands": "ES-CN",
        "castille and leon": "ES-CL",
        "castille-la mancha": "ES-CM",
        "navarre": "ES-NC",
        "aragon": "ES-AR",
        "murcia": "ES-MC",
        "asturias": "ES-AS",
        "galicia": "ES-GA",
        "cantabria": "ES-CB",
        "la rioja": "ES-RI",
        "extremadura": "ES-EX",
    },
    "GB": {"england": "GB-ENG", "scotland": "GB-SCT", "wales": "GB-WLS", "northern ireland": "GB-NIR"},
    "CZ": {"prague": "CZ-10", "central bohemia": "CZ-20", "south moravian": "CZ-64"},
    "PT": {"lisbon": "PT-11"},
    "RO": {"bucharest": "RO-B"},
    "CN": {"inner mongolia": "CN-NM", "tibet": "CN-XZ"},
    "RU": {
        "moscow": "RU-MOW",
        "saint petersburg": "RU-SPE",
        "st.-petersburg": "RU-SPE",
        "moscow oblast": "RU-MOS",
    },
    "MX": {"mexico city": "MX-CMX"},
    "EG": {"cairo": "EG-C", "giza": "EG-GZ", "alexandria": "EG-ALX"},
    "SA": {
        "riyadh region": "SA-01",
        "mecca region": "SA-02",
        "makkah region": "SA-02",
        "eastern province": "SA-04",
    },
    "CO": {"bogota d.c.": "CO-DC"},
    "AR": {"buenos aires f.d.": "AR-C"},
    "CL": {"santiago metropolitan": "CL-RM"},
    "TH": {"bangkok": "TH-10"},
    "AE": {"dubai": "AE-DU", "abu dhabi": "AE-AZ", "sharjah": "AE-SH"},
    "IL": {
        "tel aviv": "IL-TA",
        "jerusalem": "IL-JM",
        "haifa": "IL-HA",
        "central district": "IL-M",
        "northern district": "IL-Z",
        "southern district": "IL-D",
    },
    "DK": {
        "capital region": "DK-84",
        "central jutland": "DK-82",
        "north denmark": "DK-81",
        "zealand": "DK-85",
        "south denmark": "DK-83",
    },
    "UA": {"kyiv city": "UA-30", "kyiv": "UA-30"},
    "SE": {"stockholm": "SE-AB", "vastra gotaland": "SE-O", "gavleborg": "SE-X"},
    "GR": {"attica": "GR-I"},
    "BR": {"federal district": "BR-DF"},
    "VN": {"ho chi minh city (hcmc)": "VN-SG", "ho chi minh city": "VN-SG"},
    # The pre-2016 regions DB-IP still names, each wholly inside one of today's.
    "FR": {
        "rhone-alpes": "FR-ARA",
        "auvergne": "FR-ARA",
        "nord-pas-de-calais": "FR-HDF",
        "picardy": "FR-HDF",
        "aquitaine": "FR-NAQ",
        "limousin": "FR-NAQ",
        "poitou-charentes": "FR-NAQ",
        "midi-pyrenees": "FR-OCC",
        "languedoc-roussillon": "FR-OCC",
        "alsace": "FR-GES",
        "lorraine": "FR-GES",
        "champagne-ardenne": "FR-GES",
        "burgundy": "FR-BFC",
        "franche-comte": "FR-BFC",
        "lower normandy": "FR-NOR",
        "upper normandy": "FR-NOR",
        "brittany": "FR-BRE",
        "corsica": "FR-20R",
        "centre": "FR-CVL",
        "new aquitaine": "FR-NAQ",
        "normandy": "FR-NOR",
        "provence": "FR-PAC",
    },
}


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
    found: dict[str, set[str]] = {}
    for sub in pycountry.subdivisions.get(country_code=country) or []:  # type: ignore[no-untyped-call]
        before, comma, after = sub.name.partition(", ")
        for name in {sub.name, f"{after} {before}" if comma else sub.name}:
            form = plain(name)
            for key in {form, form.replace(" ", "")}:
                if key:
                    found.setdefault(key, set()).add(sub.code)
    return {key: codes.pop() for key, codes in found.items() if len(codes) == 1}
