"""The filters a generation request names (its query, or a batch's `filters`), parsed into the
service's Filters: 400 naming the field for what the models' own checks cannot say."""

from __future__ import annotations

from chalicelib.api.models.requests import LocationFilters
from chalicelib.domain.geo import Area, Box, Circle
from chalicelib.domain.locations import LocationType
from chalicelib.domain.partitions import WHOLE, Partition
from chalicelib.errors import ErrorDetail, InvalidRequest
from chalicelib.services.generation.selection import Filters

_LEVELS = (
    (LocationType.REGION, "region", "region_id"),
    (LocationType.CITY, "city", "city_id"),
    (LocationType.DISTRICT, "district", "district_id"),
    (LocationType.POSTCODE, "postcode", "postcode_id"),
)


def filters_of(source: LocationFilters, country: str, residential: bool | None, complete: bool) -> Filters:
    values = {kind: v for kind, name, _ in _LEVELS if (v := getattr(source, name)) is not None}
    ids = {kind: v for kind, _, name in _LEVELS if (v := getattr(source, name)) is not None}
    licences = tuple(source.license.split(",")) if source.license else ()
    traits = tuple(source.traits.split(",")) if source.traits else ()
    return Filters(
        country=country,
        values=values,
        ids=ids,
        q=source.q,
        residential=residential,
        complete=complete,
        licences=licences,
        traits=traits,
        property_type=source.property_type,
        area=area_of(source),
        partition=partition_of(source.partition),
    )


def partition_of(text: str | None) -> Partition:
    """The part `i/n` names (its model checked 0 <= i < n); none: the whole pool."""
    if text is None:
        return WHOLE
    index, count = (int(v) for v in text.split("/"))
    return Partition(index, count)


def area_of(source: LocationFilters) -> Area | None:
    """The circle of `near` and `radius` or the box of `bbox`; 400 naming the field at fault (the
    service refuses an area too large to read: services/generation/selection.py)."""
    if source.near is None and source.radius is not None:
        raise InvalidRequest.of_field("radius", "radius needs near=<latitude>,<longitude>")
    if source.near is not None:
        if source.bbox is not None:
            raise InvalidRequest.of_field("bbox", "give near and radius, or bbox, not both")
        if source.radius is None:
            raise InvalidRequest.of_field("radius", "near needs radius=<metres>, 1 to 50000")
        lat, lon = (float(v) + 0.0 for v in source.near.split(","))  # + 0.0: -0 is 0
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise InvalidRequest.of_field("near", "latitude -90 to 90, longitude -180 to 180")
        return Circle(lat, lon, source.radius)
    if source.bbox is None:
        return None
    west, south, east, north = (float(v) for v in source.bbox.split(","))
    if not (-90 <= south <= north <= 90 and -180 <= west <= east <= 180):
        raise InvalidRequest.of_field(
            "bbox", "west,south,east,north: west <= east (not across the antimeridian), south <= north"
        )
    return Box(south + 0.0, west + 0.0, north + 0.0, east + 0.0)


def check_mode(mode: str | None, ip: str | None, variant: str | None) -> None:
    """`ip` only with mode=ip-region, and no near-miss variant there."""
    if mode != "ip-region" and ip is not None:
        raise InvalidRequest(
            "ip is only used with mode=ip-region", (ErrorDetail("ip", "needs mode=ip-region"),)
        )
    if mode == "ip-region" and variant is not None:
        message = "variant is not available with mode=ip-region"
        raise InvalidRequest(message, (ErrorDetail("variant", message),))
