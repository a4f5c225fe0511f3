import { SaxesParser } from 'saxes';
import { openStatement, readFailure } from './lines';
import { FIELD_MAX, StatementError, tally } from './types';
import type { BankEntry, BankEvent, StatementTotals } from './types';
import { paise } from './values';

/*
 * ISO 20022 camt.053 (and camt.052/054, which share the entry) through saxes, a streaming XML parser:
 * the file goes through in chunks and only the current entry is held. saxes never expands an entity it
 * was not given, and a DOCTYPE (where entity bombs and external entities live) is refused before the
 * parser sees it, as is an element's text past TEXT_MAX: no XXE, no expansion, memory flat.
 */

const TEXT_MAX = 1024 * 1024;
const REFS = new Set(['AcctSvcrRef', 'EndToEndId', 'TxId', 'InstrId', 'UETR', 'MsgId', 'PmtInfId', 'ClrSysRef', 'Ref']);
const NOTES = new Set(['Ustrd', 'AddtlNtryInf', 'AddtlTxInf', 'Nm']);

interface Draft {
  line: number;
  amount?: string;
  cdt?: string;
  reversal?: boolean;
  booking?: string;
  value?: string;
  refs: string[];
  notes: string[];
}

const add = (list: string[], text: string) => {
  if (text && !list.includes(text) && list.join(' ').length < FIELD_MAX) list.push(text);
};

/** Every entry and statement of a camt.053 file, streamed. */
export async function* readCamt053(file: string): AsyncGenerator<BankEvent[]> {
  const out: BankEvent[] = [];
  const path: string[] = [];
  let text = '';
  let totals: StatementTotals | undefined;
  let bal: { type?: string; amount?: string; cdt?: string; line: number } | undefined;
  let entry: Draft | undefined;
  let statements = 0;
  const parser = new SaxesParser({ position: true, fileName: file });
  const where = () => `line ${parser.line}`;
  parser.on('error', (err) => {
    throw new StatementError(file, where(), `not well-formed XML: ${err.message.replace(/^.*?:\d+:\d+: /, '')}`);
  });
  parser.on('doctype', () => {
    throw new StatementError(file, where(), 'a DOCTYPE is refused (statements never need one; no DTDs or entities)');
  });
  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^.*:/, '');
    path.push(name);
    text = '';
    if (path.length === 1 && name !== 'Document')
      throw new StatementError(file, where(), `expected a camt.053 <Document>, found <${tag.name}>`);
    if (name === 'Stmt' || name === 'Rpt' || name === 'Ntfctn')
      totals = { file, line: parser.line, statement: '', credits: 0, debits: 0, entries: 0 };
    else if (name === 'Bal' && totals) bal = { line: parser.line };
    else if (name === 'Ntry' && totals) entry = { line: parser.line, refs: [], notes: [] };
  });
  parser.on('text', (t) => (text += t));
  parser.on('cdata', (t) => (text += t));
  parser.on('closetag', () => {
    const name = path.pop()!;
    const parent = path.at(-1);
    const value = text.trim();
    text = '';
    if (entry) {
      if (name === 'Amt' && parent === 'Ntry') entry.amount = value;
      else if (name === 'CdtDbtInd' && parent === 'Ntry') entry.cdt = value;
      else if (name === 'RvslInd' && parent === 'Ntry') entry.reversal = value === 'true';
      else if ((name === 'Dt' || name === 'DtTm') && parent === 'BookgDt') entry.booking = value.slice(0, 10);
      else if ((name === 'Dt' || name === 'DtTm') && parent === 'ValDt') entry.value = value.slice(0, 10);
      else if (REFS.has(name) && value !== 'NOTPROVIDED') add(entry.refs, value);
      else if (NOTES.has(name)) add(entry.notes, value);
      else if (name === 'Ntry') {
        out.push({ type: 'entry', entry: finished(file, entry, totals!) });
        entry = undefined;
      }
    } else if (bal) {
      if (name === 'Cd' || (name === 'Prtry' && !bal.type)) bal.type = value;
      else if (name === 'Amt') bal.amount = value;
      else if (name === 'CdtDbtInd') bal.cdt = value;
      else if (name === 'Bal') {
        const amount = paise(bal.amount ?? '');
        if (amount === undefined)
          throw new StatementError(file, `line ${bal.line}`, `balance <Amt> "${bal.amount ?? ''}" is not an amount`);
        const signed = bal.cdt === 'DBIT' ? -amount : amount;
        if (bal.type === 'OPBD' || bal.type === 'PRCD') totals!.opening ??= signed;
        else if (bal.type === 'CLBD') totals!.closing = signed;
        bal = undefined;
      }
    } else if (totals && name === 'Id' && parent && ['Stmt', 'Rpt', 'Ntfctn'].includes(parent)) {
      totals.statement = value;
    } else if (name === 'Stmt' || name === 'Rpt' || name === 'Ntfctn') {
      statements++;
      out.push({ type: 'statement', totals: totals! });
      totals = undefined;
    }
  });

  let run = 0;
  let tail = '';
  let line = 1;
  try {
    for await (const chunk of openStatement(file).setEncoding('utf8')) {
      const piece = chunk as string;
      const seen = tail + piece;
      const bad = /<!(DOCTYPE|ENTITY)/.exec(seen);
      if (bad) {
        const at = line + (seen.slice(0, bad.index).match(/\n/g)?.length ?? 0) - (tail.match(/\n/g)?.length ?? 0);
        throw new StatementError(
          file,
          `line ${at}`,
          `a ${bad[1]} is refused (statements never need one; no DTDs or entities)`,
        );
      }
      const lt = piece.lastIndexOf('<');
      run = lt < 0 ? run + piece.length : piece.length - lt;
      if (run > TEXT_MAX)
        throw new StatementError(
          file,
          `near line ${line}`,
          `an element's text is over ${TEXT_MAX >> 20} MiB: not a statement`,
        );
      line += piece.match(/\n/g)?.length ?? 0;
      tail = piece.slice(-10);
      parser.write(piece);
      if (out.length) yield out.splice(0);
    }
    parser.close();
  } catch (err) {
    if (err instanceof StatementError) throw err;
    throw readFailure(file, err);
  }
  if (out.length) yield out.splice(0);
  if (!statements) throw new StatementError(file, '', 'no camt.053 statement (<Stmt>) found');
}

function finished(file: string, d: Draft, totals: StatementTotals): BankEntry {
  const amount = paise(d.amount ?? '');
  if (amount === undefined)
    throw new StatementError(file, `line ${d.line}`, `entry <Amt> "${d.amount ?? ''}" is not an amount`);
  if (d.cdt !== 'CRDT' && d.cdt !== 'DBIT')
    throw new StatementError(file, `line ${d.line}`, `entry <CdtDbtInd> must be CRDT or DBIT, got "${d.cdt ?? ''}"`);
  const valueDate = d.value ?? d.booking;
  if (!valueDate || !/^\d{4}-\d{2}-\d{2}$/.test(valueDate))
    throw new StatementError(file, `line ${d.line}`, 'entry has no <ValDt> or <BookgDt> date (YYYY-MM-DD)');
  const entry: BankEntry = {
    file,
    line: d.line,
    statement: totals.statement,
    valueDate,
    bookingDate: d.booking,
    amount,
    // A reversal (RvslInd) is booked on the other side of what it reverses: its indicator already says so.
    credit: d.cdt === 'CRDT',
    reference: d.refs.join(' '),
    narration: d.notes.join(' '),
  };
  tally(totals, entry);
  return entry;
}
