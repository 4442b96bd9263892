import { FEEDBACK_TEXTS } from './feedback-texts';
import { PRIVACY_TEXTS } from './privacy-texts';
import { TEXTS, text } from './texts';
import { renderMarkdown } from './markdown';

describe('website widget', () => {
  it('has every text in Spanish and English', () => {
    expect(Object.keys(TEXTS.es).sort()).toEqual(Object.keys(TEXTS.en).sort());
    for (const lang of ['es', 'en'] as const) {
      for (const value of Object.values(TEXTS[lang])) expect(value.trim().length).toBeGreaterThan(0);
    }
    expect(text('es', 'tooMany', { seconds: 7 })).toContain('7 s');
    for (const texts of [PRIVACY_TEXTS, FEEDBACK_TEXTS]) {
      expect(Object.keys(texts.es).sort()).toEqual(Object.keys(texts.en).sort());
      for (const lang of ['es', 'en'] as const) {
        for (const value of Object.values(texts[lang])) expect(value.trim().length).toBeGreaterThan(0);
      }
    }
    // Rating an answer (issue 35), in the visitor's language.
    expect([FEEDBACK_TEXTS.en.question, FEEDBACK_TEXTS.en.up, FEEDBACK_TEXTS.en.down]).toEqual([
      'Was this helpful?',
      'Helpful',
      'Not helpful',
    ]);
    expect([FEEDBACK_TEXTS.es.question, FEEDBACK_TEXTS.es.up, FEEDBACK_TEXTS.es.down]).toEqual([
      '¿Te ha sido útil?',
      'Útil',
      'No útil',
    ]);
    expect(FEEDBACK_TEXTS.es.thanks).not.toBe(FEEDBACK_TEXTS.en.thanks);
  });
});

describe('widget markdown (the chat’s link allow-list)', () => {
  const html = (md: string) => {
    const div = document.createElement('div');
    div.append(renderMarkdown(md, 'https://app.example'));
    return div;
  };

  it('keeps safe links in a new tab and drops unsafe schemes and raw HTML', () => {
    const div = html('[ok](https://x.example) [bad](javascript:alert(1)) <img src=x onerror=alert(1)> **b**');
    const links = Array.from(div.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://x.example']);
    expect(links[0].getAttribute('target')).toBe('_blank');
    expect(links[0].getAttribute('rel')).toBe('noopener noreferrer');
    expect(div.textContent).toContain('bad');
    expect(div.querySelector('img')).toBeNull();
    expect(div.querySelector('strong')?.textContent).toBe('b');
  });

  it('loads images only from the widget’s own server; others become links', () => {
    const div = html('![own](https://app.example/a.png) ![far](https://tracker.example/p.png)');
    expect(Array.from(div.querySelectorAll('img')).map((i) => i.getAttribute('src'))).toEqual([
      'https://app.example/a.png',
    ]);
    expect(div.querySelector('a')?.getAttribute('href')).toBe('https://tracker.example/p.png');
  });
});
