/**
 * A small bilingual lexicon of what customers ask a business (issue 17 item 2; docs/decisions.md,
 * "Lines, paraphrases and the other language"): days, hours, opening and closing, prices, orders. A
 * question word found here also matches, in the documents, the other words of its entry in both
 * languages, so that "weekdays" finds "Monday to Friday", "close" finds "closing hours", and
 * "¿Cuánto cuesta…?" on an English Spark finds "price". Words are written as a question or a document
 * writes them (several forms where the stemmer does not bring them together); retrieval stems each with
 * its own language's text-search configuration.
 *
 * - `en`, `es`: the words of the entry; any of them matches any other (synonyms and translations).
 * - `also`: words the entry's words also match, not the other way round ("weekdays" finds "Monday", but
 *   a question about Monday is not about Friday).
 * - `generic`: the entry says what is asked about (a price, the hours), not what of: a sentence that
 *   holds only such words does not answer a question that names something else (ranking.ts, coverage).
 */
export interface LexiconEntry {
  en: string[];
  es: string[];
  also?: { en: string[]; es: string[] };
  generic?: boolean;
}

const WEEK_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const WEEK_ES = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes'];

export const LEXICON: LexiconEntry[] = [
  {
    en: ['weekday', 'weekdays', 'workday', 'workdays'],
    es: ['laborable', 'laborables', 'entresemana'],
    also: { en: WEEK_EN, es: WEEK_ES },
  },
  {
    en: ['weekend', 'weekends'],
    es: ['finde', 'findes'],
    also: { en: ['saturday', 'sunday'], es: ['sábado', 'domingo'] },
  },
  { en: ['monday', 'mondays'], es: ['lunes'] },
  { en: ['tuesday', 'tuesdays'], es: ['martes'] },
  { en: ['wednesday', 'wednesdays'], es: ['miércoles', 'miercoles'] },
  { en: ['thursday', 'thursdays'], es: ['jueves'] },
  { en: ['friday', 'fridays'], es: ['viernes'] },
  { en: ['saturday', 'saturdays'], es: ['sábado', 'sábados', 'sabado', 'sabados'] },
  { en: ['sunday', 'sundays'], es: ['domingo', 'domingos'] },
  { en: ['holiday', 'holidays'], es: ['festivo', 'festivos', 'vacaciones'] },
  {
    en: ['open', 'opens', 'opening', 'opened'],
    es: ['abrir', 'abre', 'abren', 'abrís', 'abris', 'abrimos', 'abierto', 'abierta', 'abiertos', 'apertura'],
    generic: true,
  },
  {
    en: ['close', 'closes', 'closing', 'closed', 'shut'],
    es: ['cerrar', 'cierra', 'cierran', 'cerráis', 'cerrais', 'cerramos', 'cerrado', 'cerrada', 'cerrados', 'cierre'],
    generic: true,
  },
  {
    en: ['hours', 'hour', 'schedule', 'timetable', 'time'],
    es: ['horario', 'horarios', 'hora', 'horas'],
    generic: true,
  },
  {
    en: ['price', 'prices', 'cost', 'costs', 'much', 'pay', 'fee', 'fees'],
    es: [
      'precio',
      'precios',
      'cuesta',
      'cuestan',
      'costar',
      'coste',
      'costo',
      'vale',
      'valen',
      'pagar',
      'tarifa',
      'tarifas',
    ],
    generic: true,
  },
  {
    en: ['order', 'orders', 'ordered', 'book', 'booking', 'reserve', 'reservation'],
    es: ['encargo', 'encargos', 'encargar', 'pedido', 'pedidos', 'pedir', 'reserva', 'reservar'],
  },
  {
    en: ['delivery', 'deliver', 'delivers', 'shipping', 'ship'],
    es: ['envío', 'envíos', 'envio', 'envios', 'enviar', 'enviáis', 'domicilio', 'reparto'],
  },
  { en: ['phone', 'telephone', 'call'], es: ['teléfono', 'telefono', 'llamar'] },
  { en: ['email', 'e-mail', 'mail'], es: ['correo', 'email'] },
  {
    en: ['address', 'located', 'where'],
    es: ['dirección', 'direccion', 'ubicación', 'ubicados', 'dónde'],
    generic: true,
  },
  { en: ['payment', 'card', 'cash'], es: ['pago', 'tarjeta', 'efectivo'] },
  { en: ['bread', 'loaf', 'loaves'], es: ['pan', 'barra', 'hogaza'] },
  { en: ['cake', 'cakes'], es: ['tarta', 'tartas', 'pastel', 'pasteles'] },
  { en: ['coffee'], es: ['café', 'cafe'] },
  { en: ['milk'], es: ['leche'] },
  { en: ['allergen', 'allergens', 'allergy', 'allergies'], es: ['alérgeno', 'alérgenos', 'alergia', 'alergias'] },
  { en: ['gluten-free', 'celiac', 'coeliac'], es: ['celiaco', 'celíaco', 'celíacos'] },
  { en: ['refund', 'return', 'returns'], es: ['devolución', 'devoluciones', 'devolver', 'reembolso'] },
  { en: ['discount', 'discounts', 'offer', 'offers'], es: ['descuento', 'descuentos', 'oferta', 'ofertas'] },
];

/**
 * Phrases a question writes in several words that the lexicon reads as one ("entre semana" is "on
 * weekdays"); the search text gets the one word instead.
 */
export const PHRASES: Array<[RegExp, string]> = [
  [/(?<![\p{L}\p{N}])entre\s+semana(?![\p{L}\p{N}])/giu, 'entresemana'],
  [/(?<![\p{L}\p{N}])fin(?:es)?\s+de\s+semana(?![\p{L}\p{N}])/giu, 'finde'],
];

/** The lexicon's words, each with the indexes of the entries it belongs to and in which role. */
export function lexiconWords(): Array<{ word: string; lang: 'en' | 'es'; entry: number; role: 'word' | 'also' }> {
  return LEXICON.flatMap((e, entry) => [
    ...e.en.map((word) => ({ word, lang: 'en' as const, entry, role: 'word' as const })),
    ...e.es.map((word) => ({ word, lang: 'es' as const, entry, role: 'word' as const })),
    ...(e.also?.en ?? []).map((word) => ({ word, lang: 'en' as const, entry, role: 'also' as const })),
    ...(e.also?.es ?? []).map((word) => ({ word, lang: 'es' as const, entry, role: 'also' as const })),
  ]);
}
