"""The IANA time zone of a point, offline, and whether two zones keep the same clock.

tzfpy 2.1.1 (MIT) answers from timezone-boundary-builder's boundaries (ODbL-1.0, tz release 2026e),
simplified so that every border stays within about 111 m of the full-precision one: a point closer
than that to a time-zone border may get its neighbour's zone. At sea it answers `Etc/GMT±n`.
Imported on first use: it builds its finder then (some 80 ms, 40 MB), which a request that
serves no address does not pay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

# One instant in each half of the year: a zone's standard and daylight offsets both count.
_INSTANTS = (datetime(2026, 1, 15, 12, tzinfo=UTC), datetime(2026, 7, 15, 12, tzinfo=UTC))


def zone_at(lat: float, lon: float) -> str:
    """The IANA name of the time zone at the point (`America/Denver`)."""
    import tzfpy

    return str(tzfpy.get_tz(lon, lat))


@cache
def clock(zone: str) -> tuple[timedelta | None, ...]:
    """What the zone's clocks read against UTC in January and in July."""
    tz = ZoneInfo(zone)
    return tuple(instant.astimezone(tz).utcoffset() for instant in _INSTANTS)


def same_clock(zone: str, other: str) -> bool:
    """Whether two zones keep the same time all year (`America/Indiana/Indianapolis` and
    `America/New_York` do; `America/Phoenix` and `America/Denver` do not: Arizona keeps no
    daylight time)."""
    return zone == other or clock(zone) == clock(other)
