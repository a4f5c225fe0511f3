/** The types of eslint.config.js's exports, for the test that holds docs/architecture.md to its arrows. */
export declare const LAYERS: Record<string, string[]>;
declare const config: unknown[];
export default config;
