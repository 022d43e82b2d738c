"""What the routes answer, built from what the services return: one presenter per thing shown."""
