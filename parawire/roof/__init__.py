"""The roof: wires the rooms into stages (the stage table, Celery, the pipeline, the CLI).

No room imports the roof; it uses each room's public API (its `__init__`)."""
