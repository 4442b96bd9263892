import { businessFactsSchema, businessJsonSchema, cleanFacts, readBusiness } from './business';

describe('readBusiness (no language model)', () => {
  it.each([
    // English
    [
      'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
      { name: 'Espiga', description: 'A bakery in Madrid', hours: 'Open Monday to Saturday 8 to 20', tone: 'friendly' },
    ],
    ["We're Espiga, a family bakery in Madrid.", { name: 'Espiga', description: 'A family bakery in Madrid' }],
    [
      'Hi! We are La Espiga Dorada, an artisan bakery in Madrid that bakes sourdough bread',
      { name: 'La Espiga Dorada', description: 'An artisan bakery in Madrid that bakes sourdough bread' },
    ],
    [
      'My business is called Espiga and we sell sourdough bread in Madrid',
      { name: 'Espiga', description: 'We sell sourdough bread in Madrid' },
    ],
    ['Espiga is a bakery in Madrid.', { name: 'Espiga', description: 'A bakery in Madrid' }],
    ['We are a bakery in Madrid called Espiga', { name: 'Espiga', description: 'A bakery in Madrid' }],
    ['Espiga, a bakery in Madrid', { name: 'Espiga', description: 'A bakery in Madrid' }],
    [
      'Our company is called Bike Rental Co. We rent electric bikes to tourists in Lisbon.',
      { name: 'Bike Rental Co', description: 'We rent electric bikes to tourists in Lisbon' },
    ],
    [
      'I run Studio Nine, a yoga studio for beginners, professional tone please',
      { name: 'Studio Nine', description: 'A yoga studio for beginners', tone: 'professional' },
    ],
    [
      'This is Tony’s Pizza, a pizzeria in Brooklyn. Open every day 12pm to 11pm. Keep it fun.',
      {
        name: 'Tony’s Pizza',
        description: 'A pizzeria in Brooklyn',
        hours: 'Open every day 12pm to 11pm',
        tone: 'fun',
      },
    ],
    // Spanish
    [
      'Somos Espiga, una panadería en Madrid, abrimos de lunes a sábado de 8 a 20, tono cercano',
      {
        name: 'Espiga',
        description: 'Una panadería en Madrid',
        hours: 'Abrimos de lunes a sábado de 8 a 20',
        tone: 'friendly',
      },
    ],
    [
      'Mi negocio se llama Espiga y vendemos pan de masa madre en Madrid',
      { name: 'Espiga', description: 'Vendemos pan de masa madre en Madrid' },
    ],
    [
      'Espiga es una panadería artesana de Madrid.',
      { name: 'Espiga', description: 'Una panadería artesana de Madrid' },
    ],
    ['Somos una panadería de Madrid que se llama Espiga', { name: 'Espiga', description: 'Una panadería de Madrid' }],
    [
      'Hola, somos Clínica Dental Sonrisa, una clínica dental en Sevilla. Trato profesional.',
      { name: 'Clínica Dental Sonrisa', description: 'Una clínica dental en Sevilla', tone: 'professional' },
    ],
    [
      'Tenemos un restaurante llamado El Rincón, comida casera en Valencia, horario de martes a domingo de 13:00 a 16:00',
      {
        name: 'El Rincón',
        description: 'Comida casera en Valencia',
        hours: 'Horario de martes a domingo de 13:00 a 16:00',
      },
    ],
    [
      'We are Corner Bakery, a bakery in Leeds, we bake sourdough bread, croissants and birthday cakes. Friendly tone',
      {
        name: 'Corner Bakery',
        description: 'A bakery in Leeds, we bake sourdough bread, croissants and birthday cakes',
        tone: 'friendly',
      },
    ],
    ['Espiga: una panadería en Madrid', { name: 'Espiga', description: 'Una panadería en Madrid' }],
    [
      'Nuestra tienda se llama Flores Lola, una floristería en Bilbao, con un tono divertido',
      { name: 'Flores Lola', description: 'Una floristería en Bilbao', tone: 'fun' },
    ],
  ])('%s', (text, expected) => {
    expect(readBusiness(text)).toEqual(expect.objectContaining(expected));
  });

  it.each([
    'How much is a loaf of bread?',
    'yes',
    'Espiga',
    'no idea',
    'I want to answer customer questions',
    'Quiero responder preguntas de mis clientes',
  ])('finds no name and description together in “%s”', (text) => {
    const facts = readBusiness(text);
    expect(facts.name && facts.description).toBeFalsy();
  });

  it('keeps a description that lists things over commas, and no name when none is said', () => {
    expect(
      readBusiness('We bake sourdough bread, croissants and birthday cakes every morning from 7 until 2.'),
    ).toEqual({
      description: 'We bake sourdough bread, croissants and birthday cakes every morning from 7 until 2',
    });
  });

  it('gives a description clause without a name when the name is not said', () => {
    expect(readBusiness('We are a bakery in Madrid, open Monday to Friday 8 to 20')).toEqual({
      description: 'A bakery in Madrid',
      hours: 'Open Monday to Friday 8 to 20',
    });
  });
});

describe('the model’s JSON', () => {
  it('is checked field by field: blank, too long and unknown tones are left out', () => {
    expect(
      cleanFacts(
        businessFactsSchema.parse({ name: '  Espiga ', description: 'x'.repeat(900), tone: 'friendly', hours: ' ' }),
      ),
    ).toEqual({ name: 'Espiga', tone: 'friendly' });
    expect(() =>
      businessFactsSchema.parse({ name: 'Espiga', description: null, tone: 'grumpy', hours: null }),
    ).toThrow();
    expect(() => businessFactsSchema.parse({ name: 'Espiga' })).toThrow();
  });

  it('has a JSON schema a strict structured-output endpoint accepts (every field required, no others)', () => {
    const schema = businessJsonSchema() as { required: string[]; additionalProperties: boolean };
    expect(schema.required.sort()).toEqual(['description', 'hours', 'name', 'tone']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema).not.toHaveProperty('$schema');
  });
});
