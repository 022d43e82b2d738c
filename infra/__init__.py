"""Infrastructure: the local stack now; infrastructure as code later (see README.md)."""
