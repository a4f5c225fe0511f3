// The floor of any Node CLI that makes one call: one GET with node:http, body printed as it came.
//   BARE_URL=http://127.0.0.1:PORT/v1/payments/pay_x BARE_AUTH='Basic ...' node bare-http-get.mjs
import { request } from 'node:http';

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
