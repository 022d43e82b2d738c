"""The environment the local stack runs with: the dev stage's settings from .chalice/config.json,
pointed at DynamoDB Local with throwaway credentials (DynamoDB Local accepts any)."""

from __future__ import annotations

import json
import os
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
LOCAL_STAGE = "dev"
# The published sample sources beside the checkout, read in place (never copied into the repo).
SHARED_MANIFEST = PROJECT_DIR.parent / "shared" / "sources" / "manifest.json"
# The replica of Overture's addresses bucket (`make run DATA=overture` serves its newest release).
OVERTURE_REPLICA = PROJECT_DIR.parent / "shared" / "sources" / "overture"
DATA_SETS = ("samples", "overture")
# DB-IP Lite City (CC BY 4.0, IP geolocation by DB-IP), installed by npm with the local stack.
IP_DATABASE = PROJECT_DIR / "infra" / "local" / "node_modules" / "@ip-location-db" / "dbip-city-mmdb"


def stage_variables(stage: str = LOCAL_STAGE, project_dir: Path = PROJECT_DIR) -> dict[str, str]:
    config = json.loads((project_dir / ".chalice" / "config.json").read_text())
    return {
        **config.get("environment_variables", {}),
        **config["stages"][stage].get("environment_variables", {}),
    }


def local_environment(
    ddb_endpoint: str, stage: str = LOCAL_STAGE, manifest: Path = SHARED_MANIFEST
) -> dict[str, str]:
    return {
        **stage_variables(stage),
        "AWS_ENDPOINT_URL_DYNAMODB": ddb_endpoint,
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "SYNC_MANIFEST": str(manifest),
        "IP_DATABASE": str(IP_DATABASE),
    }


def dev_dir(data: str) -> Path:
    """Where a data set's local database and work live: each its own, so neither mixes with the other."""
    return PROJECT_DIR / ".dev" if data == "samples" else PROJECT_DIR / ".dev" / data


# Where `make run` notes the ports it serves on while it runs, for `make token` and the CLI.
PORTS_FILE = "stack.json"
DEFAULT_PORT, DEFAULT_DDB_PORT = 8000, 8001


def remember_ports(dev: Path, port: int, ddb_port: int) -> None:
    (dev / PORTS_FILE).write_text(json.dumps({"port": port, "ddbPort": ddb_port}) + "\n")


def forget_ports(dev: Path) -> None:
    (dev / PORTS_FILE).unlink(missing_ok=True)


def noted_ports(dev: Path) -> tuple[int, int] | None:
    """The API's and DynamoDB Local's ports `make run` noted for this folder, if it did."""
    try:
        noted = json.loads((dev / PORTS_FILE).read_text())
        return int(noted["port"]), int(noted["ddbPort"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def running_ddb_port(dev: Path) -> int:
    """DDB_PORT when given; else the running stack's, as `make run` noted it; else the default."""
    if given := os.environ.get("DDB_PORT", "").strip():
        return int(given)
    noted = noted_ports(dev)
    return noted[1] if noted else DEFAULT_DDB_PORT
