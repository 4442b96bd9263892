import { composeDigest, hasActivity, type DigestCounts, type DigestFigures } from './compose';

const zero: DigestCounts = { conversations: 0, questions: 0, answers: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 };
const APP = 'https://sparks.example.com';

const figures = (over: Partial<DigestFigures> = {}): DigestFigures => ({
  from: '2026-11-23',
  to: '2026-11-29',
  totals: { conversations: 42, questions: 60, answers: 56, notCovered: 7, ratedUp: 5, ratedDown: 2 },
  sparks: [
    {
      sparkId: 's1',
      name: 'Bakery',
      totals: { conversations: 40, questions: 57, answers: 53, notCovered: 7, ratedUp: 5, ratedDown: 2 },
    },
    {
      sparkId: 's2',
      name: 'Helpdesk',
      totals: { conversations: 2, questions: 3, answers: 3, notCovered: 0, ratedUp: 0, ratedDown: 0 },
    },
    { sparkId: 's3', name: 'Quiet', totals: zero },
  ],
  topQuestions: [
    { question: 'What are your opening hours?', count: 12 },
    { question: 'Do you deliver?', count: 4 },
    { question: 'Is there gluten-free bread?', count: 1 },
    { question: 'Where are you?', count: 1 },
  ],
  ...over,
});

describe('hasActivity', () => {
  it('is a week with a conversation or a rating; an empty week sends nothing', () => {
    expect(hasActivity(zero)).toBe(false);
    expect(hasActivity({ ...zero, conversations: 1 })).toBe(true);
    expect(hasActivity({ ...zero, ratedDown: 1 })).toBe(true);
    expect(hasActivity({ ...zero, ratedUp: 1 })).toBe(true);
  });
});

describe('composeDigest', () => {
  it('writes the week in English: subject, dates, totals with the share answered, active Sparks, top 3, links', () => {
    const mail = composeDigest({ language: 'en', figures: figures(), appUrl: APP });
    expect(mail.subject).toBe('Your Sparks this week: 42 conversations');
    expect(mail.text).toBe(
      [
        'Hello,',
        'This is how your Sparks did last week, from November 23, 2026 to November 29, 2026.',
        [
          'The week in figures:',
          '- Conversations: 42',
          '- Answers: 56, 88% of them from your documents',
          '- Not covered by your documents: 7',
          '- Answers rated up: 5; rated down: 2',
        ].join('\n'),
        [
          'Your Sparks:',
          '- Bakery: 40 conversations, 53 answers, 7 not covered',
          '- Helpdesk: 2 conversations, 3 answers, 0 not covered',
        ].join('\n'),
        [
          'Asked most:',
          '1. What are your opening hours? (12 times)',
          '2. Do you deliver? (4 times)',
          '3. Is there gluten-free bread? (once)',
        ].join('\n'),
        "To fix: the questions your documents did not cover and the answers rated down are in the Unanswered list of each Spark's page. Answer them there and your Spark will know next time.",
        `Every figure, day by day: ${APP}/analytics`,
        `You get this e-mail on Monday mornings. To stop it, turn off the weekly summary in your profile: ${APP}/profile`,
      ].join('\n\n'),
    );
  });

  it('writes it in Spanish, numbers and dates as Spanish writes them', () => {
    const mail = composeDigest({
      language: 'es',
      figures: figures({
        totals: { conversations: 1234, questions: 2000, answers: 1500, notCovered: 0, ratedUp: 0, ratedDown: 0 },
      }),
      appUrl: APP,
    });
    expect(mail.subject).toBe('Tus Sparks esta semana: 1234 conversaciones');
    expect(mail.text).toContain(
      'Así les fue a tus Sparks la semana pasada, del 23 de noviembre de 2026 al 29 de noviembre de 2026.',
    );
    // Spanish puts a no-break space before the percent sign.
    expect(mail.text).toContain('- Respuestas: 1500, el 100\u00a0% a partir de tus documentos');
    expect(mail.text).toContain('1. What are your opening hours? (12 veces)');
    expect(mail.text).toContain('3. Is there gluten-free bread? (una vez)');
    expect(mail.text).toContain(`${APP}/profile`);
    // Nothing to fix: no question left uncovered, no answer rated down.
    expect(mail.text).not.toContain('Para mejorar');
  });

  it('says one conversation in the singular, and leaves out the share of a week without answers', () => {
    const mail = composeDigest({
      language: 'en',
      figures: figures({
        totals: { ...zero, conversations: 1, questions: 1 },
        sparks: [{ sparkId: 's1', name: 'Bakery', totals: { ...zero, conversations: 1, questions: 1 } }],
        topQuestions: [{ question: 'Hi?', count: 1 }],
      }),
      appUrl: APP,
    });
    expect(mail.subject).toBe('Your Sparks this week: 1 conversation');
    expect(mail.text).toContain('- Answers: 0\n');
    expect(mail.text).toContain('- Bakery: 1 conversation, 0 answers, 0 not covered');
  });

  it('a week of ratings only still has its figures, and no empty sections', () => {
    const mail = composeDigest({
      language: 'en',
      figures: figures({
        totals: { ...zero, ratedDown: 1 },
        sparks: [{ sparkId: 's1', name: 'Bakery', totals: { ...zero, ratedDown: 1 } }],
        topQuestions: [],
      }),
      appUrl: APP,
    });
    expect(mail.subject).toBe('Your Sparks this week: 0 conversations');
    expect(mail.text).toContain('rated down: 1');
    expect(mail.text).not.toContain('Asked most');
    expect(mail.html).not.toContain('<ol>');
    expect(mail.text).toContain('To fix:');
  });

  it('escapes what owners and visitors typed in the HTML, and folds a question onto one line', () => {
    const mail = composeDigest({
      language: 'en',
      figures: figures({
        sparks: [
          {
            sparkId: 's1',
            name: 'Tom & Jerry <b>"Bakery"</b>',
            totals: { ...zero, conversations: 1, answers: 1 },
          },
        ],
        topQuestions: [{ question: '<script>alert(1)</script>\n\nand\ta link <a href="x">', count: 2 }],
      }),
      appUrl: APP,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<a href="x">');
    expect(mail.html).toContain('Tom &amp; Jerry &lt;b&gt;&quot;Bakery&quot;&lt;/b&gt;');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; and a link &lt;a href=&quot;x&quot;&gt; (2 times)',
    );
    expect(mail.html).toContain(`<a href="${APP}/analytics">${APP}/analytics</a>`);
    expect(mail.html).toContain(`<a href="${APP}/profile">${APP}/profile</a>`);
    // The plain text keeps them as typed, on one line.
    expect(mail.text).toContain('- Tom & Jerry <b>"Bakery"</b>: 1 conversation, 1 answer, 0 not covered');
    expect(mail.text).toContain('1. <script>alert(1)</script> and a link <a href="x"> (2 times)');
  });

  it('the HTML holds the same figures, in lists, with the language and the subject', () => {
    const mail = composeDigest({ language: 'es', figures: figures(), appUrl: APP });
    expect(mail.html).toMatch(/^<!doctype html><html lang="es">/);
    expect(mail.html).toContain('<title>Tus Sparks esta semana: 42 conversaciones</title>');
    expect(mail.html).toContain('<h2>La semana en cifras</h2><ul><li>Conversaciones: 42</li>');
    expect(mail.html).toContain('<li>Bakery: 40 conversaciones, 53 respuestas, 7 sin cubrir</li>');
    expect(mail.html).toContain('<h2>Lo más preguntado</h2><ol><li>What are your opening hours? (12 veces)</li>');
    expect(mail.html).not.toContain('Quiet');
    expect(mail.html).toContain('Para mejorar');
  });

  it('cuts a very long question', () => {
    const long = `${'why '.repeat(100)}?`;
    const mail = composeDigest({
      language: 'en',
      figures: figures({ topQuestions: [{ question: long, count: 3 }] }),
      appUrl: APP,
    });
    const line = mail.text.split('\n').find((l) => l.startsWith('1. '))!;
    expect(line.length).toBeLessThan(200);
    expect(line).toMatch(/…\s\(3 times\)$/);
  });
});
