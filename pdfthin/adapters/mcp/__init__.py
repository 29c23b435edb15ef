"""The MCP server adapter (``pdfthin serve``), installed with the extra ``pdfthin[mcp]``.

Only :mod:`pdfthin.adapters.mcp.server` imports the MCP SDK, and nothing in the core imports this
package: ``import pdfthin`` and the CLI's other commands never load the SDK.

- :mod:`.config` — the server's settings and the ``--ocr`` loader (no SDK);
- :mod:`.tools` — the tools: argument schemas, descriptions, validation, dispatch (no SDK);
- :mod:`.server` — the SDK glue: registration, worker threads, results and error envelopes.
"""

INSTALL_HINT = "pdfthin serve needs the MCP SDK: pip install 'mcp>=2.3,<3'"
