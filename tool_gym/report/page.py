"""The report's one HTML file: the template of ``static/`` with its CSS, its JS and the data.

Nothing is fetched when the page opens (no CDN, no server): the stylesheet and the script
are inlined, the model is a ``<script type="application/json">`` parsed once, and the
transcript chunks a second one parsed the first time an episode is opened. The JSON is
written with ``<``, ``>``, ``&`` and the two JavaScript line separators escaped as
``\\uXXXX``, so no text of an episode can end the script element or open a tag; the
script puts every text of an episode in the page with ``textContent``, never as HTML.
"""

from __future__ import annotations

import json
import re
from importlib import resources

__all__ = ["embed_json", "render"]

_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
            "\u2029": "\\u2029"}


def embed_json(value) -> str:
    """``value`` as JSON text that is safe inside a ``<script>`` element (the same value
    once parsed)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.translate(str.maketrans(_ESCAPES))


def _static(name: str) -> str:
    return resources.files("tool_gym.report").joinpath("static", name).read_text("utf-8")


def render(model: dict, transcripts: list[str], title: str) -> str:
    """The whole page."""
    parts = {"{{TITLE}}": title.translate(str.maketrans({"<": "&lt;", ">": "&gt;",
                                                         "&": "&amp;"})),
             "{{STYLE}}": _static("report.css"), "{{SCRIPT}}": _static("report.js"),
             "{{DATA}}": embed_json(model), "{{TRANSCRIPTS}}": embed_json(transcripts)}
    pieces = re.split(r"(\{\{[A-Z]+\}\})", _static("report.html"))  # the template only
    return "".join(parts.get(piece, piece) for piece in pieces)
