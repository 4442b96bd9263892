import zlib from 'node:zlib';

/**
 * Hostile PDFs written object by object (pdfkit would not write most of them): page trees that
 * claim or reference far more pages than they hold, a decompression bomb, JavaScript actions.
 */

/** A PDF from its objects (1-based, in order) with a correct cross-reference table. */
function assemble(objects: Array<string | Buffer>, rootRef = 1): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${rootRef} 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

function stream(content: Buffer, filter?: 'FlateDecode'): Buffer {
  const data = filter ? zlib.deflateSync(content, { level: 9 }) : content;
  return Buffer.concat([
    Buffer.from(`<< /Length ${data.length}${filter ? ` /Filter /${filter}` : ''} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const textContent = (text: string) => Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`, 'latin1');

/**
 * A page tree nine levels deep in which every node lists the next one ten times: 10⁹ pages by
 * reference, in a file of a few kilobytes.
 */
export function pageTreeBomb(text: string): Buffer {
  const levels = 9;
  // 1 catalog, 2..levels+1 page-tree nodes, then the page, its content and its font.
  const page = levels + 2;
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level++) {
    const self = level + 2;
    const child = self + 1;
    const kids = Array.from({ length: 10 }, () => `${child} 0 R`).join(' ');
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${10 ** (levels - level)}${parent} >>`);
  }
  objects.push(
    `<< /Type /Page /Parent ${page - 1} 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 ${page + 2} 0 R >> >> >>`,
  );
  return assemble([...objects, stream(textContent(text)).toString('latin1'), FONT]);
}

/** One real page in a tree that says it holds a billion. */
export function pageCountLie(text: string): Buffer {
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(textContent(text)).toString('latin1'),
    FONT,
  ]);
}

/** `count` real pages sharing one content stream: a tiny file with many pages. */
export function manyPages(count: number, text: string): Buffer {
  const first = 3;
  const content = first + count;
  const font = content + 1;
  const kids = Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(' ');
  const pages = Array.from(
    { length: count },
    () =>
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
  );
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    ...pages,
    stream(textContent(text)).toString('latin1'),
    FONT,
  ]);
}

/** A page whose content stream inflates from a few kilobytes to `megabytes` MB of blank operators. */
export function deflateBomb(megabytes: number, text: string): Buffer {
  const blank = Buffer.alloc(megabytes * 1024 * 1024, 0x20);
  const content = Buffer.concat([textContent(text), Buffer.from('\n'), blank]);
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(content, 'FlateDecode'),
    FONT,
  ]);
}

/** A readable page with JavaScript run on opening and on a link: the text is what a reader keeps. */
export function withJavaScript(text: string, script: string): Buffer {
  return assemble([
    `<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(boot) 6 0 R] >> >> >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [7 0 R] >>',
    stream(textContent(text)).toString('latin1'),
    FONT,
    `<< /Type /Action /S /JavaScript /JS (${script}) >>`,
    '<< /Type /Annot /Subtype /Link /Rect [72 700 300 730] /A << /S /URI /URI (javascript:alert\\(1\\)) >> >>',
  ]);
}
