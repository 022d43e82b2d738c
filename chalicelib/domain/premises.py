"""What premises an address is, from its source's own classification only (docs/generation.md#property-types).

- A source's statement for a row (OpenAddresses' `use` extension: EduBase schools `institutional`)
  or for all its rows (a register that is a register of clinics) is taken as it stands.
- An OSM object's own tags: `building=*`, `shop=*`, `amenity=*`, `office=*`, `craft=*`,
  `tourism=*`, `healthcare=*`, `industrial=*`, `man_made=works`, `landuse=*`, each value in the
  tables below naming one type. Tags that name two types (an apartment block with a shop,
  `building=apartments` + `shop=bakery`) make the address `mixed`; tags that name none
  (`building=yes`, `amenity=parking`) leave it `unknown`, which never means residential.
- Health care (a hospital, a clinic, a doctor's practice) is institutional, as a school is."""

from __future__ import annotations

from collections.abc import Mapping

from chalicelib.domain.addresses import PropertyType

R, C, INST, N = (
    PropertyType.RESIDENTIAL,
    PropertyType.COMMERCIAL,
    PropertyType.INSTITUTIONAL,
    PropertyType.INDUSTRIAL,
)
# The OSM keys that speak of premises, as the reader keeps them.
PREMISES_KEYS = (
    "building",
    "shop",
    "amenity",
    "office",
    "craft",
    "tourism",
    "healthcare",
    "industrial",
    "man_made",
    "landuse",
)
_BUILDING = {
    **dict.fromkeys(
        ("house", "residential", "apartments", "detached", "semidetached_house", "terrace", "bungalow",
         "dormitory", "farm", "houseboat", "static_caravan", "cabin"),
        R,
    ),
    **dict.fromkeys(("commercial", "retail", "office", "shop", "supermarket", "kiosk", "hotel"), C),
    **dict.fromkeys(("industrial", "warehouse", "factory", "manufacture"), N),
    **dict.fromkeys(
        ("school", "university", "college", "hospital", "public", "civic", "government", "church",
         "kindergarten", "chapel", "mosque", "temple", "cathedral", "synagogue", "fire_station",
         "train_station"),
        INST,
    ),
}  # fmt: skip
_AMENITY = {
    **dict.fromkeys(
        ("restaurant", "cafe", "bar", "pub", "fast_food", "biergarten", "food_court", "ice_cream",
         "nightclub", "bank", "bureau_de_change", "pharmacy", "fuel", "car_wash", "car_rental",
         "cinema", "marketplace", "veterinary"),
        C,
    ),
    **dict.fromkeys(
        ("school", "university", "college", "kindergarten", "childcare", "library", "hospital",
         "clinic", "doctors", "dentist", "nursing_home", "social_facility", "townhall", "courthouse",
         "police", "fire_station", "prison", "post_office", "place_of_worship", "community_centre",
         "public_building"),
        INST,
    ),
}  # fmt: skip
_TOURISM = dict.fromkeys(("hotel", "hostel", "guest_house", "motel", "apartment", "chalet"), C)
_OFFICE_INSTITUTIONAL = {"government", "educational_institution", "diplomatic"}
_LANDUSE = {"residential": R, "commercial": C, "retail": C, "industrial": N}
_NONE = {"", "no", "vacant", "disused"}


def property_type(
    stated: str = "", tags: Mapping[str, str] | None = None, source_states: PropertyType | None = None
) -> PropertyType:
    """The row's own statement, else the source's for all its rows, else its tags' types: one
    type, `mixed` for more than one, `unknown` for none."""
    if stated in {t.value for t in PropertyType}:
        return PropertyType(stated)
    if source_states is not None:
        return source_states
    kinds = {k for key, value in (tags or {}).items() if (k := _named(key, value.casefold()))}
    if not kinds:
        return PropertyType.UNKNOWN
    return kinds.pop() if len(kinds) == 1 else PropertyType.MIXED


def _named(key: str, value: str) -> PropertyType | None:
    """The type one tag names, if any."""
    if value in _NONE:
        return None
    if key in ("shop", "craft"):
        return C
    if key == "office":
        return INST if value in _OFFICE_INSTITUTIONAL else C
    if key == "healthcare":
        return INST
    if key == "industrial" or (key == "man_made" and value == "works"):
        return N
    table = {"building": _BUILDING, "amenity": _AMENITY, "tourism": _TOURISM, "landuse": _LANDUSE}.get(key)
    return table.get(value) if table else None
