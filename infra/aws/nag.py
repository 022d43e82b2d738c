"""cdk-nag's AwsSolutions findings this design accepts, each with its reason. Anything else
cdk-nag reports is an error the tests fail on (tests/infra)."""

from __future__ import annotations

from cdk_nag import NagPackSuppression, NagSuppressions

from infra.aws.service import ServiceStack


def _objects(stack: ServiceStack, prefix: str) -> str:
    bucket = stack.resolve(stack.data.bucket.node.default_child.logical_id)  # type: ignore[union-attr]
    return f"Resource::<{bucket}.Arn>/{prefix}*"


def acknowledge(stack: ServiceStack) -> ServiceStack:
    path = f"/{stack.node.id}"
    suppress = NagSuppressions.add_resource_suppressions_by_path
    suppress(
        stack,
        f"{path}/Data/RateLimits/Resource",
        [
            _why(
                "AwsSolutions-DDB3",
                "one-minute rate counters, expired by TTL: nothing to recover to a point in time",
            )
        ],
    )
    suppress(
        stack,
        f"{path}/Data/Files/Resource",
        [
            _why(
                "AwsSolutions-S1",
                "holds published open data (source files, the DB-IP Lite release) and re-derivable sync "
                "intermediates, written and read only by this stack's roles; CloudTrail data events can "
                "audit it where required",
            )
        ],
    )
    suppress(
        stack,
        f"{path}/Data/CursorSecret/Resource",
        [
            _why(
                "AwsSolutions-SMG4",
                "rotating the cursor key invalidates every open paging cursor; it is rotated by hand "
                "(docs/deploy.md: rotating the cursor secret), each Lambda reading it at cold start",
            )
        ],
    )
    suppress(
        stack,
        f"{path}/APIHandlerRole/DefaultPolicy/Resource",
        [
            _objects_why(
                stack, "ip-database/", "GetObject of the DB-IP files under their prefix, copied at first use"
            )
        ],
    )
    xray = NagPackSuppression(
        id="AwsSolutions-IAM5",
        reason="X-Ray's trace writes take no resource ARN (AWS requires '*'); the functions trace actively",
        applies_to=["Resource::*"],
    )
    for function in ("APIHandler", "SyncPool", "SyncStep"):
        suppress(stack, f"{path}/{function}Role/DefaultPolicy/Resource", [xray])
    sources = "the source files the acquisition stores under this prefix (written by the Lambda only)"
    work = "a sync run's intermediate files, named per run and task under this prefix"
    sync_objects = [_objects_why(stack, "sources/", sources), _objects_why(stack, "sync-work/", work)]
    suppress(stack, f"{path}/SyncStepRole/DefaultPolicy/Resource", sync_objects)
    suppress(stack, f"{path}/SyncTask/Task/TaskRole/DefaultPolicy/Resource", sync_objects)
    suppress(
        stack,
        f"{path}/SyncTask/Task/Resource",
        [
            _why(
                "AwsSolutions-ECS2",
                "the variables are the sync_step Lambda's non-secret settings (table names, bucket "
                "locations, the stage); the task is given no secret",
            )
        ],
    )
    suppress(
        stack,
        f"{path}/SyncTask/Task/ExecutionRole/DefaultPolicy/Resource",
        [
            NagPackSuppression(
                id="AwsSolutions-IAM5",
                reason="ecr:GetAuthorizationToken takes no resource ARN (AWS requires '*'); pulls are "
                "granted on the image's repository only",
                applies_to=["Resource::*"],
            )
        ],
    )
    machine_runs = (
        "Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:"
        f"{stack.state_machine_name}:*"
    )
    suppress(
        stack,
        f"{path}/Sync/Role/DefaultPolicy/Resource",
        [
            NagPackSuppression(
                id="AwsSolutions-IAM5",
                reason="X-Ray trace writes and CloudWatch Logs delivery for Step Functions take no "
                "resource ARN (AWS requires '*'); the Distributed Map's child executions are named at "
                "run time, under this state machine only, as are the container tasks it runs, in its "
                "cluster only; its ItemReader reads the run's item lists under the work prefix",
                applies_to=[
                    "Resource::*",
                    machine_runs,
                    _objects(stack, "sync-work/"),
                    _cluster_tasks(stack),
                ],
            )
        ],
    )
    suppress(
        stack,
        f"{path}/Gateway/CloudWatchRole/Resource",
        [
            NagPackSuppression(
                id="AwsSolutions-IAM4",
                reason="API Gateway's account-level logging role: AWS's managed policy for this purpose",
                applies_to=[
                    "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs"
                ],
            )
        ],
    )
    _acknowledge_bucket_deployment(stack)
    return stack


def _acknowledge_bucket_deployment(stack: ServiceStack) -> None:
    """The CDK's own BucketDeployment handler (a singleton Lambda that copies the DB-IP release
    from the CDK asset bucket at deploy time): its runtime and grants are the CDK's, not ours."""
    for child in stack.node.children:
        if not child.node.id.startswith("Custom::CDKBucketDeployment"):
            continue
        NagSuppressions.add_resource_suppressions(
            child,
            [
                _why(
                    "AwsSolutions-L1", "the CDK pins this handler's runtime; it runs only during deployments"
                ),
                _why("AwsSolutions-IAM4", "the CDK's handler uses the basic execution role for its logs"),
                _why(
                    "AwsSolutions-IAM5",
                    "the CDK grants its handler read of the asset bucket and write of the destination bucket "
                    "(object wildcards by design)",
                ),
            ],
            apply_to_children=True,
        )


def _why(rule: str, reason: str) -> NagPackSuppression:
    return NagPackSuppression(id=rule, reason=reason)


def _objects_why(stack: ServiceStack, prefix: str, reason: str) -> NagPackSuppression:
    return NagPackSuppression(id="AwsSolutions-IAM5", reason=reason, applies_to=[_objects(stack, prefix)])


def _cluster_tasks(stack: ServiceStack) -> str:
    cluster = stack.resolve(stack.sync_task.cluster.node.default_child.logical_id)  # type: ignore[union-attr]
    return f"Resource::arn:<AWS::Partition>:ecs:<AWS::Region>:<AWS::AccountId>:task/<{cluster}>/*"
