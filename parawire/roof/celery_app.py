"""The entry module of Celery processes: `celery -A parawire.roof.celery_app worker|beat`.

A worker or beat process starts here, so this is where its settings are read (the
PARAWIRE_CONFIG file and PARAWIRE_* variables, as `parawire worker` and `parawire beat`
pass them on), once, and handed to the app."""

from parawire.config import load_settings
from parawire.roof.tasks import create_app

app = create_app(load_settings())
