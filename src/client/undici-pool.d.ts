// undici's index loads every part of it (fetch, cookies, websockets: ~70 ms at startup); payctl uses
// only a pool and its request(), so both come from their own modules (see pool.ts).
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: typeof import('undici').Pool;
  export default Pool;
}
declare module 'undici/lib/api/api-request.js' {
  const request: import('undici').Pool['request'];
  export default request;
}
