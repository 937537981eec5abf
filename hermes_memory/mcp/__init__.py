"""The MCP server: the same memory for Claude Code, Cursor and other MCP clients."""
