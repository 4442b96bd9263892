import { textSearchConfig } from '@sparks/contracts';
import type { Database } from '@sparks/db';
import { sql } from 'drizzle-orm';
import { normalize } from './flows/understand';
import type { Lang } from './texts';

interface Article {
  es: string;
  en: string;
}

/** The built-in help the main assistant answers product questions from. */
export const HELP: Article[] = [
  {
    es: 'Un Spark es un asistente de IA para tu web. Lo creas chateando: le cuentas tu negocio, subes tus documentos PDF, eliges colores, icono e idioma, lo pruebas y lo publicas como widget de chat.',
    en: 'A Spark is an AI assistant for your website. You create it by chatting: you describe your business, upload your PDF documents, pick colours, an icon and a language, test it and publish it as a chat widget.',
  },
  {
    es: 'Para crear un Spark pulsa «Crear un Spark» o abre Nuevo Spark en el menú. El asistente te preguntará el nombre de tu negocio, a qué se dedica, para qué quieres el asistente y su idioma.',
    en: 'To create a Spark, press “Create a Spark” or open New Spark in the menu. The assistant asks your business name, what it does, what the assistant is for and its language.',
  },
  {
    es: 'Para subir documentos abre el chat de tu Spark y usa el botón de adjuntar. Solo se admiten archivos PDF y el tamaño máximo de cada documento es de 10 MB. El plan incluye hasta 10 documentos. Los PDF escaneados sin texto no se pueden leer.',
    en: 'To upload documents, open your Spark’s chat and use the attach button. Only PDF files are accepted, and each document can be as big as 10 MB (the maximum size). The plan includes up to 10 documents. Scanned PDFs without text cannot be read.',
  },
  {
    es: 'Las pruebas te dejan chatear con tu Spark como un cliente antes de publicarlo. Cada Spark puede tener hasta 5 pruebas. Al terminar, indica si la prueba fue satisfactoria; puedes reiniciar una prueba cuando quieras.',
    en: 'Tests let you chat with your Spark as a customer would before publishing it. Each Spark can have up to 5 tests. When you finish, say whether the test was satisfactory; you can restart a test at any time.',
  },
  {
    es: 'Para publicar tu Spark ve a Desplegar: obtendrás un código para pegar el widget de chat en tu web, o un Pulse para tu gestor de contenidos.',
    en: 'To publish your Spark, go to Deploy: you get a snippet to paste the chat widget on your website, or a Pulse for your content-management system.',
  },
  {
    es: 'Los nuevos usuarios tienen una prueba gratuita de 15 días. Después hay que elegir un plan: Ruby cuesta 45 euros al mes con 600 interacciones; Emerald cuesta 90 euros al mes con 1500 interacciones. Se pueden comprar interacciones extra (ITx).',
    en: 'New users get a 15-day free trial. After that you choose a plan: Ruby costs 45 euros per month with 600 interactions; Emerald costs 90 euros per month with 1,500 interactions. Extra interactions (ITx) can be bought.',
  },
  {
    es: 'Para cambiar tu nombre, apellidos o idioma abre Perfil en el menú o pulsa «Cambiar mis datos». El idioma de Sparks puede ser español o inglés.',
    en: 'To change your first name, last name or language, open Profile in the menu or press “Change my info”. Sparks can be used in Spanish or English.',
  },
  {
    es: 'Para borrar un Spark abre su menú en la barra lateral, elige borrar y escribe la palabra Borrar para confirmar. Se borran también sus pruebas, conversaciones y documentos.',
    en: 'To delete a Spark, open its menu in the sidebar, choose delete and type the word Borrar to confirm. Its tests, conversations and documents are deleted too.',
  },
  {
    es: 'Puedes fijar hasta 4 Sparks en la parte superior de la barra lateral desde el menú de cada Spark.',
    en: 'You can pin up to 4 Sparks at the top of the sidebar from each Spark’s menu.',
  },
  {
    es: 'Las instrucciones de un Spark dicen cómo debe responder. Se escriben solas con lo que cuentas en su chat; escribe «ver instrucciones» o «cambiar instrucciones» en el chat del Spark para leerlas o cambiarlas.',
    en: 'A Spark’s instructions say how it should answer. They are written from what you tell it in its chat; type “show instructions” or “change instructions” in the Spark’s chat to read or change them.',
  },
];

const FALLBACK: Record<Lang, string> = {
  es: 'No tengo una respuesta para eso. Prueba a preguntarme por cómo crear un Spark, subir documentos, probarlo, publicarlo o los planes.',
  en: "I don't have an answer for that. Try asking me how to create a Spark, upload documents, test it, publish it, or about the plans.",
};

/** What the assistant says to a bare call for help ("help", "ayuda", "what can you do?"): what to ask it about. */
const OVERVIEW: Record<Lang, string> = {
  es: 'Te ayudo con todo lo de Sparks: cómo crear un Spark, subir sus documentos, probarlo, publicarlo en tu web y los planes. Pregúntame por cualquiera de esas cosas.',
  en: 'I can help with anything about Sparks: how to create a Spark, upload its documents, test it, publish it on your website, and the plans. Ask me about any of those.',
};

/** A message that only asks for help, in either language (accents, case and punctuation aside; a lone "?" too). */
const BARE_HELP =
  /^(?:help(?: me)?|ayuda(?:me)?|socorro|what can you do(?: for me)?|what do you do|how does (?:this|it) work|que puedes hacer(?: por mi)?|que haces|como funciona(?: esto)?|)$/;

/** Answers a product question with the help article that matches it best (Postgres full-text search). */
export async function helpAnswer(db: Database, question: string, language: Lang): Promise<string> {
  if (BARE_HELP.test(normalize(question))) return OVERVIEW[language];
  const config = textSearchConfig(language);
  const texts = HELP.map((a) => a[language]);
  const result = await db.execute<{ i: number; matched: number }>(sql`
    WITH q AS (
      SELECT tsvector_to_array(to_tsvector(${config}::regconfig, ${question})) AS lexemes
    )
    SELECT t.i, (SELECT count(*) FROM unnest(q.lexemes) ql
                  WHERE EXISTS (SELECT 1 FROM unnest(tsvector_to_array(to_tsvector(${config}::regconfig, t.body))) bl
                                 WHERE bl = ql OR (length(ql) >= 3 AND starts_with(bl, left(ql, greatest(3, length(ql) - 2))))))::int AS matched
      FROM q, json_array_elements_text(${JSON.stringify(texts)}::json) WITH ORDINALITY AS t(body, i)
     ORDER BY matched DESC, t.i
     LIMIT 1`);
  const best = result.rows[0];
  return best && Number(best.matched) > 0 ? texts[Number(best.i) - 1] : FALLBACK[language];
}
