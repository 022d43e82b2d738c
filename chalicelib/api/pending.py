"""What a described-but-unbuilt endpoint raises, so the 501 answers read the same everywhere."""

from __future__ import annotations

from chalicelib.errors import NotYetAvailable


def not_yet_available(feature: str) -> NotYetAvailable:
    return NotYetAvailable(f"{feature} is described in the OpenAPI document but not served yet")
