import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryItem } from '../../../shared/history';
import { csvCell, type StoreEngine } from '.';
import { CSV_COLUMNS } from './export';
import { decide, tempStore } from '../../../../test/support/store';

/** A small RFC 4180 reader, to check the export parses back to the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

let store: StoreEngine;
let cleanup: () => Promise<void>;
const titles = [
  '=HYPERLINK("http://evil")',
  '+1+2',
  '-2+3',
  '@SUM(A1)',
  '\tcmd',
  'plain, with comma',
  'has "quotes"',
  'two\nlines',
  'crlf\r\nline',
  'ünïcödé ✓',
];

beforeAll(async () => {
  ({ store, cleanup } = tempStore());
  for (let i = 0; i < titles.length; i++) {
    await decide(
      store,
      {
        title: titles[i],
        command: i % 2 ? `echo "${i}", done` : null,
        paths: i % 2 ? [] : [`dir/file${i}.txt`, 'b,c.txt'],
        issuedAt: 1_700_000_000_000 + i * 1000,
      },
      i % 3 ? 'allow' : 'deny',
    );
  }
  // Enough rows to span several export pages (500 each).
  for (let i = 0; i < 1100; i++)
    await decide(store, { title: `bulk ${i}`, issuedAt: 1_600_000_000_000 + i });
});
afterAll(async () => cleanup());

describe('csv', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\t=x')).toBe("'\t=x");
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvCell(-5)).toBe('-5'); // numbers are data
  });

  it('exports a filter as CSV that parses back row for row', () => {
    const text = [...store.exportHistory({ from: 1_700_000_000_000 }, 'csv')].join('');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(titles.length + 1);
    const byTitle = new Map(rows.slice(1).map((r) => [r[CSV_COLUMNS.indexOf('title')]!, r]));
    expect(byTitle.get('\'=HYPERLINK("http://evil")')).toBeDefined();
    expect(byTitle.get("'+1+2")).toBeDefined();
    expect(byTitle.get("'@SUM(A1)")).toBeDefined();
    expect(byTitle.get('two\nlines')).toBeDefined();
    expect(byTitle.get('crlf\r\nline')).toBeDefined();
    const withComma = byTitle.get('plain, with comma')!;
    expect(withComma[CSV_COLUMNS.indexOf('command')]).toBe('echo "5", done');
    expect(byTitle.get('ünïcödé ✓')![CSV_COLUMNS.indexOf('decision')]).toBe('deny');
    expect(byTitle.get('two\nlines')![CSV_COLUMNS.indexOf('decision')]).toBe('allow');
    expect(byTitle.get(`'${titles[0]}`)![CSV_COLUMNS.indexOf('paths')]).toBe(
      'dir/file0.txt\nb,c.txt',
    );
    expect(byTitle.get('=HYPERLINK("http://evil")')).toBeUndefined();
    const newest = rows[1]!;
    expect(newest[CSV_COLUMNS.indexOf('decided_at')]).toBe(
      new Date(1_700_000_000_000 + 9000 + 1000).toISOString(),
    );
    expect(newest[CSV_COLUMNS.indexOf('decider')]).toBe('person');
    expect(newest[CSV_COLUMNS.indexOf('decider_detail')]).toBe('desktop (dialog)');
  });
});

describe('jsonl', () => {
  it('is one HistoryItem per line, every row of the filter, in history order, in page-sized chunks', () => {
    const chunks = [...store.exportHistory({}, 'jsonl')];
    expect(chunks.length).toBe(3); // 1110 rows, 500 per page
    const lines = chunks.join('').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1110);
    const items = lines.map((l) => HistoryItem.parse(JSON.parse(l)));
    expect(items.map((i) => i.requestId)).toEqual(
      [...store.exportHistory({}, 'jsonl')]
        .join('')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { requestId: string }).requestId),
    );
    expect(items.slice(0, 10).map((i) => i.title)).toEqual([...titles].reverse());
    expect(new Set(items.map((i) => i.requestId)).size).toBe(1110);
  });

  it('applies the filter', () => {
    // Denied (i % 3 == 0) with a path under dir/ (i even): rows 6 and 0, newest first.
    const lines = [...store.exportHistory({ decision: 'deny', q: 'dir' }, 'jsonl')]
      .join('')
      .trim()
      .split('\n');
    const items = lines.map((l) => HistoryItem.parse(JSON.parse(l)));
    expect(items.map((i) => i.title)).toEqual([titles[6], titles[0]]);
    for (const item of items) expect(item.reply).toMatchObject({ optionKind: 'reject_once' });
    expect([...store.exportHistory({ agentId: 'nobody' }, 'jsonl')]).toEqual([]);
    expect([...store.exportHistory({ agentId: 'nobody' }, 'csv')]).toEqual([
      CSV_COLUMNS.join(',') + '\r\n',
    ]);
  });
});
