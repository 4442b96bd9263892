import { buildPrompt } from './prompt';

describe("the engine's texts", () => {
  it("writes the Spark's instructions in its language, leaving out what the owner did not say", () => {
    const spark = { id: 's', name: 'Pan', initialMessage: '', sysPrompt: '', business: 'Panadería Sol' };
    expect(buildPrompt({ ...spark, language: 'es', purpose: 'bookings', tone: 'fun' })).toBe(
      'Eres Pan, el asistente de Panadería Sol en su web. Tu objetivo: ayudar a reservar citas. Habla en español con un tono divertido y desenfadado. Responde solo con la información de los documentos del negocio; si no la tienes, dilo con claridad y ofrece trasladar la pregunta. Nunca inventes precios, fechas ni condiciones.',
    );
    expect(buildPrompt({ ...spark, language: 'en', description: 'we bake {name}', business: '' })).toBe(
      "You are Pan, the assistant of Pan on its website. The business: we bake {name}. Speak English in a warm and friendly tone. Answer only with the information in the business's documents; when you don't have it, say so plainly and offer to pass the question on. Never invent prices, dates or policies.",
    );
    // The owner's own closing stop is not doubled by the template's; after "!" or "?" the template adds none.
    expect(
      buildPrompt({
        ...spark,
        language: 'es',
        description: 'Pan de masa madre con envío a domicilio. ',
        hours: 'de 8:00 a 20:00...',
      }),
    ).toContain('El negocio: Pan de masa madre con envío a domicilio. Horario de apertura: de 8:00 a 20:00. Habla');
    expect(buildPrompt({ ...spark, language: 'en', description: 'We bake the best bread in town!' })).toContain(
      'The business: We bake the best bread in town! Speak English',
    );
  });
});
