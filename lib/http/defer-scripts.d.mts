// Types of defer-scripts.mjs (plain JavaScript: server.mjs imports it without a build step).
import type { IncomingMessage, ServerResponse } from "node:http";
export function rewriteScripts(html: string, withLoader: boolean): string;
export function deferPageScripts(req: IncomingMessage, res: ServerResponse): void;
