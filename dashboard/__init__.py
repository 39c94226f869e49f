"""The operator dashboard: a FastAPI app with a JSON API and server-rendered pages."""

from parawire.dashboard.app import create_app
from parawire.dashboard.serving import serve

__all__ = ["create_app", "serve"]
