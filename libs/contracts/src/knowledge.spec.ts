import { documentTitle, updateDocumentSchema } from './knowledge';

describe('documentTitle (issue 34 item 10: what customers read as a source)', () => {
  it('is the title the owner gave', () => {
    expect(documentTitle({ name: 'espiga-en.pdf', title: 'Our menu' })).toBe('Our menu');
  });

  it('is the file name without its extension by default', () => {
    expect(documentTitle({ name: 'espiga-en.pdf', title: null })).toBe('espiga-en');
    expect(documentTitle({ name: 'Guía 2026.v2.PDF' })).toBe('Guía 2026.v2');
    expect(documentTitle({ name: 'notes.docx' })).toBe('notes');
  });

  it('keeps a name that has no extension, or would be empty without it', () => {
    expect(documentTitle({ name: 'Price list 3.5 euros' })).toBe('Price list 3.5 euros');
    expect(documentTitle({ name: '.pdf' })).toBe('.pdf');
  });

  it("keeps an owner's answer as it is: its name is the question it answers", () => {
    expect(documentTitle({ name: 'Do you deliver on Sundays?', origin: 'owner' })).toBe('Do you deliver on Sundays?');
    expect(documentTitle({ name: 'Is it open at 9.30?', origin: 'owner' })).toBe('Is it open at 9.30?');
  });
});

describe('updateDocumentSchema', () => {
  const title = (value: unknown) => updateDocumentSchema.safeParse({ title: value });

  it('keeps a title on one line, without control characters or direction overrides', () => {
    expect(title(' Menu\r\n2026\u202E\u0000 ').data).toEqual({ title: 'Menu 2026' });
  });

  it('reads null or blank as "back to the file name"', () => {
    expect(title(null).data).toEqual({ title: null });
    expect(title('  \n ').data).toEqual({ title: null });
  });

  it('refuses a missing, non-text or too long title', () => {
    expect(updateDocumentSchema.safeParse({}).success).toBe(false);
    expect(title(7).success).toBe(false);
    expect(title('x'.repeat(121)).success).toBe(false);
    expect(title('x'.repeat(120)).success).toBe(true);
  });
});
