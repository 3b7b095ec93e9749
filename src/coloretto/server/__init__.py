"""The web application: HTTP + WebSocket API, storage, seat tokens.

``create_app(settings)`` (``coloretto.server.app``) builds the FastAPI application that
``coloretto serve`` runs under uvicorn, around a ``Hub`` given its parts (table store,
message bus, agent runner, clock; docs/server.md). The contract for clients is
docs/web-api.md.
"""

from .._optional import require_extra

require_extra("web", "the web server (coloretto.server)")

from .config import Settings

__all__ = ["Settings"]
