"""Fictitious test profiles: a name in the forms the country's forms ask for (names.py), an adult
date of birth, an e-mail at a domain reserved for documentation, and a phone from a range the
country's regulator reserves for fiction (reference/phones.py), else one no network can dial."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import cache
from typing import TYPE_CHECKING, Literal, cast

from chalicelib.reference.countries import facts
from chalicelib.reference.phones import RULES, Block, PhoneKind, area_keys, blocks
from chalicelib.reference.time_zones import same_clock, zone_at
from chalicelib.services.generation.names import NameSource, ProfileName, draw_name

if TYPE_CHECKING:
    from chalicelib.domain.addresses import PublishedAddress

# Reserved by RFC 2606 for documentation: never example.<ccTLD>, which can be registered.
EMAIL_DOMAINS = ("example.com", "example.net", "example.org")
# Every date in this range is an adult's birthday from 2024 on, and it does not move with "today",
# so a seed reproduces the same profile on any day.
BORN_FROM, BORN_TO = date(1940, 1, 1), date(2005, 12, 31)

Gender = Literal["female", "male"]


@dataclass(frozen=True)
class Phone:
    number: str  # libphonenumber's international format
    national: str | None  # as dialled within the country; None for an unassigned number
    e164: str
    kind: PhoneKind | Literal["unassigned"]
    area: str | None  # the area the number belongs to; None: the whole country
    dialable: bool
    note: str


@dataclass(frozen=True)
class TestProfile:
    name: ProfileName
    gender: Gender
    date_of_birth: date
    email: str
    phone: Phone


@cache
def _faker(locale: str) -> NameSource:
    from faker import Factory  # lazy: only generation pays for Faker's import

    # Names are all a profile takes from Faker: its person provider alone, not the locale's 25
    # (a seeded stream draws the same names either way, as each provider draws from the same one).
    return cast(NameSource, Factory.create(locale, providers=["faker.providers.person"]))


def make_profile(address: PublishedAddress, seed: int) -> TestProfile:
    """A profile that depends on the address and the seed alone."""
    rng = random.Random(seed)  # noqa: S311 - fictitious data, not secrets
    gender: Gender = rng.choice(("female", "male"))
    fake = _faker(facts(address.country).faker_locale)
    # Faker's own stream, seeded from ours: seeded with `seed` itself, its first draw would repeat
    # the gender's, and some names would never follow a gender.
    fake.seed_instance(rng.getrandbits(63))
    name = draw_name(address.country, fake, gender)
    born = BORN_FROM + timedelta(days=rng.randrange((BORN_TO - BORN_FROM).days + 1))
    return TestProfile(name, gender, born, _email(name, rng), fictional_phone(address, rng))


def _email(name: ProfileName, rng: random.Random) -> str:
    latin = name.latin or name.native
    local = ".".join(part for part in (_ascii(latin.given), _ascii(latin.family)) if part)
    local = f"{local}{rng.randrange(10, 100)}" if local else f"tester{rng.randrange(1000, 10000)}"
    return f"{local}@{rng.choice(EMAIL_DOMAINS)}"


# Letters that are not a Latin letter with a mark, so decomposition would drop them: written as
# the languages' own ASCII fallbacks (Þorleifsdóttir → thorleifsdottir, Łukasz → lukasz).
_LETTERS = str.maketrans({"ß": "ss", "þ": "th", "ð": "d", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d"})


def _ascii(text: str) -> str:
    folded = (
        unicodedata.normalize("NFKD", text.lower().translate(_LETTERS)).encode("ascii", "ignore").decode()
    )
    return "".join(ch for ch in folded if ch.isalnum())


def fictional_phone(address: PublishedAddress, rng: random.Random) -> Phone:
    """A number from the blocks of the address's own area where one exists (a mobile instead, half
    the time, where the regulator reserves mobiles too), else from the country's nationwide ones.
    Where the area's blocks say their time zones (NANP's area codes), those keeping the address's
    clock are preferred: an El Paso address gets Texas's 915 (Mountain time), not 512."""
    country = address.country
    options = blocks(country)
    if not options:
        return _unassigned(country, rng)
    parts = address.components
    keys = area_keys(parts.city, parts.region_code, parts.postcode)
    local = _in_its_time_zone(address, [b for b in options if b.serves & keys])
    nationwide = [b for b in options if not b.serves]
    kinds = sorted({b.kind for b in local} | {b.kind for b in nationwide if b.kind == "mobile"})
    if kinds:
        kind = rng.choice(kinds)
        pool = [b for b in (*local, *nationwide) if b.kind == kind]
    else:
        pool = nationwide or list(options)  # no state, or an overseas département: any block
    block = rng.choices(pool, weights=[b.size for b in pool])[0]
    phone = _filled(block, rng.randrange(block.size), country)
    return phone if block in local or not block.serves else replace(phone, area=None)  # not its own


def _in_its_time_zone(address: PublishedAddress, local: list[Block]) -> list[Block]:
    """The blocks whose time zones keep the address's clock; all of them where none does, or none
    says."""
    if not any(b.zones for b in local):
        return local
    zone = zone_at(address.lat, address.lon)
    return [b for b in local if any(same_clock(zone, z) for z in b.zones)] or local


def _filled(block: Block, drawn: int, country: str) -> Phone:
    digits = f"{drawn:0{block.international.count('#')}d}" if block.size > 1 else ""
    international, national = block.filled(digits)
    rule = RULES[country]
    return Phone(
        number=international,
        national=national,
        e164="+" + "".join(ch for ch in international if ch.isdigit()),
        kind=block.kind,
        area=block.area,
        dialable=True,
        note=f"reserved for fiction by {rule.regulator}: {rule.document}",
    )


def _unassigned(country: str, rng: random.Random) -> Phone:
    """Where no regulator reserves numbers for fiction: a number after the country code that no
    national number begins with (00), so no network routes it. Forms that validate reject it."""
    code = facts(country).calling_code
    local = f"{rng.randrange(1000):03d} {rng.randrange(10000):04d}"
    return Phone(
        number=f"+{code} 00 {local}",
        national=None,  # within the country, 00 starts an international call: no national form
        e164=f"+{code}00{local.replace(' ', '')}",
        kind="unassigned",
        area=None,
        dialable=False,
        note=f"no range is reserved for fiction in {country}: not dialable by construction "
        "(no national number begins with 00); phone validators reject it",
    )
