const PREFIX = 'steward-bridge: ';

/** Every line the bridge logs goes to stderr: stdout belongs to the MCP client (stdio) or to Chrome (the host). */
export const logToStderr = (line: string): void => {
  process.stderr.write(`${line.startsWith(PREFIX) ? '' : PREFIX}${line}\n`);
};
