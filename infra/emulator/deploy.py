"""The synthesized stack, deployed to the emulator as `cdk deploy` would deploy it to an account:
the file assets published to the bootstrap bucket, the bootstrap version in SSM, then one
CloudFormation stack from the template (SAM expanded by the emulator with aws-sam-translator).

Three kinds of resource the emulator cannot create are taken out of the template, each for a
reason of the emulator's, and stood in for (docs/deploy.md: the local emulator):

- `AWS::EC2::FlowLog`, `AWS::WAFv2::WebACLAssociation`: types ministack does not know; nothing
  refers to them (the web ACL itself is created).
- `Custom::CDKBucketDeployment`: its handler runs the AWS CLI from a layer at /opt/awscli, a path
  the emulator's local functions do not have; the deployer copies the same asset into the bucket.
- `Custom::S3AutoDeleteObjects`: its Node.js handler's answer never reaches the emulator's
  CloudFormation, which then waits an hour; the teardown empties the bucket itself.

The emulator's API import skips `x-amazon-apigateway-gateway-responses` (AWS imports it): the
deployer puts the definition's responses with PutGatewayResponse and deploys the stage again (a
stage serves the responses its deployment captured), as the import would have.

One intrinsic differs: ministack's `Ref` of an `AWS::SecretsManager::Secret` gives its name, AWS's
its ARN; the deployer asks for `Fn::GetAtt [secret, Id]`, the ARN in both.

Docker image assets (the sync's Fargate task) are not built: there is no Docker here."""

from __future__ import annotations

import io
import json
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from infra.emulator.ministack import ACCOUNT, REGION

BOOTSTRAP_QUALIFIER = "hnb659fds"
ASSET_BUCKET = f"cdk-{BOOTSTRAP_QUALIFIER}-assets-{ACCOUNT}-{REGION}"
STOOD_IN_FOR = {
    "AWS::EC2::FlowLog": "a resource type the emulator does not know",
    "AWS::WAFv2::WebACLAssociation": "a resource type the emulator does not know",
    "Custom::CDKBucketDeployment": "its handler needs the AWS CLI at /opt; the deployer copies the files",
    "Custom::S3AutoDeleteObjects": "its answer never reaches the emulator; the teardown empties the bucket",
}
STACK_TIMEOUT_SECONDS = 600


class DeployError(RuntimeError):
    pass


@dataclass
class Deployed:
    stack: str
    resources: dict[str, str]  # logical id -> physical id
    types: dict[str, str]  # logical id -> resource type
    outputs: dict[str, str]
    removed: list[tuple[str, str]] = field(default_factory=list)  # (logical id, type)

    def physical(self, kind: str) -> str:
        """The one resource of this type (the bucket, say)."""
        [found] = [self.resources[k] for k, t in self.types.items() if t == kind]
        return found


def deploy(cdk_out: Path, stage: str, stack_name: str) -> Deployed:
    s3, cfn = boto3.client("s3"), boto3.client("cloudformation")
    _bootstrap(s3)
    assets = json.loads((cdk_out / f"{stage}.assets.json").read_text())
    published = _publish_files(s3, cdk_out, assets)
    template = json.loads((cdk_out / f"{stage}.template.json").read_text())
    removed = _remove_what_the_emulator_cannot_create(template)
    _secret_refs_as_arns(template)
    key = f"emulated-{stage}.template.json"
    s3.put_object(Bucket=ASSET_BUCKET, Key=key, Body=json.dumps(template).encode())
    cfn.create_stack(
        StackName=stack_name,
        TemplateURL=f"{s3.meta.endpoint_url}/{ASSET_BUCKET}/{key}",
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"],
        OnFailure="DO_NOTHING",  # keep what came up, to report what did not
    )
    status = _wait(cfn, stack_name)
    if status != "CREATE_COMPLETE":
        raise DeployError(f"{stack_name}: {status}\n" + "\n".join(_failures(cfn, stack_name)))
    deployed = _describe(cfn, stack_name)
    deployed.removed = removed
    original = json.loads((cdk_out / f"{stage}.template.json").read_text())["Resources"]
    _copy_bucket_deployments(s3, original, deployed, published)
    _put_gateway_responses(original, deployed)
    return deployed


def destroy(stack_name: str, bucket: str | None) -> None:
    s3, cfn = boto3.client("s3"), boto3.client("cloudformation")
    if bucket:
        _empty(s3, bucket)
    cfn.delete_stack(StackName=stack_name)
    status = _wait(cfn, stack_name, done=("DELETE_COMPLETE", "DELETE_FAILED"))
    if status != "DELETE_COMPLETE":
        raise DeployError(f"{stack_name}: {status}\n" + "\n".join(_failures(cfn, stack_name)))


def _bootstrap(s3: Any) -> None:
    """What `cdk bootstrap` leaves that a deployment reads: the asset bucket and the version."""
    s3.create_bucket(Bucket=ASSET_BUCKET)
    boto3.client("ssm").put_parameter(
        Name=f"/cdk-bootstrap/{BOOTSTRAP_QUALIFIER}/version", Value="30", Type="String", Overwrite=True
    )


def _publish_files(s3: Any, cdk_out: Path, assets: dict[str, Any]) -> dict[str, bytes]:
    """Each file asset, zipped when it is a folder, at the key the template names; by key."""
    published = {}
    for asset in assets.get("files", {}).values():
        source = cdk_out / asset["source"]["path"]
        body = _zip_folder(source) if asset["source"]["packaging"] == "zip" else source.read_bytes()
        for destination in asset["destinations"].values():
            s3.put_object(Bucket=ASSET_BUCKET, Key=destination["objectKey"], Body=body)
            published[destination["objectKey"]] = body
    return published


def _zip_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def _remove_what_the_emulator_cannot_create(template: dict[str, Any]) -> list[tuple[str, str]]:
    resources = template["Resources"]
    removed = [(k, r["Type"]) for k, r in resources.items() if r["Type"] in STOOD_IN_FOR]
    for logical_id, _ in removed:
        del resources[logical_id]
    return removed


def _secret_refs_as_arns(template: dict[str, Any]) -> None:
    secrets = {k for k, r in template["Resources"].items() if r["Type"] == "AWS::SecretsManager::Secret"}

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            if set(node) == {"Ref"} and node["Ref"] in secrets:
                return {"Fn::GetAtt": [node["Ref"], "Id"]}
            return {key: rewrite(value) for key, value in node.items()}
        if isinstance(node, list):
            return [rewrite(value) for value in node]
        return node

    template["Resources"] = rewrite(template["Resources"])


def _copy_bucket_deployments(
    s3: Any, resources: dict[str, Any], deployed: Deployed, published: dict[str, bytes]
) -> None:
    """What each removed BucketDeployment would have copied: its asset zip's files, unpacked
    under the destination prefix of the stack's bucket."""
    for logical_id, kind in deployed.removed:
        if kind != "Custom::CDKBucketDeployment":
            continue
        properties = resources[logical_id]["Properties"]
        bucket = deployed.resources[properties["DestinationBucketName"]["Ref"]]
        prefix = properties.get("DestinationBucketKeyPrefix", "")
        for key in properties["SourceObjectKeys"]:
            with zipfile.ZipFile(io.BytesIO(published[key])) as archive:
                for name in archive.namelist():
                    s3.put_object(Bucket=bucket, Key=f"{prefix}{name}", Body=archive.read(name))


def _put_gateway_responses(resources: dict[str, Any], deployed: Deployed) -> None:
    apigateway = boto3.client("apigateway")
    for logical_id, resource in resources.items():
        if resource["Type"] != "AWS::Serverless::Api":
            continue
        api_id = deployed.resources[logical_id]
        responses = resource["Properties"]["DefinitionBody"].get("x-amazon-apigateway-gateway-responses", {})
        for response_type, response in responses.items():
            extra = {"statusCode": response["statusCode"]} if "statusCode" in response else {}
            apigateway.put_gateway_response(
                restApiId=api_id,
                responseType=response_type,
                responseParameters=response.get("responseParameters", {}),
                responseTemplates=response.get("responseTemplates", {}),
                **extra,
            )
        apigateway.create_deployment(restApiId=api_id, stageName=resource["Properties"]["StageName"])


def _wait(cfn: Any, stack: str, done: tuple[str, ...] = ()) -> str:
    deadline = time.monotonic() + STACK_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            status = str(cfn.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"])
        except cfn.exceptions.ClientError:
            return "DELETE_COMPLETE"  # gone
        if not status.endswith("_IN_PROGRESS") or status in done:
            return status
        time.sleep(1)
    raise DeployError(f"{stack}: still in progress after {STACK_TIMEOUT_SECONDS}s")


def _failures(cfn: Any, stack: str) -> list[str]:
    events = cfn.describe_stack_events(StackName=stack)["StackEvents"]
    return [
        f"  {e['LogicalResourceId']} ({e['ResourceType']}): {e.get('ResourceStatusReason', '')[:400]}"
        for e in events
        if e["ResourceStatus"].endswith("_FAILED")
    ]


def _describe(cfn: Any, stack: str) -> Deployed:
    described = cfn.describe_stack_resources(StackName=stack)["StackResources"]
    resources = {r["LogicalResourceId"]: r.get("PhysicalResourceId", "") for r in described}
    types = {r["LogicalResourceId"]: r["ResourceType"] for r in described}
    outputs = {
        o["OutputKey"]: o["OutputValue"]
        for o in cfn.describe_stacks(StackName=stack)["Stacks"][0].get("Outputs", [])
    }
    return Deployed(stack, resources, types, outputs)


def _empty(s3: Any, bucket: str) -> None:
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        keys = [{"Key": o["Key"]} for o in page.get("Contents", [])]
        if keys:
            s3.delete_objects(Bucket=bucket, Delete={"Objects": keys})


def function_errors(limit: int = 5) -> list[str]:
    """The last errors the functions logged (CloudWatch Logs in the emulator), for a failed run."""
    logs = boto3.client("logs")
    found = []
    for group in logs.describe_log_groups()["logGroups"]:
        events = logs.filter_log_events(logGroupName=group["logGroupName"]).get("events", [])
        errors = [
            e["message"].strip()
            for e in events
            if any(mark in e["message"] for mark in ('"ERROR"', '"WARN"', "Traceback"))
        ]
        found += [f"{group['logGroupName']}: {message[:3000]}" for message in errors[-limit:]]
    return found
