"""How `parawire serve` runs the dashboard: uvicorn with serve.workers processes. Each
worker builds its own app (store connections, overview cache) from the settings and token
the command hands over in its environment."""

from __future__ import annotations

import gc
import json
import os

from fastapi import FastAPI

from parawire.config import Settings
from parawire.dashboard.app import create_app

HANDOVER_VARIABLE = "PARAWIRE_SERVE_HANDOVER"


def serve(settings: Settings, token: str, host: str, port: int, log_level: str = "info") -> None:
    """Serve the dashboard until stopped (Ctrl-C or SIGTERM)."""
    import uvicorn

    if settings.serve.workers == 1:
        uvicorn.run(_frozen(create_app(settings, token=token)), host=host, port=port,
                    log_level=log_level)
        return
    os.environ[HANDOVER_VARIABLE] = json.dumps(
        {"settings": settings.model_dump(mode="json"), "token": token})
    uvicorn.run(f"{__name__}:app_of_handover", factory=True, workers=settings.serve.workers,
                host=host, port=port, log_level=log_level)


def app_of_handover() -> FastAPI:
    """A worker's app, from the settings and token `serve` left in the environment."""
    handover = json.loads(os.environ[HANDOVER_VARIABLE])
    return _frozen(create_app(Settings.model_validate(handover["settings"]),
                              token=handover["token"]))


def _frozen(app: FastAPI) -> FastAPI:
    """`app`, with everything the process holds so far (modules, the app) moved out of the
    garbage collector's sight (gc.freeze): a full collection over the 300k objects of the
    imports paused every request for 150 ms, and these live as long as the server does."""
    gc.collect()
    gc.freeze()
    return app
