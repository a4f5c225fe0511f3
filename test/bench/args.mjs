// The bench's command-line arguments, in a module of their own: a script run alone reads them without
// common.mjs's set-up (its PAYCTL_HOME, its environment).
export const args = process.argv.slice(2);

/** The value after `--name`, or `fallback` when the flag is not given. */
export const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
