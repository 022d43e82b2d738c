"""The drawn address's place for a browser: where it is, its clock and its country's primary
language (BCP 47, CLDR's likely subtags), as Playwright's browser context takes them. With
pytest-playwright:

    @pytest.fixture
    def browser_context_args(browser_context_args, real_address):
        return {**browser_context_args, **context_args(real_address)}
"""

from __future__ import annotations

from typing import Any

from ags_testkit.records import GeneratedAddress

# Each served country's primary locale, as the TypeScript kit's (src/place.ts) lists them.
PRIMARY_LOCALES = {
    "AD": "ca-AD", "AT": "de-AT", "AU": "en-AU", "BE": "nl-BE", "BR": "pt-BR", "CA": "en-CA", "CH": "de-CH",
    "CN": "zh-CN", "CZ": "cs-CZ", "DE": "de-DE", "DK": "da-DK", "ES": "es-ES", "FI": "fi-FI", "FR": "fr-FR",
    "GB": "en-GB", "HK": "zh-HK", "IS": "is-IS", "IT": "it-IT", "JP": "ja-JP", "KR": "ko-KR", "LI": "de-LI",
    "MC": "fr-MC", "NL": "nl-NL", "NO": "nb-NO", "PL": "pl-PL", "PT": "pt-PT", "RU": "ru-RU", "SE": "sv-SE",
    "SG": "en-SG", "TW": "zh-TW", "US": "en-US", "VN": "vi-VN",
}  # fmt: skip


def context_args(drawn: GeneratedAddress) -> dict[str, Any]:
    """Playwright's `new_context` options that stand the browser at the address: its point (to
    10 m, the permission granted), its time zone and its country's primary locale."""
    address = drawn["address"]
    point, country = address["coordinates"], address["countryCode"]
    return {
        "geolocation": {"latitude": point["latitude"], "longitude": point["longitude"], "accuracy": 10},
        "permissions": ["geolocation"],
        "timezone_id": address["timeZone"],
        "locale": PRIMARY_LOCALES.get(country, f"en-{country}"),
    }
