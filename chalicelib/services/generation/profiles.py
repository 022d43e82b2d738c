"""Fictitious test profiles: a name in the forms the country's forms ask for (names.py), an adult
date of birth, an e-mail at a domain reserved for documentation, and a phone from a range the
country's regulator reserves for fiction (reference/phones.py), else one no network can dial."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import TYPE_CHECKING, Literal, cast

from chalicelib.domain.reserved_names import RESERVED_EMAIL_DOMAINS
from chalicelib.reference.countries import facts
from chalicelib.reference.fictional_numbers import Phone, fictional_phone
from chalicelib.services.generation.names import NameSource, ProfileName, draw_name

if TYPE_CHECKING:
    from chalicelib.domain.addresses import PublishedAddress

# Reserved by RFC 2606 for documentation: never example.<ccTLD>, which can be registered.
EMAIL_DOMAINS = RESERVED_EMAIL_DOMAINS
# Every date in this range is an adult's birthday from 2024 on, and it does not move with "today",
# so a seed reproduces the same profile on any day.
BORN_FROM, BORN_TO = date(1940, 1, 1), date(2005, 12, 31)

Gender = Literal["female", "male"]


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


def make_profile(
    address: PublishedAddress, time_zone: str, seed: int, email_domain: str | None = None
) -> TestProfile:
    """A profile that depends on the address (in its `time_zone`) and the seed alone; its e-mail
    in `email_domain` where the caller gives one it owns (the rest of the profile unchanged)."""
    rng = random.Random(seed)  # noqa: S311 - fictitious data, not secrets
    gender: Gender = rng.choice(("female", "male"))
    fake = _faker(facts(address.country).faker_locale)
    # Faker's own stream, seeded from ours: seeded with `seed` itself, its first draw would repeat
    # the gender's, and some names would never follow a gender.
    fake.seed_instance(rng.getrandbits(63))
    name = draw_name(address.country, fake, gender)
    born = BORN_FROM + timedelta(days=rng.randrange((BORN_TO - BORN_FROM).days + 1))
    email = _email(name, rng, email_domain)  # before the phone: both draw from rng, in this order
    return TestProfile(
        name, gender, born, email, fictional_phone(address.country, address.components, time_zone, rng)
    )


def _email(name: ProfileName, rng: random.Random, domain: str | None) -> str:
    latin = name.latin or name.native
    local = ".".join(part for part in (_ascii(latin.given), _ascii(latin.family)) if part)
    local = f"{local}{rng.randrange(10, 100)}" if local else f"tester{rng.randrange(1000, 10000)}"
    reserved = rng.choice(EMAIL_DOMAINS)  # drawn either way: the phone after it stays the same
    return f"{local}@{domain or reserved}"


# Letters that are not a Latin letter with a mark, so decomposition would drop them: written as
# the languages' own ASCII fallbacks (Þorleifsdóttir → thorleifsdottir, Łukasz → lukasz).
_LETTERS = str.maketrans({"ß": "ss", "þ": "th", "ð": "d", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d"})


def _ascii(text: str) -> str:
    folded = (
        unicodedata.normalize("NFKD", text.lower().translate(_LETTERS)).encode("ascii", "ignore").decode()
    )
    return "".join(ch for ch in folded if ch.isalnum())
