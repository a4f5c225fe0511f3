/**
 * docs/architecture.md's table of layers, written from eslint.config.js's LAYERS (the arrows lint enforces)
 * by `npm run docs` between the two markers below; a unit test fails when the committed table differs.
 */
export const LAYERS_BEGIN = '<!-- layers: written by `npm run docs` from eslint.config.js (LAYERS) -->';
export const LAYERS_END = '<!-- layers end -->';

export type Layers = Record<string, readonly string[]>;

export function layerTable(layers: Layers): string {
  const rows = Object.entries(layers).map(
    ([folder, below]) => `| \`src/${folder}\` | ${below.length ? below.join(', ') : 'nothing'} |`,
  );
  return [LAYERS_BEGIN, '| folder | may import |', '|---|---|', ...rows, LAYERS_END].join('\n');
}

/** The document with its table (between the markers) replaced by `table`; an error if the markers are missing. */
export function withLayerTable(doc: string, table: string): string {
  const begin = doc.indexOf(LAYERS_BEGIN);
  const end = doc.indexOf(LAYERS_END);
  if (begin < 0 || end < begin) throw new Error(`docs/architecture.md has no layers table markers (${LAYERS_BEGIN})`);
  return doc.slice(0, begin) + table + doc.slice(end + LAYERS_END.length);
}
