"""Address translation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import ApiModel, BodyModel, Id

Locale = Literal["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]
Provenance = Literal["source", "gazetteer", "converted", "original"]


class TranslationRequest(BodyModel):
    """Which address, in which display language"""

    address_id: Id
    """A currently published address's ID"""
    target_locale: Locale
    """en, zh-CN, zh-TW, ja, ko, de, fr, es or pt"""


class TranslationData(ApiModel):
    """The address written for a reader of the target language"""

    components: dict[str, str] = Field(description="At least street and houseNumber, in the target language")
    component_sources: dict[str, Provenance] = Field(
        description="How each component was obtained: source, gazetteer, converted or original"
    )
    lines: list[str]
    """The address as lines of an envelope, in the locale's order"""
    single_line: str
    """The same on one line"""


class TranslationResponse(ApiModel):
    """The answer of POST /api/v1/address-translation"""

    data: TranslationData
    """The translated address"""
