"""Each address's time zone, from its coordinates (tzfpy), and when two zones keep one clock."""

from __future__ import annotations

from zoneinfo import available_timezones

import pytest

from chalicelib.reference.time_zones import same_clock, zone_at


@pytest.mark.parametrize(
    ("point", "zone"),
    [
        ((64.1466, -21.9426), "Atlantic/Reykjavik"),
        ((35.6895, 139.6917), "Asia/Tokyo"),
        ((25.0330, 121.5654), "Asia/Taipei"),
        ((42.5063, 1.5218), "Europe/Andorra"),
        ((31.7587, -106.4869), "America/Denver"),  # El Paso: Texas, Mountain time
        ((41.5934, -87.3464), "America/Chicago"),  # Gary: Indiana, Central time
        ((33.4484, -112.0740), "America/Phoenix"),
        ((-33.8688, 151.2093), "Australia/Sydney"),
    ],
)
def test_a_points_zone_is_the_iana_zone_it_lies_in(point: tuple[float, float], zone: str) -> None:
    found = zone_at(*point)
    assert found == zone
    assert found in available_timezones()


def test_zones_keep_the_same_clock_when_their_offsets_agree_all_year() -> None:
    assert same_clock("America/Indiana/Indianapolis", "America/New_York")
    assert same_clock("America/Boise", "America/Denver")
    assert not same_clock("America/Phoenix", "America/Denver")  # Arizona keeps no daylight time
    assert not same_clock("America/Chicago", "America/New_York")
