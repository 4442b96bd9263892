// Generated PDFs for the ingestion benchmark: book-like A4 pages of Spanish or English prose
// (about 3,000 characters each), made with pdfkit. Deterministic: every run reads the same files.
import { rng, rootRequire } from './common.mjs';

const PDFDocument = rootRequire('pdfkit');

const SENTENCES = {
  es: [
    'La panadería abre de lunes a sábado desde las ocho de la mañana hasta las ocho y media de la tarde.',
    'El menú del día incluye un primer plato, un segundo, pan, bebida y postre por doce euros con cincuenta.',
    'Los envíos a las islas Canarias tardan cinco días hábiles y tienen un pequeño recargo.',
    '¿Quieres reservar un roscón de Reyes? Hazlo antes del dos de enero en cualquiera de nuestras tiendas.',
    'Todos los productos pueden contener trazas de frutos secos, sésamo y soja.',
    'La señora Muñoz fundó el obrador en 1987 con la receta de masa madre de su abuela.',
    'Si un producto llega dañado, aceptamos la devolución durante las primeras veinticuatro horas.',
    'Ofrecemos una línea de pan sin gluten elaborada en un obrador separado y certificado.',
    'El horario de verano cambia en agosto: cerramos los domingos por la tarde.',
    'Nuestros repartidores recorren la ciudad en bicicleta eléctrica para reducir las emisiones.',
    'Cada mañana horneamos más de cuarenta variedades de pan, bollería y pastelería tradicional.',
    'Puedes pagar con tarjeta, con el móvil o en efectivo, y pedir la factura en caja.',
  ],
  en: [
    'The bike shop opens from Monday to Saturday between eight in the morning and half past seven.',
    'A city bike costs fifteen pounds per day, and a helmet is included with every rental.',
    'Electric bikes must be returned with at least a quarter of their battery left.',
    'Would you like to book a guided tour? Tours leave from the harbour every day at ten.',
    'Every rental includes third-party insurance, but a lost lock is charged separately.',
    'Our mechanics service each bicycle after every rental and replace worn brake pads.',
    'Children under twelve must ride with an adult and wear a helmet at all times.',
    'The shop was founded in 2012 by two friends who wanted to show visitors the coast.',
    'In winter the shop closes at five, and tours run only at weekends.',
    'Group discounts apply from six riders upwards when booked at least a week ahead.',
    'You can pay by card or by phone, and receipts are sent by e-mail on request.',
    'Lost property is kept for thirty days and can be collected at the front desk.',
  ],
};

/** One document: `pages` pages in `language` ('es' or 'en'). Answers { name, language, pages, pdf }. */
export function makeDocument(language, pages, seed) {
  const sentences = SENTENCES[language];
  const next = rng(seed);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, info: { CreationDate: new Date('2025-01-01T00:00:00Z') } });
    const parts = [];
    doc.on('data', (b) => parts.push(b));
    doc.on('error', reject);
    doc.on('end', () => resolve({ name: `${language}-${pages}p.pdf`, language, pages, pdf: Buffer.concat(parts) }));
    for (let p = 1; p <= pages; p++) {
      doc.addPage({ size: 'A4' });
      doc
        .fontSize(16)
        .text(language === 'es' ? `Capítulo ${p}` : `Chapter ${p}`)
        .moveDown(0.5);
      for (let k = 0; k < 5; k++) {
        const count = 5 + Math.floor(next() * 2);
        const paragraph = Array.from({ length: count }, () => sentences[Math.floor(next() * sentences.length)]);
        doc.fontSize(10).text(paragraph.join(' '), { align: 'justify' }).moveDown(0.5);
      }
    }
    doc.end();
  });
}

/** The benchmark set: each size in Spanish and in English. */
export async function makeCorpus(sizes = [10, 25, 50, 100, 200]) {
  const docs = [];
  for (const language of ['es', 'en']) {
    for (const [i, pages] of sizes.entries()) {
      docs.push(await makeDocument(language, pages, (language === 'es' ? 1 : 100) + i));
    }
  }
  return docs;
}
