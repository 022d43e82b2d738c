"""The API under the operator's own name (an option): a regional custom domain with the operator's
ACM certificate, mapped to the one stage, and, given the hosted zone, the DNS alias to it."""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import CfnOutput, CfnResource
from aws_cdk import aws_apigateway as apigateway
from aws_cdk import aws_route53 as route53
from constructs import Construct


@dataclass(frozen=True)
class CustomDomain:
    name: str  # e.g. api.example.org
    certificate_arn: str  # an ACM certificate for the name, in the stack's region
    hosted_zone_id: str | None = None  # the Route 53 zone of the name; None: the operator's DNS


class ApiDomain(Construct):
    def __init__(
        self, scope: Construct, construct_id: str, *, domain: CustomDomain, rest_api: CfnResource
    ) -> None:
        super().__init__(scope, construct_id)
        # Regional, not edge: WAF is on the regional stage, and CloudFront would hide client IPs
        # from its per-IP rate rule behind its own.
        name = apigateway.CfnDomainName(
            self,
            "Name",
            domain_name=domain.name,
            regional_certificate_arn=domain.certificate_arn,
            endpoint_configuration=apigateway.CfnDomainName.EndpointConfigurationProperty(types=["REGIONAL"]),
            security_policy="TLS_1_2",
        )
        # No base path: https://api.example.org/api/v1/... as on the stage's own URL, so the
        # console, which finds the API relative to its own address, works unchanged.
        mapping = apigateway.CfnBasePathMapping(
            self, "Mapping", domain_name=name.ref, rest_api_id=rest_api.ref, stage="api"
        )
        mapping.add_override("DependsOn", [f"{rest_api.logical_id}apiStage"])  # SAM's stage
        if domain.hosted_zone_id:
            route53.CfnRecordSet(
                self,
                "Alias",
                hosted_zone_id=domain.hosted_zone_id,
                name=domain.name,
                type="A",
                alias_target=route53.CfnRecordSet.AliasTargetProperty(
                    dns_name=name.attr_regional_domain_name,
                    hosted_zone_id=name.attr_regional_hosted_zone_id,
                ),
            )
        CfnOutput(
            self,
            "Target",
            value=name.attr_regional_domain_name,
            description=f"the DNS name {domain.name} points to (an alias, or a CNAME outside Route 53)",
        )
