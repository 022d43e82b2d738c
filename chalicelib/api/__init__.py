"""HTTP layer: Chalice blueprints with thin routes, plus the one error-to-HTTP mapping."""
