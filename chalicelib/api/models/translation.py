"""Address translation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import ApiModel, BodyModel, Id

Locale = Literal["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]
Provenance = Literal["source", "gazetteer", "converted", "original"]


class TranslationRequest(BodyModel):
    address_id: Id
    target_locale: Locale


class TranslationData(ApiModel):
    components: dict[str, str] = Field(description="At least street and houseNumber, in the target language")
    component_sources: dict[str, Provenance] = Field(
        description="How each component was obtained: source, gazetteer, converted or original"
    )
    lines: list[str]
    single_line: str


class TranslationResponse(ApiModel):
    data: TranslationData
