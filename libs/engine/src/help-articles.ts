/**
 * What the built-in help knows about the product (help.ts answers a question with the article that matches it
 * best). Each "how do I…" article gives the steps and the links to the screens that do it; the plans article is
 * completed with the plan catalogue of the database (`{plans}`, `{trial}`), so it never says other figures than
 * the ones that apply.
 */

export interface Article {
  es: string;
  en: string;
  /** What it is about, in a few words: they weigh most when a question is matched to an article. */
  topic: { es: string; en: string };
}

export const HELP: Article[] = [
  {
    topic: { es: 'Qué es un Spark', en: 'What is a Spark' },
    es: 'Un Spark es un asistente de IA para tu web. Lo creas chateando: le cuentas tu negocio, subes tus documentos PDF, eliges colores, icono e idioma, lo pruebas y lo publicas como widget de chat en tu web o con el Pulse para WordPress.',
    en: 'A Spark is an AI assistant for your website. You create it by chatting: you describe your business, upload your PDF documents, pick colours, an icon and a language, test it and publish it as a chat widget on your website or with the Pulse for WordPress.',
  },
  {
    topic: { es: 'Crear un Spark nuevo', en: 'Create a new Spark' },
    es: 'Para crear un Spark abre [Nuevo Spark](/new-spark) (en el menú, o el botón «Crear un Spark»). El asistente te pregunta el nombre de tu negocio, a qué se dedica, para qué quieres el asistente y su idioma; también puedes contarlo todo en un mensaje. Después sigues en el chat del Spark.',
    en: 'To create a Spark open [New Spark](/new-spark) (in the menu, or the “Create a Spark” button). The assistant asks your business name, what it does, what the assistant is for and its language; you can also tell it all in one message. Then you carry on in the Spark’s chat.',
  },
  {
    topic: { es: 'Subir documentos, archivos PDF, conocimiento', en: 'Upload documents, PDF files, knowledge' },
    es: 'Para subir documentos abre el chat de tu Spark, pulsa el botón de adjuntar (el clip) y elige un PDF con texto: la carta, precios, horarios o preguntas frecuentes. Cada documento puede tener hasta 10 MB y tu plan fija cuántos documentos caben. Los PDF escaneados sin texto no se pueden leer. El chat te dice lo que ha leído de cada uno. Con el plan Zaphire también puedes añadir archivos de SharePoint o OneDrive.',
    en: 'To upload documents open your Spark’s chat, press the attach button (the paper clip) and choose a PDF with text: your menu, prices, opening hours or FAQs. Each document can be as big as 10 MB (the maximum size) and your plan sets how many documents fit. Scanned PDFs without text cannot be read. The chat tells you what it read from each one. With the Zaphire plan you can also add files from SharePoint or OneDrive.',
  },
  {
    topic: { es: 'Probar tu Spark, pruebas', en: 'Test your Spark, tests' },
    es: 'Para probar tu Spark, en su chat pulsa «Crear una prueba» (o escribe «nueva prueba») y abre la prueba: pregúntale como lo haría un cliente. Al terminar, di si la prueba fue satisfactoria; si no, añade documentos o cambia las instrucciones y crea otra. Cada Spark puede tener hasta 5 pruebas y puedes reiniciar una cuando quieras.',
    en: 'To test your Spark, in its chat press “Create a test” (or type “new test”) and open the test: ask it questions the way a customer would. When you finish, say whether the test was satisfactory; if not, add documents or change the instructions and create another one. Each Spark can have up to 5 tests, and you can restart a test at any time.',
  },
  {
    topic: {
      es: 'Publicar el widget de chat en tu web, desplegar',
      en: 'Publish the chat widget on your website, deploy',
    },
    es: 'Para poner el chat en tu web: 1) abre [Desplegar](/deploy) en el menú; 2) elige tu Spark y «Widget para tu web»; 3) añade la dirección de tu web (como https://www.tuweb.com): solo esas webs pueden mostrarlo; 4) mira la vista previa y pulsa Publicar; 5) copia el código y pégalo en tu web antes de </body>, en cada página donde quieras el chat. El asistente de Desplegar te avisa cuando se vea por primera vez.',
    en: 'To put the chat on your website: 1) open [Deploy](/deploy) in the menu; 2) choose your Spark and “Website widget”; 3) add your website’s address (like https://www.example.com): only those sites can show it; 4) look at the preview and press Publish; 5) copy the code and paste it into your website before </body>, on every page where you want the chat. The Deploy assistant tells you when it is first seen there.',
  },
  {
    topic: { es: 'WordPress, el plugin Pulse', en: 'WordPress, the Pulse plugin' },
    es: 'Para poner el chat en tu web de WordPress usa el Pulse, nuestro plugin: 1) en [Desplegar](/deploy) elige tu Spark y «Pulse para WordPress», y publícalo; 2) descarga el plugin ([sparks-pulse.zip](/downloads/sparks-pulse.zip)); 3) en WordPress ve a Plugins → Añadir nuevo → Subir plugin, elige el zip y actívalo; 4) en Desplegar pulsa «Obtener una clave de sitio para WordPress» (vale 24 horas); 5) en WordPress, Ajustes → Sparks Pulse, escribe la dirección de Sparks y la clave y pulsa Conectar; 6) elige en qué páginas sale: todas, algunas, o las que tengan el bloque o el shortcode [sparks_pulse].',
    en: 'To put the chat on your WordPress site use the Pulse, our plugin: 1) on [Deploy](/deploy) choose your Spark and “Pulse for WordPress”, and publish it; 2) download the plugin ([sparks-pulse.zip](/downloads/sparks-pulse.zip)); 3) in WordPress go to Plugins → Add New → Upload Plugin, choose the zip and activate it; 4) on Deploy press “Get a site key for WordPress” (valid for 24 hours); 5) in WordPress, Settings → Sparks Pulse, type the Sparks address and the key and press Connect; 6) choose the pages it shows on: all of them, some, or those with the block or the [sparks_pulse] shortcode.',
  },
  {
    topic: { es: 'Despublicar un Spark, sustituir su código', en: 'Unpublish a Spark, replace its code' },
    es: 'Para despublicar un Spark o sustituir su código, abre [Desplegar](/deploy) y escribe «despublicar» o «nuevo código» en su chat (o usa los botones del panel); siempre te pide confirmación. Un Spark despublicado deja de verse al momento y libera su hueco en tu plan.',
    en: 'To unpublish a Spark or replace its code, open [Deploy](/deploy) and type “unpublish” or “new code” in its chat (or use the panel’s buttons); it always asks you first. An unpublished Spark disappears at once and frees its place in your plan.',
  },
  {
    topic: {
      es: 'Planes, precios, prueba gratuita, facturación, interacciones',
      en: 'Plans, prices, free trial, billing, interactions',
    },
    es: 'Planes y precios. {trial} Después eliges un plan en [Planes](/billing?showPlans=true): {plans} Si te quedas sin interacciones puedes comprar interacciones extra (ITx) en [Facturación](/billing?showCredits=true).',
    en: 'Plans and prices. {trial} After that you choose a plan in [Plans](/billing?showPlans=true): {plans} If you run out of interactions you can buy extra interactions (ITx) in [Billing](/billing?showCredits=true).',
  },
  {
    topic: {
      es: 'Cambiar el nombre, los colores, el icono, el saludo, el tono o el idioma de un Spark',
      en: 'Change the name, colours, icon, greeting, tone or language of a Spark',
    },
    es: 'Para cambiar el nombre, los colores, el icono, el saludo, el tono o el idioma de tu Spark, díselo en su chat cuando quieras: «cambia el nombre a Espiga», «mejor verde», «el segundo color», «usa el icono del robot», «cambia el saludo por ¡Hola!». El nombre también se cambia pulsando el título del chat. Sus instrucciones se actualizan con el nombre nuevo.',
    en: 'To change your Spark’s name, colours, icon, greeting, tone or language, tell it in its chat at any time: “change the name to Espiga”, “make it green”, “the second colour”, “use the robot icon”, “change the greeting to Hi!”. The name can also be changed by clicking the chat’s title. Its instructions are updated with the new name.',
  },
  {
    topic: { es: 'Tu perfil: nombre, apellidos, idioma', en: 'Your profile: first name, last name, language' },
    es: 'Para cambiar tu nombre, apellidos o idioma abre [Perfil](/profile) en el menú o pulsa «Cambiar mis datos». Sparks puede usarse en español o en inglés.',
    en: 'To change your first name, last name or language, open [Profile](/profile) in the menu or press “Change my info”. Sparks can be used in Spanish or English.',
  },
  {
    topic: { es: 'Borrar un Spark', en: 'Delete a Spark' },
    es: 'Para borrar un Spark abre su menú en la barra lateral, elige borrar y escribe la palabra Borrar para confirmar. Se borran también sus pruebas, conversaciones y documentos.',
    en: 'To delete a Spark, open its menu in the sidebar, choose delete and type the word Borrar to confirm. Its tests, conversations and documents are deleted too.',
  },
  {
    topic: { es: 'Fijar Sparks en la barra lateral', en: 'Pin Sparks in the sidebar' },
    es: 'Puedes fijar hasta 4 Sparks en la parte superior de la barra lateral desde el menú de cada Spark.',
    en: 'You can pin up to 4 Sparks at the top of the sidebar from each Spark’s menu.',
  },
  {
    topic: { es: 'Las instrucciones de un Spark, prompt', en: "A Spark's instructions, prompt" },
    es: 'Las instrucciones de un Spark dicen cómo debe responder. Se escriben solas con lo que cuentas en su chat; escribe «ver instrucciones» o «cambiar instrucciones» en el chat del Spark para leerlas o cambiarlas.',
    en: 'A Spark’s instructions say how it should answer. They are written from what you tell it in its chat; type “show instructions” or “change instructions” in the Spark’s chat to read or change them.',
  },
];
