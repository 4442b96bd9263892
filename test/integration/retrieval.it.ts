import { randomUUID } from 'node:crypto';
import { createDb, SearchRepository } from '@sparks/db';
import { retrieve, RETRIEVAL, searchText, type Passage } from '@sparks/engine';
import { RANKING } from '../../libs/engine/src/ranking';
import { uuidv7 } from 'uuidv7';

/**
 * retrieve() against the real PostgreSQL: the tiers (every word, then all terms by stem prefix, then
 * one fewer…), the sample of a Spark's first chunks and the GIN indexes of migration 0004 must find
 * what the old single query found.
 */
const handle = createDb(process.env.DATABASE_URL!, 2);
afterAll(() => handle.close());
const { db, pool } = handle;
const search = new SearchRepository(db);

async function newSpark(): Promise<{ sparkId: string; userId: string }> {
  const userId = randomUUID();
  const email = `retrieval-${userId}@example.com`;
  await pool.query(`INSERT INTO users (id, username, email, language) VALUES ($1, $2, $2, 'es')`, [userId, email]);
  const sparkId = randomUUID();
  await pool.query(`INSERT INTO sparks (id, user_id, name, options) VALUES ($1, $2, 'R', '{}'::jsonb)`, [
    sparkId,
    userId,
  ]);
  return { sparkId, userId };
}

/** A document whose chunks are the given pages, one chunk a page, ids in insertion order (as ingestion makes them). */
async function addPages(
  spark: { sparkId: string; userId: string },
  name: string,
  pages: string[],
  language: 'es' | 'en' = 'es',
): Promise<string> {
  const id = uuidv7();
  await pool.query(
    `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status, pages, chars, language)
     VALUES ($1, $2, $3, $4, $5, 1, $6, 'completed', $7, 1, $8)`,
    [
      id,
      spark.sparkId,
      spark.userId,
      name,
      `test/${id}`,
      randomUUID().replace(/-/g, '').padEnd(64, '0'),
      pages.length,
      language,
    ],
  );
  await pool.query(
    `INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv)
     SELECT c.id, $1, $2, c.o - 1, c.o, c.content, $3::text, to_tsvector($3::text::regconfig, c.content)
       FROM unnest($4::uuid[], $5::text[]) WITH ORDINALITY AS c(id, content, o)`,
    [id, spark.sparkId, language === 'es' ? 'spanish' : 'english', pages.map(() => uuidv7()), pages],
  );
  return id;
}

/**
 * The best (strict, matched) pairs any k chunks of the Spark can have, computed chunk by chunk with
 * the old query's rule (a term matches a lexeme starting with its stem less two letters, at least 3).
 */
async function bestPossible(sparkId: string, question: string, config: string, k = 4): Promise<string[]> {
  const r = await pool.query<{ strict: boolean; matched: number; terms: number }>(
    `WITH q AS (SELECT tsvector_to_array(to_tsvector($2::regconfig, $3)) AS lexemes)
     SELECT (c.tsv @@ websearch_to_tsquery($2::regconfig, $3)) AS strict, cardinality(q.lexemes) AS terms,
            (SELECT count(*) FROM unnest(q.lexemes) ql WHERE EXISTS (
               SELECT 1 FROM unnest(tsvector_to_array(c.tsv)) cl
                WHERE cl = ql OR (length(ql) >= 3 AND starts_with(cl, left(ql, greatest(3, length(ql) - 2))))))::int AS matched
       FROM document_chunks c, q WHERE c.spark_id = $1`,
    [sparkId, config, question],
  );
  return r.rows
    .filter((x) => x.matched * RETRIEVAL.FLOOR >= x.terms)
    .sort((a, b) => Number(b.strict) - Number(a.strict) || b.matched - a.matched)
    .slice(0, k)
    .map(pair);
}
const pair = (p: { strict: boolean; matched: number }) => `${p.strict ? 'strict' : 'loose'} ${p.matched}`;
/** The tiers' candidates in PostgreSQL's order (the reranker of ranking.ts is tested apart). */
const ask = (sparkId: string, question: string, language: 'es' | 'en' = 'es') =>
  retrieve(search, { sparkId, question, language, rerank: false });
const pages = (ps: Passage[]) => ps.map((p) => `${p.documentName} p${p.page}`);

const CATALOGO = [
  'Bienvenidos a Panadería Lucía. Somos una panadería artesana en el centro de Sevilla desde 1998.',
  'Horario de apertura: de lunes a sábado abrimos de 8:00 a 20:00. Los domingos y festivos permanece cerrada.',
  'Hacemos envíos a domicilio en toda la ciudad por 3 euros. Los pedidos de más de 30 euros tienen el envío gratuito.',
  'Los envíos urgentes llegan en el día. El envío estándar tarda dos días.',
];

describe('retrieval over a small Spark (the sample holds all of it)', () => {
  let spark: { sparkId: string; userId: string };
  beforeAll(async () => {
    spark = await newSpark();
    await addPages(spark, 'Catálogo.pdf', CATALOGO);
    await addPages(spark, 'Handbook.pdf', ['Our return policy: unused parts can be returned within 30 days.'], 'en');
  });

  it('finds partial and accent-free matches by stem prefix, as the old query did', async () => {
    // "hora" finds "Horario", "abrís" finds "abrimos"; no passage holds every word.
    const hours = await ask(spark.sparkId, '¿A qué hora abrís los lunes?');
    expect(pages(hours)[0]).toBe('Catálogo p2');
    expect(hours[0]).toMatchObject({ strict: false, matched: 3, terms: 3 });
    // Without the accents.
    expect(pages(await ask(spark.sparkId, 'horario del sabado'))[0]).toBe('Catálogo p2');
    expect(pages(await ask(spark.sparkId, 'envios a domicilio'))[0]).toBe('Catálogo p3');
  });

  it('puts the passages holding every word first, then fills up with those holding fewer terms', async () => {
    const found = await ask(spark.sparkId, 'envío gratuito');
    expect(found[0]).toMatchObject({ strict: true, page: 3 });
    expect(found.length).toBeGreaterThan(1);
    expect(found.slice(1).every((p) => !p.strict && p.matched === 1)).toBe(true);
    expect(found.map(pair)).toEqual(await bestPossible(spark.sparkId, 'envío gratuito', 'spanish'));
  });

  it('answers with nothing when no passage holds half of the terms', async () => {
    expect(await ask(spark.sparkId, '¿Vendéis tartas de boda veganas con fondant?')).toEqual([]);
  });

  it('searches the other language when the Spark’s own finds nothing', async () => {
    const found = await ask(spark.sparkId, 'What is the return policy for parts?');
    expect(pages(found)).toEqual(['Handbook p1']);
    expect(found[0].strict).toBe(true);
  });

  it('never returns another Spark’s chunks', async () => {
    const other = await newSpark();
    await addPages(other, 'Otro.pdf', ['Nuestro horario de apertura es de lunes a sábado.']);
    const found = await ask(spark.sparkId, '¿Cuál es el horario de apertura los sábados?');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((p) => p.documentName === 'Catálogo')).toBe(true);
  });
});

describe('retrieval over a one-page Spark (too small to tell rare words from common ones)', () => {
  let spark: { sparkId: string; userId: string };
  beforeAll(async () => {
    spark = await newSpark();
    await addPages(spark, 'Espiga.pdf', [
      'La Panadería Espiga abre de lunes a sábado de 8:00 a 20:00. Los domingos abrimos hasta las 14:00. ' +
        'La barra de pan de masa madre cuesta 2,40 euros.',
    ]);
  });

  it('covers a question worded unlike the page: every word it has is in "every chunk", and still counts', async () => {
    // With weights from one chunk, "domingos" weighed 0.29 against 1.39 for "hora", which the page
    // never says: 9 % coverage, and a bakery's own opening hours were "not covered".
    const [best] = await retrieve(search, {
      sparkId: spark.sparkId,
      question: '¿Hasta qué hora abrís los domingos?',
      language: 'es',
    });
    expect(best.best).toContain('14:00');
    expect(best.coverage).toBeGreaterThanOrEqual(RANKING.MIN_COVERAGE);
  });

  it('still finds nothing that covers a question about something else', async () => {
    const found = await retrieve(search, {
      sparkId: spark.sparkId,
      question: '¿Hacéis envíos de tartas veganas a Barcelona?',
      language: 'es',
    });
    expect(found.every((p) => p.coverage < RANKING.MIN_COVERAGE)).toBe(true);
  });
});

describe('the excerpts of the passages', () => {
  const HOSTILE =
    '<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png)';
  let spark: { sparkId: string; userId: string };
  beforeAll(async () => {
    spark = await newSpark();
    await addPages(spark, 'Contacto.pdf', [`Encargos por correo a pedidos@panaderia.example ${HOSTILE} **negrita**`]);
  });

  it('are markdown that shows the document’s text as it is, the words found in bold', async () => {
    const [found] = await ask(spark.sparkId, 'encargos por correo');
    expect(found.documentName).toBe('Contacto');
    expect(found.excerpt).toBe(
      '**Encargos** por **correo** a pedidos\\@panaderia.example \\<img src=x onerror=window.\\_\\_pwned=1\\> ' +
        '\\[x\\](javascript:window.\\_\\_pwned=1) !\\[t\\](http\\://127.0.0.2:9/x.png) \\*\\*negrita\\*\\*',
    );
  });

  it('are whole sentences even when PostgreSQL reads the question’s word differently', async () => {
    // An e-mail address is one word to PostgreSQL and several to the sentences.
    const [found] = await ask(spark.sparkId, 'pedidos@panaderia.example');
    expect(found.documentName).toBe('Contacto');
    expect(found.excerpt).toBe(
      'Encargos por correo a pedidos\\@panaderia.example \\<img src=x onerror=window.\\_\\_pwned=1\\> ' +
        '\\[x\\](javascript:window.\\_\\_pwned=1) !\\[t\\](http\\://127.0.0.2:9/x.png) \\*\\*negrita\\*\\*',
    );
  });
});

describe('retrieval over a Spark larger than the sample (index and sample paths)', () => {
  let spark: { sparkId: string; userId: string };
  const filler = (i: number) =>
    `Capítulo ${i}. Los pedidos se preparan en el almacén y el envío sale cada mañana. ` +
    `El horario del almacén es de lunes a viernes. ${i % 3 === 0 ? 'Las devoluciones se aceptan durante treinta días.' : ''}`;
  beforeAll(async () => {
    spark = await newSpark();
    // The first SAMPLE + 60 chunks are ordinary; the facts come after them, outside the sample.
    await addPages(
      spark,
      'Manual.pdf',
      Array.from({ length: RETRIEVAL.SAMPLE + 60 }, (_x, i) => filler(i + 1)),
    );
    await addPages(spark, 'Anexo.pdf', [
      'El modelo Zentrix 300 está disponible en color verde bajo pedido.',
      'El envío urgente a Canarias cuesta doce euros y llega en dos días.',
      'Para el alquiler de equipos pedimos una fianza.',
    ]);
  });

  it('finds a rare term beyond the sample through the index', async () => {
    expect(pages(await ask(spark.sparkId, '¿Tenéis el Zentrix en verde?'))[0]).toBe('Anexo p1');
    expect(pages(await ask(spark.sparkId, '¿Hay que dejar una fianza?'))[0]).toBe('Anexo p3');
  });

  it('ranks a passage holding every word first even when its words are common in the sample', async () => {
    const question = 'envío urgente Canarias';
    const found = await ask(spark.sparkId, question);
    expect(found[0]).toMatchObject({ documentName: 'Anexo', page: 2, strict: true });
    expect(found.map(pair)).toEqual(await bestPossible(spark.sparkId, question, 'spanish'));
  });

  it('returns the best tiers possible for common questions, found in the sample', async () => {
    for (const question of [
      '¿Cuál es el horario del almacén?',
      '¿Cuándo sale el envío de los pedidos?',
      '¿Aceptáis devoluciones?',
      '¿Cuánto cuesta el envío urgente?',
    ]) {
      const found = await ask(spark.sparkId, question);
      expect({ question, pairs: found.map(pair) }).toEqual({
        question,
        // The search leaves the Spanish question words out ("cuál", "cuánto"), and so does the oracle.
        pairs: await bestPossible(spark.sparkId, searchText(question), 'spanish'),
      });
    }
  });
});

describe('the connections of the app', () => {
  it('run with JIT off from their first statement (it would cost ~50 ms on the search)', async () => {
    const fresh = createDb(process.env.DATABASE_URL!, 1);
    try {
      const { rows } = await fresh.pool.query<{ jit: string }>('SHOW jit');
      expect(rows[0].jit).toBe('off');
    } finally {
      await fresh.close();
    }
  });
});
