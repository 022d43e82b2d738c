"""The nine display locales and what the resolution chain needs to know about each."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DisplayLocale:
    tag: str  # as the API names it
    language: str  # the language part, as sources tag their names
    script: str  # "Latn", "Hans", "Hant", "Jpan" or "Kore": what the output is written in
    babel: str  # the CLDR locale for country names
    iso_gettext: str  # pycountry's locale for ISO 3166-2 translations ("" for the ISO names)

    @property
    def latin(self) -> bool:
        return self.script == "Latn"

    @property
    def east_asian(self) -> bool:
        return not self.latin


LOCALES = {
    "en": DisplayLocale("en", "en", "Latn", "en", ""),
    "de": DisplayLocale("de", "de", "Latn", "de", "de"),
    "fr": DisplayLocale("fr", "fr", "Latn", "fr", "fr"),
    "es": DisplayLocale("es", "es", "Latn", "es", "es"),
    "pt": DisplayLocale("pt", "pt", "Latn", "pt", "pt"),
    "zh-CN": DisplayLocale("zh-CN", "zh", "Hans", "zh_Hans_CN", "zh_CN"),
    "zh-TW": DisplayLocale("zh-TW", "zh", "Hant", "zh_Hant_TW", "zh_TW"),
    "ja": DisplayLocale("ja", "ja", "Jpan", "ja", "ja"),
    "ko": DisplayLocale("ko", "ko", "Kore", "ko", "ko"),
}

# A country's primary source language (countries.json "language") as script-qualified tags.
PRIMARY_SCRIPT = {"zh-Hans": "Hans", "zh-Hant": "Hant", "ja": "Jpan", "ko": "Kore"}


def speaks(primary: str, locale: DisplayLocale) -> bool:
    """Whether text in a country's primary language is already in the target locale's language
    and script (zh-Hans text is zh-CN, not zh-TW)."""
    language, _, script = primary.partition("-")
    if language != locale.language:
        return False
    return not script or PRIMARY_SCRIPT.get(primary) == locale.script
