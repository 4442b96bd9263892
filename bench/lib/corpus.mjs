// A generated corpus of business text in Spanish and English. A small word bank, picked with a
// skew (a few words are common, most are rare), so that lexemes repeat the way they do in real
// catalogues, handbooks and terms of service. Deterministic for a given seed.

/** Skewed pick: low indexes come up far more often than high ones (roughly Zipf-like). */
const pick = (r, list) => list[Math.floor(list.length * r() ** 1.7)];
const uniform = (r, list) => list[Math.floor(list.length * r())];
const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
const cap = (s) => s[0].toUpperCase() + s.slice(1);

// Rare words: each appears in only a few chunks (the "rare" questions look for them).
const BRANDS = ['Zentrix', 'Kalvado', 'Orbelia', 'Tramonte', 'Velquist'];
const COLORS = {
  es: ['verde', 'negro', 'azul marino', 'gris perla'],
  en: ['green', 'black', 'navy blue', 'pearl grey'],
};

const ES = {
  subjects: [
    'el cliente',
    'la empresa',
    'nuestro equipo',
    'el departamento de ventas',
    'el servicio técnico',
    'la tienda',
    'el proveedor',
    'el usuario',
    'la oficina central',
    'el responsable de la cuenta',
    'el personal del almacén',
    'la dirección comercial',
    'el distribuidor',
    'el equipo de soporte',
    'la administración',
    'el transportista',
  ],
  verbs: [
    'puede solicitar',
    'gestiona',
    'ofrece',
    'revisa',
    'confirma',
    'envía',
    'emite',
    'recibe',
    'tramita',
    'actualiza',
    'cancela',
    'renueva',
    'garantiza',
    'incluye',
    'calcula',
    'aprueba',
    'consulta',
    'registra',
    'prepara',
  ],
  objects: [
    'el pedido',
    'la factura',
    'un presupuesto',
    'la devolución',
    'el envío',
    'el pago',
    'el contrato',
    'la garantía',
    'el reembolso',
    'la suscripción',
    'el descuento',
    'la reserva',
    'la cuenta del cliente',
    'el inventario',
    'la tarifa',
    'el informe mensual',
    'la incidencia',
    'el certificado',
    'la cita',
    'el catálogo',
    'el albarán',
    'la entrega',
    'el plan de mantenimiento',
    'la póliza',
  ],
  manner: [
    'a través de la web',
    'por correo electrónico',
    'en la tienda física',
    'desde la aplicación móvil',
    'por teléfono',
    'en el portal de clientes',
    'con tarjeta de crédito',
    'mediante transferencia bancaria',
    'en la oficina más cercana',
    'con el número de pedido',
  ],
  when: (n) => [
    `en un plazo de ${n} días hábiles`,
    `antes de ${n} horas`,
    `cada ${n} meses`,
    `durante los primeros ${n} días`,
    'sin coste adicional',
    `con un recargo del ${n} por ciento`,
    'antes del cierre del mes',
    'durante el horario de apertura',
    'al final del trimestre',
    'una vez recibida la documentación',
  ],
  days: ['lunes a viernes', 'lunes a sábado', 'martes a domingo'],
  goals: [
    'cualquier duda sobre la factura',
    'solicitar una devolución',
    'cambiar los datos de la cuenta',
    'ampliar la garantía',
    'conocer el estado del envío',
    'pedir un presupuesto a medida',
  ],
  ifs: [
    'el pedido llega dañado',
    'el pago se retrasa',
    'el cliente cancela la reserva',
    'el producto no funciona',
    'la factura contiene un error',
    'el envío se pierde',
  ],
  thens: [
    'el cliente recibe un reembolso completo',
    'aplicamos una penalización del diez por ciento',
    'el equipo de soporte abre una incidencia',
    'enviamos un producto nuevo sin coste',
    'la empresa emite una factura rectificativa',
    'el contrato se suspende temporalmente',
  ],
  units: ['al mes', 'por unidad', 'al año', 'por persona', 'por envío'],
  rare: [
    (r) =>
      `El modelo ${uniform(r, BRANDS)} ${int(r, 100, 999)} está disponible bajo pedido en color ${uniform(r, COLORS.es)}.`,
    () => 'Para el alquiler de equipos pedimos una fianza que se devuelve al terminar el contrato.',
    () => 'También trabajamos en régimen de franquicia con socios locales seleccionados.',
    () => 'Las empresas pueden financiar la compra con un leasing a treinta y seis meses.',
  ],
};

const EN = {
  subjects: [
    'the customer',
    'the company',
    'our team',
    'the sales department',
    'the service desk',
    'the store',
    'the supplier',
    'the user',
    'the head office',
    'the account manager',
    'the warehouse staff',
    'the sales director',
    'the distributor',
    'the support team',
    'the billing office',
    'the carrier',
  ],
  verbs: [
    'can request',
    'manages',
    'offers',
    'reviews',
    'confirms',
    'sends',
    'issues',
    'receives',
    'processes',
    'updates',
    'cancels',
    'renews',
    'guarantees',
    'includes',
    'calculates',
    'approves',
    'checks',
    'records',
    'prepares',
  ],
  objects: [
    'the order',
    'the invoice',
    'a quote',
    'the return',
    'the shipment',
    'the payment',
    'the contract',
    'the warranty',
    'the refund',
    'the subscription',
    'the discount',
    'the booking',
    'the customer account',
    'the inventory',
    'the price list',
    'the monthly report',
    'the support ticket',
    'the certificate',
    'the appointment',
    'the catalogue',
    'the delivery note',
    'the delivery',
    'the maintenance plan',
    'the insurance policy',
  ],
  manner: [
    'through the website',
    'by email',
    'in the physical store',
    'from the mobile app',
    'by phone',
    'in the customer portal',
    'with a credit card',
    'by bank transfer',
    'at the nearest office',
    'with the order number',
  ],
  when: (n) => [
    `within ${n} business days`,
    `before ${n} hours`,
    `every ${n} months`,
    `during the first ${n} days`,
    'at no extra cost',
    `with a ${n} percent surcharge`,
    'before the end of the month',
    'during opening hours',
    'at the end of the quarter',
    'once the paperwork is received',
  ],
  days: ['Monday to Friday', 'Monday to Saturday', 'Tuesday to Sunday'],
  goals: [
    'any question about your invoice',
    'requesting a return',
    'changing your account details',
    'extending the warranty',
    'tracking a shipment',
    'asking for a custom quote',
  ],
  ifs: [
    'the order arrives damaged',
    'the payment is late',
    'the customer cancels the booking',
    'the product does not work',
    'the invoice contains an error',
    'the shipment is lost',
  ],
  thens: [
    'the customer gets a full refund',
    'we apply a ten percent penalty',
    'the support team opens a ticket',
    'we send a new product at no cost',
    'the company issues a corrected invoice',
    'the contract is suspended for a while',
  ],
  units: ['per month', 'per unit', 'per year', 'per person', 'per shipment'],
  rare: [
    (r) => `The ${uniform(r, BRANDS)} ${int(r, 100, 999)} model is available to order in ${uniform(r, COLORS.en)}.`,
    () => 'For equipment hire we ask for a security deposit that is returned when the contract ends.',
    () => 'We also work as a franchise with selected local partners.',
    () => 'Companies can finance the purchase with a thirty-six month lease.',
  ],
};

function sentence(r, lang) {
  const b = lang === 'es' ? ES : EN;
  const n = int(r, 2, 30);
  const roll = r();
  if (roll < 0.004) return uniform(r, b.rare)(r);
  if (roll < 0.55) {
    const tail = r() < 0.5 ? ` ${pick(r, b.manner)}` : '';
    return `${cap(pick(r, b.subjects))} ${pick(r, b.verbs)} ${pick(r, b.objects)}${tail} ${pick(r, b.when(n))}.`;
  }
  if (roll < 0.63) {
    const h = int(r, 7, 10);
    return lang === 'es'
      ? `El horario de atención es de ${uniform(r, b.days)} de ${h}:00 a ${h + int(r, 8, 11)}:00.`
      : `Our opening hours are ${uniform(r, b.days)} from ${h}:00 to ${h + int(r, 8, 11)}:00.`;
  }
  if (roll < 0.72) {
    return lang === 'es'
      ? `Para ${pick(r, b.goals)}, contacte con ${pick(r, b.subjects)} ${pick(r, b.manner)}.`
      : `For ${pick(r, b.goals)}, contact ${pick(r, b.subjects)} ${pick(r, b.manner)}.`;
  }
  if (roll < 0.84) {
    return lang === 'es'
      ? `${cap(pick(r, b.objects))} tiene un coste de ${n * 5} euros ${pick(r, b.units)}, IVA incluido.`
      : `${cap(pick(r, b.objects))} costs ${n * 5} dollars ${pick(r, b.units)}, VAT included.`;
  }
  return lang === 'es' ? `Si ${pick(r, b.ifs)}, ${pick(r, b.thens)}.` : `If ${pick(r, b.ifs)}, ${pick(r, b.thens)}.`;
}

/** One chunk: sentences until 60–120 words. */
export function chunkText(r, lang) {
  const target = int(r, 60, 120);
  const parts = [];
  let words = 0;
  while (words < target) {
    const s = sentence(r, lang);
    parts.push(s);
    words += s.split(' ').length;
  }
  return parts.join(' ');
}

/**
 * The questions timed against a Spanish Spark (mostly Spanish, some English: the engine then also
 * searches with the other language's configuration). `kind` says what the question is about:
 * common words, a rare term, or something the documents never mention.
 */
export const QUESTIONS = [
  { lang: 'es', kind: 'common', text: '¿Cuánto tarda el reembolso de una devolución?' },
  { lang: 'es', kind: 'common', text: '¿Cómo puedo solicitar un presupuesto?' },
  { lang: 'es', kind: 'common', text: '¿Cuál es el horario de atención los sábados?' },
  { lang: 'es', kind: 'common', text: '¿Los precios incluyen el IVA?' },
  { lang: 'es', kind: 'common', text: '¿Qué pasa si el pedido llega dañado?' },
  { lang: 'es', kind: 'common', text: '¿Puedo pagar la factura con tarjeta de crédito?' },
  { lang: 'es', kind: 'common', text: 'envío' },
  { lang: 'es', kind: 'common', text: 'cancelar la suscripción desde la aplicación' },
  { lang: 'es', kind: 'rare', text: '¿Tenéis el Zentrix en color verde?' },
  { lang: 'es', kind: 'rare', text: 'Kalvado' },
  { lang: 'es', kind: 'rare', text: '¿Hay que dejar una fianza?' },
  { lang: 'es', kind: 'rare', text: '¿Trabajáis en franquicia?' },
  { lang: 'es', kind: 'rare', text: '¿Se puede financiar con leasing?' },
  { lang: 'es', kind: 'rare', text: 'Orbelia Tramonte' },
  { lang: 'es', kind: 'absent', text: '¿Organizáis excursiones en globo aerostático?' },
  { lang: 'es', kind: 'absent', text: '¿Vendéis bicicletas eléctricas?' },
  { lang: 'es', kind: 'absent', text: 'jardinería ecológica' },
  { lang: 'es', kind: 'absent', text: '¿Hacéis tatuajes?' },
  { lang: 'en', kind: 'common', text: 'How long does a refund take?' },
  { lang: 'en', kind: 'common', text: 'Can I pay the invoice by credit card?' },
  { lang: 'en', kind: 'common', text: 'What are your opening hours?' },
  { lang: 'en', kind: 'rare', text: 'Is the Zentrix model available in green?' },
  { lang: 'en', kind: 'rare', text: 'Do you ask for a security deposit?' },
  { lang: 'en', kind: 'absent', text: 'hot air balloon trips' },
  { lang: 'en', kind: 'absent', text: 'Do you sell surfboards?' },
];
