import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The import arrows docs/architecture.md describes (its table is written from this one by `npm run docs`):
 * cli -> agent -> commands -> client | output | bulk | config -> contract; sandbox -> contract; commands ->
 * bank (statement readers and matching) -> contract. A folder may import its own files, the folders below it,
 * and src/version.ts. (bulk -> output: a bulk run's progress line is drawn by output's status line.) src/rows
 * holds how a list's rows flow a page at a time, which the client makes and output writes: below both,
 * importing nothing. Only the sandbox command group and the runtime's `--sandbox` starter import src/sandbox
 * (STARTERS): every other command, the webhooks commands included, reads the sandbox's answers through the
 * shapes in src/contract.
 */
export const LAYERS = {
  cli: ['agent', 'commands', 'client', 'output', 'bulk', 'config', 'contract', 'rows'],
  agent: ['commands', 'output', 'bulk', 'config', 'contract', 'rows'],
  commands: ['client', 'output', 'bulk', 'config', 'contract', 'rows', 'bank'],
  client: ['contract', 'rows'],
  output: ['contract', 'rows'],
  bulk: ['output', 'contract', 'rows', 'platform'],
  config: ['contract', 'platform'],
  sandbox: ['contract'],
  bank: ['contract'],
  contract: [],
  rows: [],
  platform: [],
};
/** The files besides src/sandbox that may import it: the sandbox command group and the `--sandbox` starter. */
export const STARTERS = ['src/commands/sandbox/**/*.ts', 'src/commands/runtime.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.cjs', 'bin/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only src/cli/run.ts exits.' },
        { object: 'process', property: 'env', message: 'The environment is read once, in src/cli, and passed down.' },
        { object: 'process', property: 'argv', message: 'argv is read once, in src/cli.' },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only src/cli/run.ts exits.' },
      ],
    },
  },
  { files: ['src/cli/run.ts'], rules: { 'no-restricted-properties': 'off' } },
  ...layers(),
);

/** Each arrow of LAYERS as a `no-restricted-imports` rule: an import against an arrow fails lint. */
function layers() {
  const below = LAYERS;
  const all = Object.keys(below);
  const rule = (folder, files, allowed) => {
    const banned = all.filter((f) => f !== folder && !allowed.includes(f));
    return {
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: banned.map((f) => ({
              regex: `^(\\.\\./)+${f}(/|$)`,
              message: `src/${folder} may not import src/${f} (docs/architecture.md: ${folder} -> ${allowed.join(' | ') || 'nothing'})`,
            })),
          },
        ],
      },
    };
  };
  return [
    ...all.map((folder) => rule(folder, [`src/${folder}/**/*.ts`], below[folder])),
    rule('commands', STARTERS, [...below.commands, 'sandbox']),
  ];
}
