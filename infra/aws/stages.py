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
    # Reserved concurrency (docs/deploy.md: Production choices): the API keeps this many instances however
    # busy the sync is, and the sync's workers can never take more than the Map runs at once.
    api_concurrency: int
    # WAF's rate rule: requests per client IP in 5 minutes before WAF answers 429 for the rest of
    # the window (the stage throttle caps everyone together; this caps one client).
    waf_ip_limit: int
    # The sync's first state discovers the upstreams (Overture's newest release, Geofabrik's
    # extracts) and writes the manifest; without it the operator's manifest is synced as written.
    discovery: bool

    @property
    def prefix(self) -> str:
        """Names of the stage's resources, as .chalice/config.json's table names spell them."""
        return f"ags-{self.name}"

    @property
    def api_name(self) -> str:
        """The REST API's name, unique per stage (Chalice would name both after the app)."""
        return f"{self.prefix}-api"


STAGES = {
    "dev": Stage(
        "dev",
        production=False,
        throttle_rate=50,
        throttle_burst=100,
        sync_concurrency=20,
        api_concurrency=20,
        waf_ip_limit=3_000,
        discovery=False,  # the samples' manifest: a dev deployment stays small and cheap
    ),
    "prod": Stage(
        "prod",
        production=True,
        throttle_rate=500,
        throttle_burst=1000,
        sync_concurrency=100,
        api_concurrency=200,
        waf_ip_limit=15_000,
        discovery=True,
    ),
}
