import {
  cutName,
  describeDate,
  documentNameLimit,
  DEPLOY_WELCOME_REFRESH_MS,
  isStale,
  isStartKeyword,
  messageDates,
  revealDelay,
  toDisplayItems,
  type DisplayItem,
} from './display';
import type { ChatMessage } from './types';

let n = 0;
function msg(type: ChatMessage['type'], data: ChatMessage['data'], createdAt: string | undefined = undefined) {
  n += 1;
  return { _id: `m${n}`, type, data, createdAt } as ChatMessage;
}
const human = (content: string, extra: Record<string, unknown> = {}, at = '2025-03-10T10:00:00Z') =>
  msg('human', { content, ...extra }, at);
const ai = (content: string, extra: Record<string, unknown> = {}, at = '2025-03-10T10:00:01Z') =>
  msg('ai', { content, ...extra }, at);
const action = (type: string, extra: Record<string, unknown> = {}, at = '2025-03-10T10:00:02Z') =>
  msg('action', { content: '', type, ...extra }, at);

const kinds = (items: DisplayItem[]) => items.map((i) => i.kind);

describe('isStartKeyword', () => {
  it.each([
    'inicio',
    'INICIO',
    ' Inicio ',
    'inicio en español',
    'Inicio en Español',
    'start in english',
    'Start in French',
  ])('%p is a start keyword', (text) => expect(isStartKeyword(text)).toBe(true));

  it.each(['', 'hola', 'inicio ya', 'iniciar', 'start', 'start in', 'inicio en', 'empezar en español'])(
    '%p is not',
    (text) => expect(isStartKeyword(text)).toBe(false),
  );
});

describe('toDisplayItems (docs/product.md §4 display rules)', () => {
  it('hides human messages that are empty or a start keyword', () => {
    const items = toDisplayItems([human(''), human('   '), human('inicio'), human('Start in English'), human('Hola')]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'human', content: 'Hola' });
  });

  it('shows an empty human message followed by an ai document message as "you uploaded", then what was read', () => {
    const items = toDisplayItems([
      human(''),
      ai('He leído 2 páginas de menu.pdf', { type: 'document', name: 'menu.pdf', documentId: 'd1' }),
    ]);
    expect(kinds(items)).toEqual(['upload', 'assistant']);
    expect(items[0]).toMatchObject({ kind: 'upload', name: 'menu.pdf' });
    expect(items[1]).toMatchObject({
      kind: 'assistant',
      variant: 'document',
      content: 'He leído 2 páginas de menu.pdf',
    });
  });

  it('shows the server’s upload message (empty, type document) and the later read message once', () => {
    const items = toDisplayItems([
      human('', { type: 'document', name: 'carta.pdf', documentId: 'd2' }),
      ai('Sigo esperando.'),
      ai('He leído carta.pdf', { type: 'document', name: 'carta.pdf', documentId: 'd2' }),
    ]);
    expect(kinds(items)).toEqual(['upload', 'assistant', 'assistant']);
    expect(items.filter((i) => i.kind === 'upload')).toHaveLength(1);
  });

  it('shows an ai document message without its upload as a "you uploaded" bubble', () => {
    const items = toDisplayItems([ai('Read it', { type: 'document', name: 'faq.pdf', documentId: 'd3' })]);
    expect(kinds(items)).toEqual(['upload', 'assistant']);
    expect(items[0]).toMatchObject({ name: 'faq.pdf' });
  });

  it('makes non-empty ai messages markdown bubbles and skips empty ones; errors are marked', () => {
    const items = toDisplayItems([ai(''), ai('**Hola**'), ai('No puedo', { type: 'error' })]);
    expect(items.map((i) => (i.kind === 'assistant' ? i.variant : i.kind))).toEqual(['text', 'error']);
  });

  it('keeps known widgets, skips events and unknown action types', () => {
    const items = toDisplayItems([
      action('options', { options: [] }),
      action('event', { event: 'sparkCreated', sparkId: 's1' }),
      action('mystery'),
      action('colorPalette', { palettes: [] }),
    ]);
    expect(items.map((i) => (i.kind === 'widget' ? i.widget : i.kind))).toEqual(['options', 'colorPalette']);
  });

  it('makes the widgets of the last reply interactive, and none the user has answered after', () => {
    const items = toDisplayItems([
      action('options'),
      human('Sell products'),
      ai('Saved.'),
      action('buttons'),
      ai('Pick one'),
      action('options'),
    ]);
    const widgets = items.filter((i) => i.kind === 'widget');
    // The "Undo" offered with the next question stays usable (issue 18: it was disabled at once).
    expect(widgets.map((w) => w.kind === 'widget' && w.interactive)).toEqual([false, true, true]);
    const older = toDisplayItems([action('options'), human('Sell products')]);
    expect(older[0]).toMatchObject({ kind: 'widget', interactive: false });
    const upload = toDisplayItems([
      action('buttons'),
      human('', { type: 'document', name: 'a.pdf', documentId: 'd9' }),
    ]);
    expect(upload[0]).toMatchObject({ kind: 'widget', interactive: false });
  });

  it('shows the label of the choice a human message answers, not its value', () => {
    const options = action('options', {
      options: [
        { label: 'Sell products', value: 'sell' },
        { label: 'Go', goto: '/x' },
      ],
    });
    const items = toDisplayItems([options, human('sell'), ai('Ok'), human('sell')]);
    expect(items.filter((i) => i.kind === 'human').map((i) => i.kind === 'human' && i.content)).toEqual([
      'Sell products',
      'sell',
    ]);
    expect(
      toDisplayItems([action('buttons', { buttons: [{ label: 'Yes', value: 'yes' }] }), human('no')])[1],
    ).toMatchObject({ content: 'no' });
  });

  it('shows the date on human messages, on the last message and before a human message', () => {
    const items = toDisplayItems([
      human('inicio'),
      ai('Hi!'),
      action('buttons'),
      human('Question'),
      ai('Answer 1'),
      ai('Answer 2'),
    ]);
    expect(items.map((i) => [i.kind, i.showDate])).toEqual([
      ['assistant', false],
      ['widget', true],
      ['human', true],
      ['assistant', false],
      ['assistant', true],
    ]);
  });
});

describe('messageDates', () => {
  it('uses the nearest earlier date for a missing one, else now', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    const dates = messageDates(
      [
        msg('ai', { content: 'a' }, undefined),
        msg('ai', { content: 'b' }, '2025-03-10T10:00:00Z'),
        msg('ai', { content: 'c' }, undefined),
        msg('ai', { content: 'd' }, 'not a date'),
      ],
      now,
    );
    expect(dates.map((d) => d.toISOString())).toEqual([
      '2025-03-10T12:00:00.000Z',
      '2025-03-10T10:00:00.000Z',
      '2025-03-10T10:00:00.000Z',
      '2025-03-10T10:00:00.000Z',
    ]);
  });
});

describe('describeDate', () => {
  const now = new Date(2025, 2, 10, 18, 30);

  it('says today or yesterday with the time, else day/month with the time', () => {
    expect(describeDate(new Date(2025, 2, 10, 9, 5), now, 'es')).toEqual({
      day: 'today',
      dayMonth: '10/03',
      time: '09:05',
    });
    expect(describeDate(new Date(2025, 2, 9, 23, 59), now, 'es')).toMatchObject({ day: 'yesterday', time: '23:59' });
    expect(describeDate(new Date(2025, 1, 3, 7, 0), now, 'es')).toMatchObject({ day: 'other', dayMonth: '03/02' });
    expect(describeDate(new Date(2025, 2, 10, 9, 5), now, 'en').time).toMatch(/^09:05\sAM$/);
  });
});

describe('revealDelay (docs/product.md §9: 800 ms per step, no delay after 1 s)', () => {
  const now = Date.parse('2025-03-10T10:00:10.000Z');

  it('delays the n-th fresh message n × 800 ms', () => {
    expect(revealDelay(0, '2025-03-10T10:00:09.900Z', now)).toBe(0);
    expect(revealDelay(1, '2025-03-10T10:00:09.900Z', now)).toBe(800);
    expect(revealDelay(3, '2025-03-10T10:00:09.000Z', now)).toBe(2400);
  });

  it('shows a message older than 1 s, or without a date, at once', () => {
    expect(revealDelay(2, '2025-03-10T10:00:08.999Z', now)).toBe(0);
    expect(revealDelay(2, undefined, now)).toBe(0);
  });
});

describe('uploaded document names (docs/product.md §9)', () => {
  it('fits about 40% of the width / 10 from 1160 px, less below, 30 when unknown', () => {
    expect(documentNameLimit(1440)).toBe(57);
    expect(documentNameLimit(1160)).toBe(46);
    expect(documentNameLimit(1000)).toBe(20);
    expect(documentNameLimit(390)).toBe(8);
    expect(documentNameLimit(undefined)).toBe(30);
  });

  it('cuts longer names with an ellipsis', () => {
    expect(cutName('presupuesto-anual-2025.pdf', 11)).toBe('presupuesto…');
    expect(cutName('menu.pdf', 11)).toBe('menu.pdf');
  });
});

describe('the test verdict in the builder chat (issue 18 item 14)', () => {
  it('marks the verdict keyword so the chat shows it in the reader’s language, and leaves other text alone', () => {
    const items = toDisplayItems([
      human('test satisfactory'),
      ai('¡Genial!'),
      human('Test not satisfactory'),
      human('a test'),
    ]);
    const humans = items.filter((item) => item.kind === 'human');
    expect(humans.map((item) => (item.kind === 'human' ? item.verdict : 'x'))).toEqual([true, false, undefined]);
  });
});

describe('docs/product.md §4: the deploy conversation starts over after 24 h', () => {
  const now = Date.parse('2025-03-11T10:00:02Z');
  it('is stale when the assistant last spoke more than 24 h ago, whatever the human said since', () => {
    const day = DEPLOY_WELCOME_REFRESH_MS;
    expect(day).toBe(86_400_000);
    expect(isStale([human('hi'), ai('Welcome', {}, '2025-03-10T10:00:01Z')], day, now)).toBe(true);
    expect(isStale([ai('Welcome', {}, '2025-03-10T10:00:03Z')], day, now)).toBe(false);
    // The newest ai message counts, not the first one nor a later action or human message.
    expect(
      isStale(
        [ai('old', {}, '2025-03-01T00:00:00Z'), ai('new', {}, '2025-03-11T09:00:00Z'), action('buttons')],
        day,
        now,
      ),
    ).toBe(false);
    expect(
      isStale([ai('Welcome', {}, '2025-03-10T09:00:00Z'), human('later', {}, '2025-03-11T09:59:00Z')], day, now),
    ).toBe(true);
  });
  it('is not stale without an assistant message or without its date', () => {
    expect(isStale([], DEPLOY_WELCOME_REFRESH_MS, now)).toBe(false);
    expect(isStale([human('hi')], DEPLOY_WELCOME_REFRESH_MS, now)).toBe(false);
    expect(isStale([msg('ai', { content: 'Welcome' })], DEPLOY_WELCOME_REFRESH_MS, now)).toBe(false);
  });
});
