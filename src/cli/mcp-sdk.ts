// The entry of dist/mcp-sdk.cjs (scripts/build.mjs): the MCP server's SDK, with ajv, as a file of its own
// that only `payctl mcp` reads. The bundle resolves each SDK module the server imports to this one file,
// so their exports share one namespace; TypeScript refuses two exports of one name here.
export * from '@modelcontextprotocol/sdk/server/index.js';
export * from '@modelcontextprotocol/sdk/server/stdio.js';
export * from '@modelcontextprotocol/sdk/types.js';
