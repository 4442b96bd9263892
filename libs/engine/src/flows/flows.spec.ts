import { FLOWS } from './index';
import { groupStatus, overallProgress } from './status';
import type { Choice, Flow, I18n } from './types';
import { language, matchChoice, normalize } from './understand';
import { yesNo } from './understanding';

describe('objective status rules (docs/product.md §4)', () => {
  it('derives a group status from its steps', () => {
    expect(groupStatus(['completed', 'completed'])).toBe('completed');
    expect(groupStatus(['error', 'error'])).toBe('error');
    expect(groupStatus(['completed', 'pending'])).toBe('inProgress');
    expect(groupStatus(['error', 'pending'])).toBe('inProgress');
    expect(groupStatus(['error', 'completed'])).toBe('inProgress');
    expect(groupStatus(['pending', 'pending'])).toBe('pending');
    expect(groupStatus([])).toBe('pending');
  });

  it('rounds the share of completed steps across all groups', () => {
    expect(overallProgress([['completed', 'pending', 'pending'], ['completed']])).toBe(50);
    expect(overallProgress([['completed', 'pending', 'error']])).toBe(33);
    expect(overallProgress([['completed', 'completed'], ['completed']])).toBe(100);
    expect(overallProgress([])).toBe(0);
  });
});

function texts(flow: Flow): Array<[string, I18n]> {
  const out: Array<[string, I18n]> = [];
  for (const o of flow.objectives ?? []) out.push([`${flow.name}/objective ${o.id}`, o.title]);
  for (const step of flow.steps) {
    step.say.forEach((t, i) => out.push([`${flow.name}/${step.id}/say[${i}]`, t]));
    if (step.title) out.push([`${flow.name}/${step.id}/title`, step.title]);
    if (step.confirm) out.push([`${flow.name}/${step.id}/confirm`, step.confirm]);
    const choices: Choice[] = 'choices' in step.answer ? (step.answer.choices ?? []) : [];
    for (const c of choices) out.push([`${flow.name}/${step.id}/choice ${c.value}`, c.label]);
  }
  return out;
}

describe.each(FLOWS.map((f) => [f.name, f] as const))('flow %s', (_name, flow) => {
  it('has every text in Spanish and English', () => {
    for (const [where, t] of texts(flow)) {
      expect({ where, es: t.es.trim().length > 0, en: t.en.trim().length > 0 }).toEqual({ where, es: true, en: true });
    }
  });

  it('only points at steps and objectives it defines', () => {
    const ids = new Set(flow.steps.map((s) => s.id));
    expect(ids.size).toBe(flow.steps.length);
    expect(ids.has(flow.start)).toBe(true);
    const objectives = new Set((flow.objectives ?? []).map((o) => o.id));
    for (const step of flow.steps) {
      const targets = step.next === null ? [] : typeof step.next === 'string' ? [step.next] : Object.values(step.next);
      for (const t of targets)
        if (t !== null)
          expect({ step: step.id, next: t, exists: ids.has(t) }).toEqual({ step: step.id, next: t, exists: true });
      if (step.objective) {
        expect(objectives.has(step.objective)).toBe(true);
        expect(step.title).toBeDefined();
      }
    }
  });

  it('gives every choice at most one of goto or link', () => {
    for (const step of flow.steps) {
      const choices: Choice[] = 'choices' in step.answer ? (step.answer.choices ?? []) : [];
      for (const c of choices) expect(Number(!!c.goto) + Number(!!c.link)).toBeLessThanOrEqual(1);
    }
  });
});

describe('understanding answers without a language model', () => {
  const choices: Choice[] = [
    { value: 'friendly', label: { es: 'Cercano', en: 'Friendly' }, synonyms: ['amable'] },
    { value: 'professional', label: { es: 'Profesional', en: 'Professional' } },
  ];

  it('matches values, labels in both languages, synonyms, positions and labels inside a sentence', () => {
    expect(matchChoice('friendly', choices)?.value).toBe('friendly');
    expect(matchChoice('CERCANO', choices)?.value).toBe('friendly');
    expect(matchChoice('amable', choices)?.value).toBe('friendly');
    expect(matchChoice('la segunda', choices)?.value).toBe('professional');
    expect(matchChoice('2', choices)?.value).toBe('professional');
    expect(matchChoice('quiero un tono profesional, por favor', choices)?.value).toBe('professional');
    expect(matchChoice('algo intermedio', choices)).toBeUndefined();
  });

  it('reads yes/no and languages in Spanish and English', () => {
    expect(yesNo('Sí')).toBe('yes');
    expect(yesNo('vale')).toBe('yes');
    expect(yesNo('yes please')).toBe('yes');
    expect(yesNo('no, gracias')).toBe('no');
    expect(yesNo('quizás')).toBeUndefined();
    expect(language('Inglés')).toBe('en');
    expect(language('castellano')).toBe('es');
    expect(language('english')).toBe('en');
    expect(language('français')).toBeUndefined();
    expect(normalize('¡Océano!')).toBe('oceano');
  });
});
