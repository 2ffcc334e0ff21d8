"""The table console: a web app for the referee and the players over the campaign store (`furnace serve`).

`create_app(WebSettings(...))` builds the FastAPI app: pages (Jinja2 templates) and plain JavaScript served
from the package, a JSON API under /api/ (OpenAPI at /api/openapi.json) that calls the same campaign commands
as the CLI, and the live log over Server-Sent Events. Who may do what is one matrix (`auth.ALLOW`); what a
player or an observer may see is decided in `views` before anything leaves the server.
"""

from furnace.web.app import create_app
from furnace.web.config import WebSettings

__all__ = ["WebSettings", "create_app"]
