import { choosePoppler, pdfReaderSettings, type PopplerLookup } from './poppler';

const tools = { pdftotext: '/usr/bin/pdftotext', pdfinfo: '/usr/bin/pdfinfo', prlimit: '/usr/bin/prlimit' };
const found = (): PopplerLookup => ({ tools });
const missing = (): PopplerLookup => ({ missing: 'pdftotext (poppler-utils)' });

describe('pdfReaderSettings', () => {
  it('reads INGEST_PDF_READER (auto by default) and PDFTOTEXT_PATH', () => {
    expect(pdfReaderSettings({})).toEqual({ mode: 'auto', pdftotextPath: undefined });
    expect(pdfReaderSettings({ INGEST_PDF_READER: 'pdfjs', PDFTOTEXT_PATH: '/opt/poppler/bin/pdftotext' })).toEqual({
      mode: 'pdfjs',
      pdftotextPath: '/opt/poppler/bin/pdftotext',
    });
  });

  it('refuses a wrong value, naming the setting', () => {
    expect(() => pdfReaderSettings({ INGEST_PDF_READER: 'xpdf' })).toThrow(/INGEST_PDF_READER/);
    expect(() => pdfReaderSettings({ PDFTOTEXT_PATH: 'bin/pdftotext' })).toThrow(/PDFTOTEXT_PATH must be an absolute/);
  });
});

describe('choosePoppler', () => {
  it('uses poppler when it is found, in auto and poppler modes', () => {
    expect(choosePoppler({ mode: 'auto' }, found).tools).toEqual(tools);
    expect(choosePoppler({ mode: 'poppler' }, found).tools).toEqual(tools);
  });

  it('falls back to pdf.js in auto mode when poppler is missing, and says why', () => {
    const choice = choosePoppler({ mode: 'auto' }, missing);
    expect(choice.tools).toBeUndefined();
    expect(choice.note).toMatch(/pdf\.js: pdftotext \(poppler-utils\) was not found/);
  });

  it('refuses to start in poppler mode without poppler', () => {
    expect(() => choosePoppler({ mode: 'poppler' }, missing)).toThrow(/INGEST_PDF_READER=poppler, but pdftotext/);
  });

  it('never looks for poppler in pdfjs mode', () => {
    const find = jest.fn(found);
    expect(choosePoppler({ mode: 'pdfjs' }, find).tools).toBeUndefined();
    expect(find).not.toHaveBeenCalled();
  });
});
