"""The deployable definition, checked offline: what each stage's template creates (CDK's
assertions), that CloudFormation's linter finds no error in it, and that cdk-nag's AwsSolutions
checks pass with only the findings infra/aws/nag.py acknowledges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aws_cdk.assertions import Annotations, Match, Template
from cfnlint.api import lint_file

from chalicelib.api.models.common import ErrorResponse
from chalicelib.services.sync.stages import STAGES as SYNC_STAGES
from infra.aws.data import table_names
from infra.aws.domain import CustomDomain
from infra.aws.service import API_FUNCTION, REST_API, STEP_FUNCTION, SYNC_FUNCTION, ServiceStack
from tests.support.stacks import synthesize

PROJECT = Path(__file__).resolve().parents[2]
CHALICE_CONFIG = json.loads((PROJECT / ".chalice" / "config.json").read_text())
XRAY = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}
FUNCTIONS = {API_FUNCTION: "api_handler", SYNC_FUNCTION: "sync_pool", STEP_FUNCTION: "sync_step"}


@pytest.fixture(params=["dev", "prod"])
def stack(request: pytest.FixtureRequest, synthesized: dict[str, ServiceStack]) -> ServiceStack:
    return synthesized[request.param]


def _resources(template: Template, kind: str) -> dict[str, Any]:
    return dict(template.find_resources(kind))


def test_the_five_tables_have_the_storage_modules_keys_ttl_billing_and_protection(
    stack: ServiceStack,
) -> None:
    template = Template.from_stack(stack)
    names = table_names(stack.stage)
    tables = {t["Properties"]["TableName"]: t for t in _resources(template, "AWS::DynamoDB::Table").values()}
    assert set(tables) == set(names.values())
    expected_ttl = {
        "tokens": "purge_at",
        "rate_limits": "expires",
        "pool": None,
        "catalog": None,
        "audit": "purge_at",
    }
    for role, name in names.items():
        table = tables[name]["Properties"]
        keys = {k["KeyType"]: k["AttributeName"] for k in table["KeySchema"]}
        assert keys["HASH"] == "pk"
        assert keys.get("RANGE") == ("sk" if role in ("pool", "catalog", "audit") else None)
        assert table["BillingMode"] == "PAY_PER_REQUEST"
        ttl = table.get("TimeToLiveSpecification")
        assert (ttl["AttributeName"] if ttl and ttl["Enabled"] else None) == expected_ttl[role]
        recovery = table.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled", False)
        assert recovery is (role != "rate_limits")
        assert table.get("DeletionProtectionEnabled", False) is stack.stage.production
        policy = tables[name]["DeletionPolicy"]
        assert policy == ("Retain" if stack.stage.production else "Delete")


def test_the_bucket_is_private_encrypted_and_expires_sync_intermediates(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::S3::Bucket",
        {
            "BucketEncryption": {
                "ServerSideEncryptionConfiguration": [
                    {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}
                ]
            },
            "PublicAccessBlockConfiguration": {
                "BlockPublicAcls": True,
                "BlockPublicPolicy": True,
                "IgnorePublicAcls": True,
                "RestrictPublicBuckets": True,
            },
            "LifecycleConfiguration": {
                "Rules": Match.array_with(
                    [Match.object_like({"Prefix": "sync-work/", "ExpirationInDays": 14, "Status": "Enabled"})]
                )
            },
        },
    )
    for prefix in ("ip-database/", "reference/japan-post/"):  # the IP database, Japan Post's table
        template.has_resource_properties(
            "Custom::CDKBucketDeployment", {"DestinationBucketKeyPrefix": prefix}
        )


def test_the_cursor_secret_is_generated_at_deploy_time_and_only_its_arn_reaches_the_api(
    stack: ServiceStack,
) -> None:
    template = Template.from_stack(stack)
    [secret] = _resources(template, "AWS::SecretsManager::Secret").values()
    assert "GenerateSecretString" in secret["Properties"]
    assert "SecretString" not in secret["Properties"]
    secret_id = stack.resolve(stack.data.cursor_secret.secret_arn)
    functions = _resources(template, "AWS::Serverless::Function")
    for name, function in functions.items():
        variables = function["Properties"]["Environment"]["Variables"]
        assert "CURSOR_SECRET" not in variables
        assert (variables.get("CURSOR_SECRET_ARN") == secret_id) is (name == API_FUNCTION)


def test_each_function_gets_its_memory_timeout_role_log_group_and_the_tables(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    functions = _resources(template, "AWS::Serverless::Function")
    assert set(functions) == set(FUNCTIONS)
    configured = CHALICE_CONFIG["stages"][stack.stage.name]["lambda_functions"]
    roles = {stack.resolve(role.role_arn)["Fn::GetAtt"][0] for role in stack.roles.values()}
    tables = {
        "TOKENS_TABLE": stack.data.tokens,
        "RATE_LIMITS_TABLE": stack.data.rate_limits,
        "POOL_TABLE": stack.data.pool,
        "CATALOG_TABLE": stack.data.catalog,
        "AUDIT_TABLE": stack.data.audit,
    }
    for logical_id, chalice_name in FUNCTIONS.items():
        properties = functions[logical_id]["Properties"]
        assert properties["MemorySize"] == configured[chalice_name]["lambda_memory_size"]
        assert properties["Timeout"] == configured[chalice_name]["lambda_timeout"]
        assert properties["Role"]["Fn::GetAtt"][0] in roles
        logging = properties["LoggingConfig"]
        assert "LogGroup" in logging
        # The app's JSON lines, filtered by their "level" (chalicelib/logs.py), with X-Ray traces.
        assert (logging["LogFormat"], logging["ApplicationLogLevel"]) == ("JSON", "INFO")
        assert properties["Tracing"] == "Active"
        variables = properties["Environment"]["Variables"]
        for variable, table in tables.items():
            assert variables[variable] == stack.resolve(table.table_name)
        for variable in ("IP_DATABASE", "JAPAN_POST_DATABASE", "SYNC_SOURCES", "SYNC_WORK"):
            assert "s3://" in json.dumps(variables[variable])
    assert functions[STEP_FUNCTION]["Properties"]["Timeout"] == 900
    assert functions[STEP_FUNCTION]["Properties"]["EphemeralStorage"] == {"Size": 10240}
    assert functions[API_FUNCTION]["Properties"]["Timeout"] <= 29  # API Gateway's integration limit
    assert len({json.dumps(f["Properties"]["Role"]) for f in functions.values()}) == 3
    # Reserved: the API keeps its instances however wide the sync runs, and the sync's workers
    # stop at what its Map runs at once rather than drawing on the account's pool.
    reserved = {name: f["Properties"].get("ReservedConcurrentExecutions") for name, f in functions.items()}
    assert reserved[API_FUNCTION] == stack.stage.api_concurrency
    assert reserved[STEP_FUNCTION] == stack.stage.sync_concurrency


def test_the_schedule_starts_the_state_machine_built_from_the_repos_definition(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    functions = _resources(template, "AWS::Serverless::Function")
    events = functions[SYNC_FUNCTION]["Properties"]["Events"]
    assert [e["Properties"]["Schedule"] for e in events.values()] == ["rate(24 hours)"]
    variables = functions[SYNC_FUNCTION]["Properties"]["Environment"]["Variables"]
    assert variables["SYNC_STATE_MACHINE"] == stack.resolve(stack.state_machine.state_machine_arn)
    [machine] = _resources(template, "AWS::StepFunctions::StateMachine").values()
    text = json.dumps(machine["Properties"]["DefinitionString"])
    for stage in SYNC_STAGES:
        assert f"Stage {stage}" in text
    assert machine["Properties"]["TracingConfiguration"] == {"Enabled": True}
    assert "arn:aws:states:::ecs:runTask.sync" in text  # items past a Lambda's limits: the task
    assert "acquire" in text  # the publishers' files first: the Acquire state's action
    # Production discovers its manifest (Overture's newest release, Geofabrik's extracts) first;
    # dev syncs the operator's, the samples.
    discovers = '\\"StartAt\\": \\"Discover event\\"' in text
    assert discovers == stack.stage.discovery == (stack.stage.name == "prod")
    upstreams = {"OVERTURE_RELEASES", "GEOFABRIK_INDEX"} & set(variables)
    assert upstreams == ({"OVERTURE_RELEASES", "GEOFABRIK_INDEX"} if discovers else set())


def test_the_container_task_runs_the_sync_step_with_the_lambdas_settings(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    [task] = _resources(template, "AWS::ECS::TaskDefinition").values()
    [container] = task["Properties"]["ContainerDefinitions"]
    variables = {v["Name"]: v["Value"] for v in container["Environment"]}
    step = _resources(template, "AWS::Serverless::Function")[STEP_FUNCTION]["Properties"]
    assert variables == step["Environment"]["Variables"]
    assert task["Properties"]["RequiresCompatibilities"] == ["FARGATE"]
    assert task["Properties"]["EphemeralStorage"] == {"SizeInGiB": 100}
    template.resource_count_is("AWS::EC2::NatGateway", 0)  # no hourly network cost
    groups = _resources(template, "AWS::EC2::SecurityGroup")
    assert all(not g["Properties"].get("SecurityGroupIngress") for g in groups.values())


def test_least_privilege_the_api_writes_only_tokens_usage_and_audit_and_only_the_sync_step_the_pool(
    stack: ServiceStack,
) -> None:
    template = Template.from_stack(stack)
    policies = _resources(template, "AWS::IAM::Policy")

    def statements_of(role: str) -> list[dict[str, Any]]:
        role_id = stack.resolve(stack.roles[role].role_name)["Ref"]
        statements = [
            s
            for p in policies.values()
            if {"Ref": role_id} in p["Properties"]["Roles"]
            for s in p["Properties"]["PolicyDocument"]["Statement"]
        ]
        for statement in statements:  # X-Ray alone has no resource narrower than "*"
            assert statement["Resource"] != "*" or set(actions(statement)) <= XRAY, statement
        return statements

    def actions(statement: dict[str, Any]) -> set[str]:
        action = statement["Action"]
        return {action} if isinstance(action, str) else set(action)

    def actions_of(role: str) -> set[str]:
        return {a for s in statements_of(role) for a in actions(s)}

    api, step, schedule = actions_of(API_FUNCTION), actions_of(STEP_FUNCTION), actions_of(SYNC_FUNCTION)
    served = json.dumps(
        [stack.resolve(stack.data.pool.table_arn), stack.resolve(stack.data.catalog.table_arn)]
    )
    for statement in statements_of(API_FUNCTION):
        resources = json.dumps(statement["Resource"])
        if any(json.dumps(arn) in resources for arn in json.loads(served)):
            reads = actions(statement) <= {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"}
            # ... and writes nothing but withdrawals, whose partitions alone its keys may lead with.
            leading = statement.get("Condition", {}).get("ForAllValues:StringLike", {})
            only_withdrawals = leading.get("dynamodb:LeadingKeys") == ["WITHDRAWALS#*", "WITHDRAWN"]
            assert reads or (
                only_withdrawals and json.dumps(stack.resolve(stack.data.catalog.table_arn)) in resources
            )
    assert "dynamodb:BatchWriteItem" not in api
    assert {"states:StartExecution", "states:ListExecutions"} <= api  # the console's Start sync

    def grants(role: str, action: str, resource_part: str) -> bool:
        return any(
            action in actions(statement) and resource_part in json.dumps(statement["Resource"])
            for statement in statements_of(role)
        )

    # The acquisition keeps what it fetches in the source store (every execution used to die
    # there, AccessDenied); the container task only reads it, and where it discovers the
    # upstreams (production), writes the manifest and nothing else.
    assert grants(STEP_FUNCTION, "s3:PutObject", '"/sources/*"')
    container_writes = [
        json.dumps(s["Resource"])
        for p in policies.values()
        if {"Ref": stack.resolve(stack.sync_task.role.role_name)["Ref"]} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if "s3:PutObject" in actions(s) and "/sources/" in json.dumps(s["Resource"])
    ]
    assert [w.endswith('/sources/manifest.json"]]}') for w in container_writes] == (
        [True] if stack.stage.discovery else []
    )
    assert {"dynamodb:BatchWriteItem", "s3:PutObject", "s3:ListBucket"} <= step
    assert "secretsmanager:GetSecretValue" in api
    assert "secretsmanager:GetSecretValue" not in step
    assert schedule == {"states:StartExecution", "logs:CreateLogStream", "logs:PutLogEvents"} | XRAY
    assert not any("*" in action for action in api | step | schedule)


def test_api_gateway_answers_in_the_error_shape_throttles_and_logs_json(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    [api] = _resources(template, "AWS::Serverless::Api").values()
    # Inside the definition, which SAM hashes into the deployment's name: a change to them is
    # deployed with the API (as separate resources, a deployment could leave them out).
    template.resource_count_is("AWS::ApiGateway::GatewayResponse", 0)
    responses = api["Properties"]["DefinitionBody"]["x-amazon-apigateway-gateway-responses"]
    unknown = responses["MISSING_AUTHENTICATION_TOKEN"]
    assert unknown["statusCode"] == "404"
    body = json.loads(unknown["responseTemplates"]["application/json"])
    assert body["error"]["code"] == "INVALID_REQUEST"
    assert body["error"]["requestId"] == "$context.requestId"
    assert responses["THROTTLED"]["responseParameters"]["gatewayresponse.header.Retry-After"] == "'60'"
    for kind in ("DEFAULT_4XX", "DEFAULT_5XX"):
        assert "error" in json.loads(responses[kind]["responseTemplates"]["application/json"])
    # SAM's default also makes a stage named "Stage", unthrottled and unlogged; 3.0.1 does not.
    assert api["Properties"]["OpenApiVersion"] == "3.0.1"
    assert api["Properties"]["Name"] == f"ags-{stack.stage.name}-api"  # not shared by the stages
    assert api["Properties"]["TracingEnabled"] is True
    [settings] = api["Properties"]["MethodSettings"]
    assert settings["ThrottlingRateLimit"] == stack.stage.throttle_rate
    assert settings["ThrottlingBurstLimit"] == stack.stage.throttle_burst
    assert settings["MetricsEnabled"] is False  # per-method metrics nothing reads (~170 a stage)
    access_log = json.loads(api["Properties"]["AccessLogSetting"]["Format"])
    assert access_log["requestId"] == "$context.requestId"
    assert "authorization" not in json.dumps(access_log).lower()  # no token in the logs


def test_waf_limits_each_client_ip_on_the_api_stage_and_answers_in_the_error_shape(
    stack: ServiceStack,
) -> None:
    template = Template.from_stack(stack)
    [acl] = _resources(template, "AWS::WAFv2::WebACL").values()
    [rule] = acl["Properties"]["Rules"]
    limit = rule["Statement"]["RateBasedStatement"]
    assert (limit["AggregateKeyType"], limit["Limit"]) == ("IP", stack.stage.waf_ip_limit)
    blocked = rule["Action"]["Block"]["CustomResponse"]
    assert blocked["ResponseCode"] == 429
    body = acl["Properties"]["CustomResponseBodies"][blocked["CustomResponseBodyKey"]]
    answer = ErrorResponse.model_validate(json.loads(body["Content"]))  # the documented error shape
    assert answer.error.code == "RATE_LIMITED"
    [association] = _resources(template, "AWS::WAFv2::WebACLAssociation").values()
    assert association["DependsOn"] == ["RestAPIapiStage"]  # the stage SAM makes of RestAPI
    assert "/stages/api" in json.dumps(association["Properties"]["ResourceArn"])


def test_alarms_cover_5xx_lambda_errors_and_throttles_dynamodb_throttles_and_the_sync(
    stack: ServiceStack,
) -> None:
    template = Template.from_stack(stack)
    alarms = _resources(template, "AWS::CloudWatch::Alarm")
    descriptions = {a["Properties"]["AlarmDescription"] for a in alarms.values()}
    assert "API 5XX responses above 1% of requests" in descriptions
    for function in FUNCTIONS:
        assert {f"{function} Lambda errors", f"{function} Lambda throttles"} <= descriptions
    for table in ("Tokens", "RateLimits", "Pool", "Catalog"):
        assert {
            f"DynamoDB throttled reads on {table}",
            f"DynamoDB throttled writes on {table}",
        } <= descriptions
    assert {"a sync execution failed", "no successful sync in 2 days"} <= descriptions
    for alarm in alarms.values():
        assert alarm["Properties"]["AlarmActions"], alarm["Properties"]["AlarmDescription"]
        assert alarm["Properties"]["Dimensions"] if "MetricName" in alarm["Properties"] else True
    api_alarms = [
        a["Properties"] for a in alarms.values() if a["Properties"].get("Namespace") == "AWS/ApiGateway"
    ]
    assert {d["Value"] for a in api_alarms for d in a["Dimensions"] if d["Name"] == "ApiName"} == {
        f"ags-{stack.stage.name}-api"
    }
    template.resource_count_is("AWS::CloudWatch::Dashboard", 1)


def test_alarms_reach_the_topic_through_a_key_cloudwatch_may_use(stack: ServiceStack) -> None:
    """The topic was encrypted with alias/aws/sns, whose policy CloudWatch cannot be given: every
    alarm's publish failed, and no alarm reached anyone."""
    template = Template.from_stack(stack)
    [topic] = _resources(template, "AWS::SNS::Topic").values()
    key_id = topic["Properties"]["KmsMasterKeyId"]["Fn::GetAtt"][0]
    key = _resources(template, "AWS::KMS::Key")[key_id]["Properties"]
    assert key["EnableKeyRotation"] is True
    allowed = [
        s
        for s in key["KeyPolicy"]["Statement"]
        if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"} and s["Effect"] == "Allow"
    ]
    assert allowed
    assert {"kms:Decrypt", "kms:GenerateDataKey*"} <= set(allowed[0]["Action"])


def test_cfn_lint_finds_no_error_in_the_templates(
    stack: ServiceStack, synthesized: dict[str, ServiceStack]
) -> None:
    assert _lint_errors(stack) == []


def test_cdk_nag_passes_with_every_acknowledged_finding_justified(stack: ServiceStack) -> None:
    assert _nag_findings(stack) == []


def _lint_errors(stack: ServiceStack) -> list[str]:
    out = Path(stack.node.root.outdir)  # type: ignore[attr-defined]
    matches = lint_file(out / f"{stack.artifact_id}.template.json")
    return [str(m) for m in matches if m.rule.id.startswith("E")]


def _nag_findings(stack: ServiceStack) -> list[str]:
    annotations = Annotations.from_stack(stack)
    findings = [
        *annotations.find_error("*", Match.string_like_regexp("AwsSolutions-.*")),
        *annotations.find_warning("*", Match.string_like_regexp("AwsSolutions-.*")),
    ]
    return [f"{f.id}: {str(f.entry.data)[:120]}" for f in findings]


def test_synthesis_leaves_this_processs_environment_as_it_was(synthesized: dict[str, ServiceStack]) -> None:
    """Chalice's packaging puts the stage's variables (CDK tokens) into os.environ; later tests and
    the subprocesses they start must not inherit them."""
    import os

    assert not any(name in os.environ for name in ("SYNC_SOURCES", "SYNC_WORK", "JAPAN_POST_DATABASE"))


def test_a_custom_domain_serves_the_api_stage_over_tls_1_2_with_its_alias(tmp_path: Path) -> None:
    """The option a production stage is deployed with (docs/deploy.md): the operator's name and
    certificate, the stage at the domain's root, and the Route 53 alias when the zone is given."""
    domain = CustomDomain(
        "api.example.org",
        "arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000",
        hosted_zone_id="Z0000000000000000000",
    )
    [stack] = synthesize(tmp_path, ["prod"], domain=domain)
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::ApiGateway::DomainName",
        {
            "DomainName": "api.example.org",
            "RegionalCertificateArn": domain.certificate_arn,
            "EndpointConfiguration": {"Types": ["REGIONAL"]},
            "SecurityPolicy": "TLS_1_2",
        },
    )
    [mapping] = _resources(template, "AWS::ApiGateway::BasePathMapping").values()
    assert mapping["Properties"]["Stage"] == "api"
    assert "BasePath" not in mapping["Properties"]  # /api/v1/... as on the stage's own URL
    assert mapping["Properties"]["RestApiId"] == {"Ref": REST_API}
    [alias] = _resources(template, "AWS::Route53::RecordSet").values()
    assert alias["Properties"]["HostedZoneId"] == domain.hosted_zone_id
    assert alias["Properties"]["AliasTarget"]["DNSName"]["Fn::GetAtt"][1] == "RegionalDomainName"
    out = Path(stack.node.root.outdir)  # type: ignore[attr-defined]
    assert [
        str(m) for m in lint_file(out / f"{stack.artifact_id}.template.json") if m.rule.id[0] == "E"
    ] == []


def test_without_the_option_no_domain_is_created(stack: ServiceStack) -> None:
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::ApiGateway::DomainName", 0)
    template.resource_count_is("AWS::Route53::RecordSet", 0)
