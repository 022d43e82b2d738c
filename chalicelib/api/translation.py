"""Address translation into display languages."""

from __future__ import annotations

from chalice.app import Blueprint

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.translation import TranslationRequest, TranslationResponse
from chalicelib.api.pending import not_yet_available
from chalicelib.domain.tokens import Scope

translation = Blueprint(__name__)


@endpoint(
    translation,
    Operation(
        method="POST",
        path="/api/v1/address-translation",
        name="translateAddress",
        tag="translation",
        summary="A published address in one of nine display languages",
        response=TranslationResponse,
        scope=Scope.GENERATE,
        body=TranslationRequest,
        errors=(404,),
        implemented=False,
    ),
)
def translate_address(call: Call[None, TranslationRequest]) -> TranslationResponse:
    raise not_yet_available("address translation")
