// Imported first by every build and test entry point: on a Node that payctl does not support, one line
// that says which Node it needs (and that the npm scripts bring it), instead of a stack trace later.
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 22 && minor >= 22) || (major === 24 && minor >= 15) || major >= 25)) {
  process.stderr.write(
    `payctl: needs Node 22.22 or 24.15 or later; this is Node ${process.versions.node}. ` +
      'Run it through npm (`npm run build`, `npm test`): after `npm ci` the npm scripts use the Node 24 the project installs ' +
      '(and `npm run build:exe` makes a single executable of payctl that needs no Node).\n',
  );
  process.exit(1);
}
