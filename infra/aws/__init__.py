"""The AWS deployment as a CDK app: one stack per stage (`stages.py`), synthesized offline by
`make synth` and deployed by `make deploy STAGE=...`. See docs/deploy.md."""
