// The floor of any Node CLI that makes one call: one GET with node:http, body printed as it came.
//   BARE_URL=http://127.0.0.1:PORT/v1/payments/pay_x BARE_AUTH='Basic ...' node bare-http-get.cjs
// startup.mjs also runs it as an ES module (this require made an import). An ES module's `import 'node:http'`
// builds a namespace of every export and so runs node:http's lazy getters (http.WebSocket loads Node's
// internal undici): a cost a CLI does not have to pay (see docs/benchmarks.md). As CommonJS it shows the
// floor without it.
const { request } = require('node:http');

const req = request(
  process.env.BARE_URL,
  { headers: { authorization: process.env.BARE_AUTH, accept: 'application/json' } },
  (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      process.stdout.write(Buffer.concat(chunks));
      process.stdout.write('\n');
      process.exitCode = res.statusCode === 200 ? 0 : 1;
    });
  },
);
req.on('error', (err) => {
  console.error(err.message);
  process.exitCode = 5;
});
req.end();
