"""The FastAPI application: ``create_app`` assembles the hub, the HTTP routes
(``routes``), the WebSocket endpoint (``ws``), the error handlers (``errors``), the limits
(``ratelimit``) and the static files; ``coloretto serve`` runs it under uvicorn.

The contract (every endpoint and message, with errors) is docs/web-api.md.
"""

from __future__ import annotations

import importlib.resources
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .auth_routes import auth
from .config import Settings
from .errors import install_error_handlers
from .head import HeadAsGetMiddleware
from .hub import Hub
from .ratelimit import LimitsMiddleware
from .routes import WEB_DIR, api, pages
from .score_api import score_router
from .wiring import build_hub
from .ws import TableSockets

log = logging.getLogger("coloretto.server")


class StartupError(RuntimeError):
    """The server could not start (e.g. its database cannot be opened); the message says why."""


def _lifespan(hub: Hub) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start ``hub`` with the application (a failure is one ``StartupError`` line), stop it
    at the end."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            await hub.start()
        except Exception as exc:  # noqa: BLE001 - any start-up failure: say what, not a long traceback
            what = " ".join(str(exc).split())
            try:
                await hub.stop()
            except Exception as stop_exc:  # noqa: BLE001 - already failing; the first error is the one to report
                log.debug("stopping after a failed start: %s", stop_exc)
            raise StartupError(f"cannot start: {what}") from None
        try:
            yield
        finally:
            await hub.stop()

    return lifespan


def create_app(settings: Settings | None = None, *, hub: Hub | None = None) -> FastAPI:
    """The application.

    Args:
        settings: default ``Settings.from_env()``; with ``hub``, that hub's settings.
        hub: the hub to serve (default ``wiring.build_hub(settings)``: SQL store, Redis
            when configured); ``wiring.memory_hub`` makes one on in-memory parts.

    ``app.state.hub`` is the hub; it starts (store, bus, resuming games) in the lifespan
    and stops with the application.
    """
    if hub is None:
        hub = build_hub(settings or Settings.from_env())
    app = FastAPI(
        title="Coloretto",
        version="1",
        description="Live Coloretto tables for people, programs and computer players. "
        "The WebSocket protocol is described in docs/web-api.md.",
        lifespan=_lifespan(hub),
        # /docs is the project's own page (routes.api_docs_page) on a local copy of Swagger UI:
        # FastAPI's pages load it from a CDN with an inline script, which the
        # Content-Security-Policy refuses (and which needs the internet)
        docs_url=None,
        redoc_url=None,
    )
    app.state.hub = hub
    app.add_middleware(LimitsMiddleware, settings=hub.settings)
    app.add_middleware(HeadAsGetMiddleware)
    install_error_handlers(app)
    app.include_router(api)
    app.include_router(auth)
    app.add_api_websocket_route("/ws/tables/{table_id}", TableSockets(hub, hub.settings).serve)
    app.include_router(pages)
    app.include_router(score_router(WEB_DIR))
    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    swagger_ui = importlib.resources.files("swagger_ui") / "static"  # the swagger-ui-py package
    app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui), check_dir=False), name="docs-assets")
    return app
