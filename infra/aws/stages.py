"""What differs between the deployed stages; everything else is the same code."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    name: str  # the Chalice stage in .chalice/config.json, and the CDK stack's id
    production: bool  # deletion protection, retained data, longer log retention
    throttle_rate: int  # API Gateway stage default: steady requests per second
    throttle_burst: int
    sync_concurrency: int  # Lambda workers per Distributed Map stage of the sync

    @property
    def prefix(self) -> str:
        """Names of the stage's resources, as .chalice/config.json's table names spell them."""
        return f"ags-{self.name}"


STAGES = {
    "dev": Stage("dev", production=False, throttle_rate=50, throttle_burst=100, sync_concurrency=20),
    "prod": Stage("prod", production=True, throttle_rate=500, throttle_burst=1000, sync_concurrency=100),
}
