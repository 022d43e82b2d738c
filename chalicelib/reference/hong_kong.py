"""Hong Kong's 18 districts and the three areas they lie in, in English and Chinese: what the region
of a Hong Kong address is. ISO 3166-2 has no subdivisions of HK; its address forms (Google's rules)
ask for the area, `Kowloon`, `Hong Kong Island` or `New Territories` (九龍, 香港島, 新界).

The grouping is the HKSAR Government's (the District Council districts as the Census and
Statistics Department tabulates them under the three areas; the Home Affairs Department's 18
District Offices): https://www.info.gov.hk/gia/general/200108/31/table%201e.htm. The districts'
names are the District Councils' (https://www.districtcouncils.gov.hk)."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.domain.locations import value_key


@dataclass(frozen=True)
class Name:
    english: str
    chinese: str


HONG_KONG_ISLAND = Name("Hong Kong Island", "香港島")
KOWLOON = Name("Kowloon", "九龍")
NEW_TERRITORIES = Name("New Territories", "新界")
AREAS = (HONG_KONG_ISLAND, KOWLOON, NEW_TERRITORIES)

_DISTRICTS: dict[Name, Name] = {
    Name("Central and Western", "中西區"): HONG_KONG_ISLAND,
    Name("Wan Chai", "灣仔區"): HONG_KONG_ISLAND,
    Name("Eastern", "東區"): HONG_KONG_ISLAND,
    Name("Southern", "南區"): HONG_KONG_ISLAND,
    Name("Yau Tsim Mong", "油尖旺區"): KOWLOON,
    Name("Sham Shui Po", "深水埗區"): KOWLOON,
    Name("Kowloon City", "九龍城區"): KOWLOON,
    Name("Wong Tai Sin", "黃大仙區"): KOWLOON,
    Name("Kwun Tong", "觀塘區"): KOWLOON,
    Name("Kwai Tsing", "葵青區"): NEW_TERRITORIES,
    Name("Tsuen Wan", "荃灣區"): NEW_TERRITORIES,
    Name("Tuen Mun", "屯門區"): NEW_TERRITORIES,
    Name("Yuen Long", "元朗區"): NEW_TERRITORIES,
    Name("North", "北區"): NEW_TERRITORIES,
    Name("Tai Po", "大埔區"): NEW_TERRITORIES,
    Name("Sha Tin", "沙田區"): NEW_TERRITORIES,
    Name("Sai Kung", "西貢區"): NEW_TERRITORIES,
    Name("Islands", "離島區"): NEW_TERRITORIES,
}
_BY_NAME = {
    key: (district, area)
    for district, area in _DISTRICTS.items()
    for name in (district.english, district.chinese, f"{district.english} District", district.chinese[:-1])
    for key in (value_key(name),)
}


def district(name: str) -> tuple[Name, Name] | None:
    """The district a name stands for (English or Chinese, with or without 'District' or 區), and
    its area."""
    return _BY_NAME.get(value_key(name))


def area(name: str) -> Name | None:
    """The area an English or Chinese area name stands for."""
    key = value_key(name)
    return next((a for a in AREAS if key in (value_key(a.english), value_key(a.chinese))), None)
