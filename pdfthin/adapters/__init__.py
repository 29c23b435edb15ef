"""The adapters: each surface (command line, MCP server, AWS Lambda, browser) derived from the
operation registry."""
