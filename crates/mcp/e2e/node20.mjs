// Lets @modelcontextprotocol/conformance (0.1.16) load on Node 20: its
// bundle imports `globSync` from `fs` (Node 22) for one thing only, the
// summary of a directory of old results, which these tests never ask for.
// The import is rewritten at load time to a function that says so; nothing
// else of the package changes. Used as `node --import ./node20.mjs`.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (url.endsWith('/@modelcontextprotocol/conformance/dist/index.js') && !('globSync' in (await import('node:fs')))) {
    const source = String(loaded.source).replace('globSync as o,', '');
    return { ...loaded, source: source + '\\nfunction o(){throw new Error("fs.globSync needs Node 22")}' };
  }
  return loaded;
}`));
