"""Alarms and one dashboard per stage. Alarms notify an SNS topic; subscribe an address to it
(`make deploy STAGE=prod ALARM_EMAIL=...`, or in the console)."""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra.aws.stages import Stage

FIVE_MINUTES = Duration.minutes(5)
API_5XX_RATE = 0.01  # of requests, over 3 of 5-minute periods
SYNC_DAYS = 2  # a successful sync at least this often (the schedule runs daily)


class Monitoring(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        stage: Stage,
        api_name: str,
        functions: dict[str, str],
        tables: list[dynamodb.Table],
        state_machine: sfn.StateMachine,
        alarm_email: str | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        # A key of our own: CloudWatch cannot use the AWS-managed alias/aws/sns key, so with it no
        # alarm would ever reach the topic (about $1 a month).
        self.key = kms.Key(
            self,
            "AlarmsKey",
            description=f"{stage.prefix} alarms topic: CloudWatch may publish to it",
            enable_key_rotation=True,
            removal_policy=RemovalPolicy.RETAIN if stage.production else RemovalPolicy.DESTROY,
        )
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],  # in a key policy, "*" is this key
            )
        )
        self.topic = sns.Topic(
            self,
            "Alarms",
            display_name=f"{stage.prefix} alarms",
            enforce_ssl=True,
            master_key=self.key,
        )
        if alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(alarm_email))
        self.alarms: list[cloudwatch.Alarm] = []
        api = self._api_alarms(api_name)
        lambdas = self._lambda_alarms(functions)
        throttles = self._table_alarms(tables)
        sync = self._sync_alarms(state_machine)
        self.dashboard = cloudwatch.Dashboard(self, "Dashboard", dashboard_name=f"{stage.prefix}-service")
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="API requests and 5XX", left=api[:2], right=[api[2]], width=12),
            cloudwatch.GraphWidget(title="API latency p99 (ms)", left=[api[3]], width=12),
        )
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Lambda errors and throttles", left=lambdas, width=12),
            cloudwatch.GraphWidget(title="DynamoDB throttle events", left=throttles, width=12),
        )
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Sync executions per day", left=sync, width=12),
            cloudwatch.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=12),
        )

    def _api_alarms(self, api_name: str) -> list[cloudwatch.IMetric]:
        """Requests, 5XX, their rate (alarmed) and p99 latency."""
        api = {"ApiName": api_name, "Stage": "api"}
        requests = _metric("AWS/ApiGateway", "Count", api)
        errors = _metric("AWS/ApiGateway", "5XXError", api)
        # 5XXError is 1 or 0 per request: its average is the share of requests answered 5XX.
        error_rate = _metric("AWS/ApiGateway", "5XXError", api, "Average")
        what = "API 5XX responses above 1% of requests"
        self._alarm("Api5xxRate", error_rate, API_5XX_RATE, periods=3, what=what)
        return [requests, errors, error_rate, _metric("AWS/ApiGateway", "Latency", api, "p99")]

    def _lambda_alarms(self, functions: dict[str, str]) -> list[cloudwatch.IMetric]:
        metrics: list[cloudwatch.IMetric] = []
        for name, function_name in functions.items():
            for metric_name in ("Errors", "Throttles"):
                metric = _metric("AWS/Lambda", metric_name, {"FunctionName": function_name})
                self._alarm(
                    f"{name}{metric_name}", metric, 0, periods=1, what=f"{name} Lambda {metric_name.lower()}"
                )
                metrics.append(metric)
        return metrics

    def _table_alarms(self, tables: list[dynamodb.Table]) -> list[cloudwatch.IMetric]:
        throttles: list[cloudwatch.IMetric] = []
        for table in tables:  # reads and writes apart: an alarm on one metric each, no metric math
            for kind in ("Read", "Write"):
                events = table.metric(f"{kind}ThrottleEvents", statistic="Sum", period=FIVE_MINUTES)
                what = f"DynamoDB throttled {kind.lower()}s on {table.node.id}"
                self._alarm(f"{table.node.id}{kind}Throttles", events, 0, periods=1, what=what)
                throttles.append(events)
        return throttles

    def _sync_alarms(self, state_machine: sfn.StateMachine) -> list[cloudwatch.IMetric]:
        self._alarm(
            "SyncFailed",
            state_machine.metric_failed(period=FIVE_MINUTES),
            0,
            periods=1,
            what="a sync execution failed",
        )
        succeeded = state_machine.metric_succeeded(period=Duration.days(1), statistic="Sum")
        what = f"no successful sync in {SYNC_DAYS} days"
        self._alarm("NoRecentSync", succeeded, 1, periods=SYNC_DAYS, what=what, below=True)
        return [succeeded, state_machine.metric_failed(period=Duration.days(1), statistic="Sum")]

    def _alarm(
        self,
        name: str,
        metric: cloudwatch.IMetric,
        threshold: float,
        *,
        periods: int,
        what: str,
        below: bool = False,
    ) -> None:
        alarm = cloudwatch.Alarm(
            self,
            name,
            metric=metric,
            threshold=threshold,
            evaluation_periods=periods,
            comparison_operator=cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD
            if below
            else cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            # No sync data is a missed sync; no API or Lambda data is no traffic.
            treat_missing_data=cloudwatch.TreatMissingData.BREACHING
            if below
            else cloudwatch.TreatMissingData.NOT_BREACHING,
            alarm_description=what,
        )
        alarm.add_alarm_action(actions.SnsAction(self.topic))
        self.alarms.append(alarm)


def _metric(
    namespace: str, name: str, dimensions: dict[str, str], statistic: str = "Sum"
) -> cloudwatch.Metric:
    return cloudwatch.Metric(
        namespace=namespace,
        metric_name=name,
        dimensions_map=dimensions,
        statistic=statistic,
        period=FIVE_MINUTES,
    )
