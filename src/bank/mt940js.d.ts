// mt940js ships no types: the part payctl uses (src/bank/mt940.ts types what parse() returns).
declare module 'mt940js' {
  const mt940js: { Parser: new () => { parse(text: string): unknown[] } };
  export default mt940js;
}
