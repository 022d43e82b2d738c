"""API Gateway's own answers in the service's error shape, the stage's throttling defaults and its
JSON access logs. The REST API itself is the one `chalice package` defines."""

from __future__ import annotations

import json
from typing import Any

from aws_cdk import Acknowledgment, ArnFormat, CfnResource, RemovalPolicy, Stack, Validations
from aws_cdk import aws_apigateway as apigateway
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_wafv2 as wafv2
from constructs import Construct

from infra.aws.stages import Stage

# (response type, status, code, message). API Gateway answers an unknown path or method itself,
# with 403 "Missing Authentication Token"; the service calls it what it is: 404, INVALID_REQUEST
# (the interface's codes have no NOT_FOUND; ADDRESS_NOT_FOUND and NO_POOL_COVERAGE mean data).
RESPONSES = (
    ("MISSING_AUTHENTICATION_TOKEN", "404", "INVALID_REQUEST", "no such path or method under /api/v1"),
    ("THROTTLED", "429", "RATE_LIMITED", "the API's request rate is exceeded; retry after the time given"),
    ("REQUEST_TOO_LARGE", "413", "INVALID_REQUEST", "the request body is too large"),
    ("DEFAULT_4XX", None, "INVALID_REQUEST", "the request was refused before reaching the service"),
    ("DEFAULT_5XX", None, "SERVICE_UNAVAILABLE", "the service could not answer; retry later"),
)
ACCESS_LOG_FIELDS = {
    "requestId": "$context.requestId",
    "time": "$context.requestTime",
    "method": "$context.httpMethod",
    "path": "$context.resourcePath",  # the route template: no query string, so no parameters
    "status": "$context.status",
    "latencyMs": "$context.responseLatency",
    "integrationStatus": "$context.integration.status",
    "errorType": "$context.error.responseType",
    "sourceIp": "$context.identity.sourceIp",
    "userAgent": "$context.identity.userAgent",
}


def gateway_responses() -> dict[str, Any]:
    """`x-amazon-apigateway-gateway-responses`: API Gateway's own answers in the error shape."""
    responses: dict[str, Any] = {}
    for response_type, status, code, message in RESPONSES:
        body = {"error": {"code": code, "message": message, "requestId": "$context.requestId"}}
        headers = {"gatewayresponse.header.Content-Type": "'application/json'"}
        if code == "RATE_LIMITED":
            headers["gatewayresponse.header.Retry-After"] = "'60'"
        response: dict[str, Any] = {
            "responseParameters": headers,
            "responseTemplates": {"application/json": json.dumps(body)},
        }
        if status is not None:
            response["statusCode"] = status
        responses[response_type] = response
    return responses


class Gateway(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        stage: Stage,
        rest_api: CfnResource,
        removal: RemovalPolicy,
    ) -> None:
        super().__init__(scope, construct_id)
        # In the API's own definition, not as separate resources: SAM names the deployment after a
        # hash of the definition, so a change to these answers is deployed with the API.
        responses = "DefinitionBody.x-amazon-apigateway-gateway-responses"
        rest_api.add_property_override(responses, gateway_responses())
        rest_api.add_property_override("Name", stage.api_name)
        # SAM's default OpenAPI version also creates a stage named "Stage", with no throttling and
        # no access logs; 3.0.1 leaves the one stage, "api" (the definition stays Swagger 2.0).
        rest_api.add_property_override("OpenApiVersion", "3.0.1")
        rest_api.add_property_override("TracingEnabled", True)
        self.access_logs = logs.LogGroup(
            self,
            "AccessLogs",
            retention=logs.RetentionDays.THREE_MONTHS if stage.production else logs.RetentionDays.ONE_MONTH,
            removal_policy=removal,
        )
        rest_api.add_property_override(
            "AccessLogSetting",
            {"DestinationArn": self.access_logs.log_group_arn, "Format": json.dumps(ACCESS_LOG_FIELDS)},
        )
        rest_api.add_property_override(
            "MethodSettings",
            [
                {
                    "ResourcePath": "/*",
                    "HttpMethod": "*",
                    "ThrottlingRateLimit": stage.throttle_rate,
                    "ThrottlingBurstLimit": stage.throttle_burst,
                    # Per-method metrics (about 170 custom metrics a stage) that no alarm reads:
                    # the API-level Count, 5XXError and Latency the alarms use are free.
                    "MetricsEnabled": False,
                }
            ],
        )
        # API Gateway writes access logs through the region's account-level role.
        role = iam.Role(
            self,
            "CloudWatchRole",
            assumed_by=iam.ServicePrincipal("apigateway.amazonaws.com"),
            managed_policies=[
                iam.ManagedPolicy.from_aws_managed_policy_name(
                    "service-role/AmazonAPIGatewayPushToCloudWatchLogs"
                )
            ],
        )
        account = apigateway.CfnAccount(self, "Account", cloud_watch_role_arn=role.role_arn)
        rest_api.node.add_dependency(account)
        self.web_acl = self._web_acl(stage, rest_api)

    def _web_acl(self, stage: Stage, rest_api: CfnResource) -> wafv2.CfnWebACL:
        """WAF in front of the stage: a rate rule per client IP, answered 429 in the error shape. The
        firewall answers before API Gateway gives the request an id, so its requestId says who
        answered (the documents' ErrorBody requires one)."""
        body = {
            "error": {
                "code": "RATE_LIMITED",
                "message": "too many requests from this address; retry later",
                "requestId": "firewall",
            }
        }
        acl = wafv2.CfnWebACL(
            self,
            "Firewall",
            name=f"{stage.prefix}-api",
            scope="REGIONAL",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            custom_response_bodies={
                "rateLimited": wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=json.dumps(body)
                )
            },
            rules=[
                wafv2.CfnWebACL.RuleProperty(
                    name="per-ip-rate",
                    priority=0,
                    statement=wafv2.CfnWebACL.StatementProperty(
                        rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                            limit=stage.waf_ip_limit, aggregate_key_type="IP", evaluation_window_sec=300
                        )
                    ),
                    action=wafv2.CfnWebACL.RuleActionProperty(
                        block=wafv2.CfnWebACL.BlockActionProperty(
                            custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                                response_code=429,
                                custom_response_body_key="rateLimited",
                                response_headers=[
                                    wafv2.CfnWebACL.CustomHTTPHeaderProperty(name="Retry-After", value="300")
                                ],
                            )
                        )
                    ),
                    visibility_config=_visibility(f"{stage.prefix}-per-ip-rate"),
                )
            ],
            visibility_config=_visibility(f"{stage.prefix}-api"),
        )
        stage_arn = Stack.of(self).format_arn(
            service="apigateway",
            account="",
            resource="/restapis",
            resource_name=f"{rest_api.ref}/stages/api",
            arn_format=ArnFormat.SLASH_RESOURCE_NAME,
        )
        association = wafv2.CfnWebACLAssociation(
            self, "FirewallOnStage", resource_arn=stage_arn, web_acl_arn=acl.attr_arn
        )
        association.add_override("DependsOn", [f"{rest_api.logical_id}apiStage"])  # SAM's stage
        Validations.of(association).acknowledge(
            Acknowledgment(
                id="CloudFormation-Validate::E3005",
                reason="the SAM transform creates the stage (<api>apiStage) before DependsOn is read",
            )
        )
        return acl


def _visibility(name: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True, metric_name=name, sampled_requests_enabled=True
    )
