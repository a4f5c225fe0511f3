declare const __PAYCTL_VERSION__: string | undefined;

/** Replaced at build time by esbuild; tests running from source see the dev marker. */
export const VERSION = typeof __PAYCTL_VERSION__ === 'string' ? __PAYCTL_VERSION__ : '0.0.0-dev';
