"""Request and response models of the HTTP interface; the OpenAPI document is generated from them."""
