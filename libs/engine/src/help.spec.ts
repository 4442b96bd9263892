import { helpAnswer, type HelpSources } from './help';

/** A bare call for help never reaches the database: any query would throw here. */
const queried = () => {
  throw new Error('queried');
};
const noDb: HelpSources = { plans: queried, search: { lexemes: queried } };

describe('helpAnswer', () => {
  it.each([
    ['help', 'en'],
    ['Help me!', 'en'],
    ['What can you do?', 'en'],
    ['?', 'en'],
    ['ayuda', 'es'],
    ['¡Ayúdame!', 'es'],
    ['¿Qué puedes hacer?', 'es'],
    ['¿Cómo funciona esto?', 'es'],
  ] as const)('answers a bare call for help (%s) with what it can be asked about', async (said, language) => {
    const answer = await helpAnswer(noDb, said, language);
    expect(answer).toMatch(language === 'en' ? /^I can help with anything about Sparks/ : /^Te ayudo con todo/);
  });

  it('leaves a real question to the articles', async () => {
    await expect(helpAnswer(noDb, 'How do I get help uploading documents?', 'en')).rejects.toThrow('queried');
  });
});
