// A small Markdown reader for what agents write: paragraphs, headings, lists, fenced code, inline
// code, emphasis. Everything becomes React text: no HTML is ever parsed or inserted, and a link
// is shown as its words and address, never made clickable (an agent chooses where it points).
import type { ReactNode } from 'react';

type Block =
  | { type: 'code'; text: string }
  | { type: 'heading'; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'paragraph'; text: string };

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

function blocks(source: string): Block[] {
  const out: Block[] = [];
  const lines = source.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trimStart().startsWith('```')) {
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trimStart().startsWith('```')) code.push(lines[i++]!);
      i += 1;
      out.push({ type: 'code', text: code.join('\n') });
    } else if (/^#{1,6}\s/.test(line)) {
      out.push({ type: 'heading', text: line.replace(/^#+\s*/, '') });
      i += 1;
    } else if (BULLET.test(line) || NUMBERED.test(line)) {
      const ordered = NUMBERED.test(line);
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!))
        items.push(pattern.exec(lines[i++]!)![1]!);
      out.push({ type: 'list', ordered, items });
    } else if (line.trim() === '') {
      i += 1;
    } else {
      const text: string[] = [];
      while (
        i < lines.length &&
        lines[i]!.trim() !== '' &&
        !lines[i]!.trimStart().startsWith('```')
      ) {
        text.push(lines[i++]!);
      }
      out.push({ type: 'paragraph', text: text.join('\n') });
    }
  }
  return out;
}

const INLINE = /(`[^`\n]+`|\*\*[^*\n]+\*\*|\*[^*\n]+\*|_[^_\n]+_|\[[^\]\n]*\]\([^)\s]*\))/g;

function inline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
      return <code key={i}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4)
      return <strong key={i}>{part.slice(2, -2)}</strong>;
    if (/^[*_].+[*_]$/.test(part)) return <em key={i}>{part.slice(1, -1)}</em>;
    const link = /^\[([^\]]*)\]\(([^)]*)\)$/.exec(part);
    if (link) return <span key={i}>{`${link[1]} (${link[2]})`}</span>;
    return part;
  });
}

export function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      {blocks(text).map((block, i) => {
        switch (block.type) {
          case 'code':
            return (
              <pre key={i}>
                <code>{block.text}</code>
              </pre>
            );
          case 'heading':
            return (
              <p key={i} className="md-heading">
                {inline(block.text)}
              </p>
            );
          case 'list': {
            const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
            return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          case 'paragraph':
            return <p key={i}>{inline(block.text)}</p>;
        }
      })}
    </div>
  );
}
