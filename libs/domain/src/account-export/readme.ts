/**
 * The README at the top of every export: what is where, in the account's language. `paths.ts` writes the layout
 * it describes; account-export.spec.ts checks that every folder named here is one the export writes.
 */
const TEXT = {
  en: `Your Sparks data
================

Everything your Sparks account holds, as it was on {date} (UTC), for {email}.
Dates are in UTC (ISO 8601). JSON files are UTF-8 text: any text editor opens them.

README.txt                      This file.
account/profile.json            Your profile: name, e-mail, language, how you sign in, your plan, limits and usage.
account/objectives.json         Your progress through the assistants' objectives.
account/emails.json             The e-mails Sparks sent you: when and about what (not their text).
billing/subscription.json       Your plan, its status and period, and the extra-interactions setting.
billing/checkouts.json          Every purchase started: what, price, payment provider, status, when it was paid.
billing/credit-packs.json       The interaction packs you bought and how much of each was used.
billing/usage.json              Interactions used in each billing period, by where they were counted from.
conversations/                  Your chats with the system assistants (home, profile, billing, deploy…).
sparks/NN-name/                 One folder per Spark:
  spark.json                      Its settings: name, type, options (palette, icon, language, business…).
  instructions.txt                The instructions it answers with.
  deployment.json                 Whether it is published, where (the allowed websites) and how long
                                  visitors' conversations are kept (never the secret token).
  documents/documents.json        Its documents: name, status, pages, size, and the file names below.
  documents/files/                The files you uploaded (or imported), as they were stored.
  documents/text/                 What was read from each file, page by page.
  owner-answers.json              The questions it could not answer and the answers you wrote.
  tests.json                      Its tests and the errors you reported on them.
  integrations.json               Its SharePoint / OneDrive connections and the files they follow (no tokens).
  conversations/builder-*.json    Your chats building it.
  conversations/tests/            The chats of its tests.
  conversations/visitors/         Its website visitors' conversations, with the site they came from and any
                                  e-mail address a visitor left for you.

A conversation file holds its kind, dates and messages; each message has its type (human, ai or action),
its time, its text ("content") and, for assistant actions, the data of the buttons or cards it showed.
`,
  es: `Tus datos de Sparks
===================

Todo lo que guarda tu cuenta de Sparks, tal como estaba el {date} (UTC), para {email}.
Las fechas están en UTC (ISO 8601). Los archivos JSON son texto UTF-8: cualquier editor de texto los abre.

README.txt                      Este archivo.
account/profile.json            Tu perfil: nombre, correo, idioma, cómo inicias sesión, tu plan, límites y uso.
account/objectives.json         Tu avance en los objetivos de los asistentes.
account/emails.json             Los correos que Sparks te envió: cuándo y sobre qué (no su texto).
billing/subscription.json       Tu plan, su estado y periodo, y el ajuste de interacciones extra.
billing/checkouts.json          Cada compra iniciada: qué, precio, proveedor de pago, estado y cuándo se pagó.
billing/credit-packs.json       Los paquetes de interacciones que compraste y cuánto se usó de cada uno.
billing/usage.json              Las interacciones usadas en cada periodo de facturación, según de dónde se descontaron.
conversations/                  Tus chats con los asistentes del sistema (inicio, perfil, facturación, publicar…).
sparks/NN-nombre/               Una carpeta por Spark:
  spark.json                      Su configuración: nombre, tipo, opciones (paleta, icono, idioma, negocio…).
  instructions.txt                Las instrucciones con las que responde.
  deployment.json                 Si está publicado, dónde (los sitios web permitidos) y cuánto tiempo se
                                  guardan las conversaciones de los visitantes (nunca el token secreto).
  documents/documents.json        Sus documentos: nombre, estado, páginas, tamaño y los nombres de archivo de abajo.
  documents/files/                Los archivos que subiste (o importaste), tal como se guardaron.
  documents/text/                 Lo que se leyó de cada archivo, página a página.
  owner-answers.json              Las preguntas que no supo responder y las respuestas que escribiste.
  tests.json                      Sus pruebas y los errores que señalaste en ellas.
  integrations.json               Sus conexiones con SharePoint / OneDrive y los archivos que siguen (sin tokens).
  conversations/builder-*.json    Tus chats para crearlo.
  conversations/tests/            Los chats de sus pruebas.
  conversations/visitors/         Las conversaciones de los visitantes de tu web, con el sitio del que venían y
                                  el correo que algún visitante te dejó.

Cada archivo de conversación tiene su tipo, sus fechas y sus mensajes; cada mensaje, su tipo (human, ai o
action), su hora, su texto ("content") y, en las acciones del asistente, los datos de los botones o tarjetas.
`,
} as const;

export function exportReadme(language: 'en' | 'es', params: { date: string; email: string }): string {
  return TEXT[language].replace('{date}', params.date).replace('{email}', params.email);
}
