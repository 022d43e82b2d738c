"""The sync step as a Fargate task, for the state machine's items past a Lambda's 15 minutes
(`job.runner_for`): a small VPC (public subnets, no NAT gateway: no hourly cost; no inbound
traffic; S3 and DynamoDB through free gateway endpoints), a cluster, and a task definition running
the repo's image (sync.Dockerfile), built and pushed by `cdk deploy`."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_ecs as ecs
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from constructs import Construct

from chalicelib.services.sync.state_machine import Container
from infra.aws.package import PROJECT_DIR

CONTAINER_NAME = "sync-step"
# What the image needs from the project; everything else (the venv, node_modules, data) stays out.
_IMAGE_FILES = [
    "*",
    "!app.py",
    "!chalicelib",
    "!requirements.txt",
    "!infra/aws/sync.Dockerfile",
    "**/__pycache__",
]


class SyncTask(Construct):
    def __init__(
        self, scope: Construct, construct_id: str, *, environment: dict[str, str], removal: RemovalPolicy
    ) -> None:
        super().__init__(scope, construct_id)
        self.vpc = ec2.Vpc(
            self,
            "Network",
            max_azs=2,
            nat_gateways=0,
            subnet_configuration=[ec2.SubnetConfiguration(name="public", subnet_type=ec2.SubnetType.PUBLIC)],
            gateway_endpoints={
                "S3": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.S3),
                "DynamoDB": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.DYNAMODB),
            },
            flow_logs={"rejected": ec2.FlowLogOptions(traffic_type=ec2.FlowLogTrafficType.REJECT)},
        )
        self.security_group = ec2.SecurityGroup(
            self, "NoInbound", vpc=self.vpc, description="sync tasks: outbound only", allow_all_outbound=True
        )
        self.cluster = ecs.Cluster(
            self, "Cluster", vpc=self.vpc, container_insights_v2=ecs.ContainerInsights.ENABLED
        )
        self.task = ecs.FargateTaskDefinition(
            self, "Task", cpu=2048, memory_limit_mib=8192, ephemeral_storage_gib=100
        )
        image = ecr_assets.DockerImageAsset(
            self,
            "Image",
            directory=str(PROJECT_DIR),
            file="infra/aws/sync.Dockerfile",
            exclude=_IMAGE_FILES,
            ignore_mode=cdk.IgnoreMode.DOCKER,
            platform=ecr_assets.Platform.LINUX_AMD64,
        )
        self.log_group = logs.LogGroup(
            self, "Logs", retention=logs.RetentionDays.ONE_MONTH, removal_policy=removal
        )
        self.task.add_container(
            CONTAINER_NAME,
            image=ecs.ContainerImage.from_docker_image_asset(image),
            environment=environment,
            logging=ecs.LogDriver.aws_logs(stream_prefix="sync", log_group=self.log_group),
        )

    @property
    def role(self) -> iam.IRole:
        """What the step's code runs as: granted like the sync_step Lambda."""
        return self.task.task_role

    def container(self) -> Container:
        subnets = self.vpc.select_subnets(subnet_type=ec2.SubnetType.PUBLIC).subnet_ids
        return Container(
            self.cluster.cluster_arn,
            self.task.task_definition_arn,
            CONTAINER_NAME,
            tuple(subnets),
            (self.security_group.security_group_id,),
            public_ip=True,
        )

    def grant_run(self, principal: iam.IGrantable) -> None:
        """What a state machine needs to run the task and wait for it (`ecs:runTask.sync`)."""
        stack = Stack.of(self)
        principal.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=["ecs:RunTask"], resources=[self.task.task_definition_arn])
        )
        tasks = stack.format_arn(
            service="ecs", resource="task", resource_name=f"{self.cluster.cluster_name}/*"
        )
        principal.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=["ecs:StopTask", "ecs:DescribeTasks"], resources=[tasks])
        )
        principal.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["iam:PassRole"],
                resources=[self.task.task_role.role_arn, self.task.obtain_execution_role().role_arn],
            )
        )
        rule = stack.format_arn(
            service="events", resource="rule", resource_name="StepFunctionsGetEventsForECSTaskRule"
        )
        principal.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["events:PutTargets", "events:PutRule", "events:DescribeRule"], resources=[rule]
            )
        )
