// The same GET through undici as published (its main entry, which loads all of undici and node:http,
// node:http2, node:tls with it): what payctl's HTTP layer costs at start-up before any code of payctl's.
// Not a target: it shows how much of `payments get` above the bare node:http floor is the library.
const { request } = require('undici');

request(process.env.BARE_URL, { headers: { authorization: process.env.BARE_AUTH, accept: 'application/json' } })
  .then(async (res) => {
    process.stdout.write(Buffer.from(await res.body.arrayBuffer()));
    process.stdout.write('\n');
    process.exitCode = res.statusCode === 200 ? 0 : 1;
  })
  .catch((err) => {
    console.error(err.message);
    process.exitCode = 5;
  });
