/**
 * The words owners answer with, in English and Spanish, as `normalize` leaves them (lower case, no accents, no
 * punctuation). Each list is of whole phrases; a reply is read as one of these kinds when it is made only of
 * phrases of that kind and of courtesies (`FILLERS`). Typos are forgiven against the words of these lists
 * (text.ts), not against the phrases themselves.
 */

const list = (text: string): string[] =>
  text
    .split('|')
    .map((p) => p.trim())
    .filter(Boolean);

/** Yes, in every way people say it to "is it right?", "do you like it?". */
export const AGREE = list(`
  i m happy with it|im happy with it|happy with it|i m happy with that|im happy with that|happy with that|i am happy with it|estoy contento|estoy contenta|estoy contento con el|estoy contenta con el|contento|contenta|estoy contento con ese|estoy contenta con ese|looks right to me|
  uploading|uploading now|uploading it|subiendo|subiendolo|se esta subiendo|lo subo ahora|lo subo|voy|ya voy|sounds about right|about right|
  thank you so much|thanks a lot|many thanks|mil gracias|muchisimas gracias|buen trabajo|
  looks good to me|sounds good to me|ok by me|thats all correct|that s all correct|that s all|great job|good job|nice work|well done|save them|save|save it|yes save them|guardalas|guardar|guardalo|guardala|thanks|thank you|thx|gracias|muchas gracias|got it|understood|noted|entendido|it went well|it went fine|it was good|it was fine|went well|all went well|ha ido bien|fue bien|ha ido genial|salio bien|todo ha ido bien|si ha ido bien|
  yes|y|ye|yeah|yea|yep|yup|ya|sure|sure thing|ok|okay|okey|oki|okis|okk|k|kk|alright|all right|right|correct|exactly|exact|
  perfect|great|good|very good|fine|cool|nice|awesome|excellent|lovely|brilliant|amazing|super|wonderful|fantastic|
  looks good|look good|looks great|looks fine|looks right|looks perfect|looks correct|sounds good|sound good|
  sounds great|sounds right|sounds perfect|seems right|seems good|seems fine|all good|all correct|all right then|
  its right|it s right|it is right|thats right|that s right|that is right|thats correct|that s correct|
  that is correct|its correct|it s correct|it is correct|is correct|is right|all of it|thats it|that s it|that is it|
  thats fine|that s fine|that is fine|its fine|it s fine|it is fine|thats good|that s good|that is good|
  thats perfect|that s perfect|that is perfect|its perfect|it s perfect|its good|it s good|it is good|spot on|
  yes please|yes it is|yes thats right|yes that s right|yes correct|go ahead|go on|go for it|do it|lets go|let s go|
  confirm|confirmed|i confirm|agreed|agree|i agree|of course|absolutely|definitely|totally|certainly|indeed|
  yes sir|sure why not|why not|love it|i love it|like it|i like it|i like that|works for me|works|that works|
  fine by me|good to go|approved|lgtm|true|affirmative|done|all done|im done|i m done|ready|finished|uploaded|
  i uploaded it|i ve uploaded it|ive uploaded it|already uploaded|listo|lista|ya esta|terminado|subido|ya lo subi|
  ya lo he subido|ya los he subido|ya lo tienes|
  si|sip|sii|claro|claro que si|por supuesto|desde luego|vale|valee|va|venga|dale|de acuerdo|deacuerdo|acuerdo|
  correcto|correcta|es correcto|esta correcto|todo correcto|exacto|exacta|exactamente|eso es|eso mismo|asi es|
  perfecto|perfecta|perfect|genial|bien|muy bien|esta bien|estan bien|todo bien|me parece bien|me parece perfecto|
  me parece genial|me parece correcto|me vale|me sirve|me gusta|me encanta|me gusta mucho|guay|chulo|estupendo|
  estupenda|excelente|fenomenal|fantastico|maravilloso|bueno|buenisimo|ok perfecto|adelante|hecho|confirmo|
  confirmado|obvio|obviamente|sin duda|totalmente|justo|justo eso|tal cual|eso|es eso|esta perfecto|
  queda bien|quedo bien|queda genial|luce bien|se ve bien|pinta bien|mola|si senor|si se|ajá|aja|yes yes|si si
`);

/** No, to "is it right?" (and, at a step that offers to change a value, "leave it"). */
export const DISAGREE = list(`
  dont save|don t save|do not save|dont save them|don t save them|do not save them|no las guardes|no guardes|no lo guardes|no los guardes|not that one|
  step by step|no step by step|paso a paso|no paso a paso|que no|it went badly|it didn t go well|it didnt go well|went badly|it was bad|ha ido mal|fue mal|salio mal|no ha ido bien|
  no|n|nope|nah|nop|noo|not really|not quite|not exactly|not at all|not right|not correct|isnt right|isn t right|
  wrong|thats wrong|that s wrong|that is wrong|its wrong|it s wrong|incorrect|thats not it|that s not it|
  thats not right|that s not right|that is not right|that is not correct|thats not correct|no way|no thanks|
  no thank you|negative|i dont like it|i don t like it|i do not like it|dont like it|don t like it|not like that|
  not that|no no|cancel|stop|nevermind|never mind|i dont think so|i don t think so|hmm no|nah not really|
  no es correcto|no esta bien|no es eso|no exactamente|no del todo|para nada|en absoluto|ni hablar|
  nada que ver|no gracias|mejor no|cancelar|cancela|no me gusta|no me convence|asi no|no asi|esta mal|mal|
  incorrecto|incorrecta|nones|que va|qué va|no no|no señor|no senor|no es asi|no, no|negativo|tampoco
`);

/** Keep the current value, said to "which name… it is called X now", "which message… now it says…". */
export const KEEP = list(`
  the way it is|how it is|leave it how it is|leave it the way it is|fine the way it is|its fine the way it is|it s fine the way it is|como lo tienes|dejalo como lo tienes|como esta|actual|current|tal como esta|esta bien tal como esta|
  leave the name|leave the greeting|leave the message|leave the colours|leave the colors|leave the icon|
  keep this name|keep the colours|keep the colors|keep the palette|keep the icon|keep the tone|keep the language|los mismos colores|el mismo color|el mismo icono|el mismo tono|el mismo idioma|mismos colores|keep the same colours|
  keep|keep it|keep that|keep this|keep this one|keep that one|keep the name|keep the current name|
  keep the current one|keep the same|keep it the same|keep it as is|keep as is|keep it like that|keep the greeting|
  keep the message|keep the current greeting|keep the current message|keep it please|keep that name|
  leave it|leave it as is|leave it as it is|leave it like that|leave it like this|leave as is|leave that|leave this|
  leave it alone|leave it the same|as is|as it is|the same|same|same one|the same one|same as before|same thing|
  no change|no changes|dont change|don t change|dont change it|don t change it|do not change it|
  dont change anything|don t change anything|unchanged|nothing to change|no need|no need to change|
  no need to change it|not necessary|it s fine as is|its fine as is|fine as is|fine as it is|its ok as is|
  it s ok as is|ok as is|this one|this one is fine|that one is fine|the current one|current one|the one it has|
  the one there is|stays|it stays|let it be|let it stay|it can stay|keep current|no change needed|
  i dont want to change it|i don t want to change it|i like it as is|i like it like that|nothing|none|
  mantener|mantenlo|mantenla|manten|mantén|mantener este nombre|mantener el nombre|mantener el saludo|
  mantener el mensaje|mantenlo asi|mantenlo igual|mantener igual|manten el nombre|manten el saludo|
  dejalo|dejala|dejalo asi|dejala asi|dejarlo asi|dejalo igual|dejala igual|dejalo como esta|dejala como esta|
  dejalo tal cual|dejalo tal como esta|dejalo como estaba|deja el nombre|deja el saludo|deja el mensaje|
  deja ese|deja este|deja ese nombre|deja ese saludo|dejalo estar|igual|igual que antes|el mismo|la misma|
  el mismo nombre|el mismo saludo|el mismo mensaje|ese mismo|ese esta bien|este esta bien|el de ahora|
  el que hay|el que tiene|el actual|lo que hay|lo de ahora|tal cual|tal como esta|asi|asi esta bien|asi vale|
  asi me vale|asi me gusta|asi mismo|asi tal cual|asi como esta|esta bien asi|esta bien como esta|
  me gusta asi|me gusta como esta|sin cambios|sin cambiar|no cambiar|no cambies|no cambies nada|no lo cambies|
  no la cambies|no hace falta|no hace falta cambiarlo|no es necesario|no quiero cambiarlo|no quiero cambiar nada|
  nada|ninguno|ninguna|nada que cambiar|que se quede asi|que se quede igual|se queda asi|se queda|que se quede|
  lo dejo asi|lo dejamos asi|dejemoslo asi|dejemoslo igual|no toques nada|no lo toques
`);

/** Move on without the step (documents, a test). */
export const SKIP = list(`
  mejor luego|mejor despues|mejor mas tarde|better later|lets do it later|let s do it later|do it tomorrow|lo hago manana|manana|
  i dont have them|i don t have them|i dont have it|i don t have it|i dont have them right now|no los tengo|no lo tengo|no las tengo|saltarlo|saltarla|saltarnos esto|saltemos|saltemoslo|skip it for now|
  ill upload them later|i ll upload them later|i will upload them later|i ll skip the documents|ill skip the documents|skip documents|skip the docs|me salto los documentos|saltar documentos|saltar los documentos|me salto esto|
  skip|skip it|skip this|skip that|skip for now|skip this step|skip step|just skip|skip please|next|next step|
  later|maybe later|later maybe|not now|not right now|not yet|not for now|continue|move on|lets move on|
  let s move on|carry on|go next|pass|ill do it later|i ll do it later|i will do it later|do it later|
  ill upload later|i ll upload later|i will upload later|upload later|ill add them later|i ll add them later|
  ill do that later|i ll do that later|no documents|no docs|i dont have documents|i don t have documents|
  i dont have any|i don t have any|i have no documents|i dont have any documents|i don t have any documents|
  i dont have any pdfs|i don t have any pdfs|no pdfs|no pdf|dont have any|don t have any|later please|
  another time|some other time|leave it for later|i ll skip|ill skip|i skip|skip documents|skip the documents|
  skip the test|skip testing|no test|no tests|i dont want to test|i don t want to test|
  saltar|salta|saltalo|saltala|saltar por ahora|saltar paso|salta este paso|saltate esto|me lo salto|lo salto|
  omitir|omite|omitelo|luego|despues|mas tarde|luego lo hago|lo hago luego|lo hago despues|lo hago mas tarde|
  lo subo luego|lo subo despues|los subo luego|los subo despues|los subo mas tarde|subo luego|ahora no|
  ahora mismo no|todavia no|aun no|siguiente|siguiente paso|continuar|continua|continuemos|sigue|seguimos|
  sigamos|pasa|paso|pasar|pasemos|no tengo documentos|no tengo pdf|no tengo pdfs|no tengo ninguno|
  no tengo nada|sin documentos|en otro momento|otro dia|dejalo para luego|para luego|para despues|
  no quiero probarlo|sin prueba|sin pruebas|sin probar
`);

/** Courtesies and fillers that go with any answer ("perfecto, gracias", "yes please 🙂"). */
export const FILLERS = list(`
  100|al 100|100 percent|to me|me parece que|creo que|i think|
  about|more or less|kind of|sort of|pretty much|mas o menos|casi|right now|for the moment|at the moment|for now|de momento|por ahora|ahora mismo|la verdad|honestly|really|sinceramente|can we|can i|could we|could i|podemos|puedo|podriamos|we|i|i m|im|estoy|of|de|
  thanks|thank you|thx|ty|tnx|cheers|please|pls|plz|mate|buddy|man|dude|friend|so|then|well|oh|ah|uh|um|hmm|
  hm|haha|lol|yes yes|all|really|very|much|indeed|again|now|just|lets|let s|go|for|me|the|that|it|its|it s|is|
  emoji|great job|good job|nice work|well done|thank you so much|thanks a lot|many thanks|
  gracias|muchas gracias|mil gracias|grasias|porfa|porfavor|por favor|pues|entonces|bueno|oye|hombre|tio|tia|
  amigo|jaja|jajaja|jeje|ya|ahora|todo|muy|mucho|lo|la|es|eso|asi|ok|buen trabajo|
`);

/** How a question starts (besides a question mark). */
export const QUESTION_STARTS = list(`
  what|whats|what s|how|why|can|could|should|would|do|does|did|is|are|which|where|when|who|whom|will|shall|
  may|might|am i|wait what|que|qué|como|por que|porque|para que|puedo|puedes|podria|podrias|se puede|cual|cuales|
  donde|cuando|quien|hay que|tengo que|debo|deberia|necesito|es obligatorio|sirve|i dont understand|
  i don t understand|no entiendo|no lo entiendo|help|ayuda|explain|explicame|dime|tell me|i need help|
  not sure what|no se que|no se como|what do i|what should|cuanto|cuantos|cuanta|cuantas|how much|how many
`);

/** Words that say which value to change, and the field they name. */
export const FIELD_WORDS: Array<
  [string, 'name' | 'greeting' | 'description' | 'palette' | 'icon' | 'tone' | 'language']
> = [
  ...list(`name|title|spark name|business name|spark s name|nombre|titulo|nombre del spark|nombre del negocio|
    nombre del asistente|assistant name|assistant s name`).map((w) => [w, 'name'] as [string, 'name']),
  ...list(`greeting|welcome message|welcome text|greeting message|first message|initial message|message|
    intro message|opening message|saludo|mensaje|mensaje de bienvenida|bienvenida|mensaje inicial|primer mensaje|
    mensaje de saludo|texto de bienvenida`).map((w) => [w, 'greeting'] as [string, 'greeting']),
  ...list(`description|business description|descripcion|descripcion del negocio`).map(
    (w) => [w, 'description'] as [string, 'description'],
  ),
  ...list(`colour|color|colours|colors|palette|colour palette|color palette|colour scheme|color scheme|theme|
    paleta|paleta de colores|colores|tema|esquema de colores|gama`).map((w) => [w, 'palette'] as [string, 'palette']),
  ...list(`icon|icono|logo|avatar|symbol|simbolo|dibujo|imagen`).map((w) => [w, 'icon'] as [string, 'icon']),
  ...list(`tone|tone of voice|voice|style|tono|tono de voz|estilo|trato|forma de hablar`).map(
    (w) => [w, 'tone'] as [string, 'tone'],
  ),
  ...list(`language|idioma|lengua`).map((w) => [w, 'language'] as [string, 'language']),
];

/** What may come before a change ("please change…", "mejor…", "no, …", "actually…"). */
export const CHANGE_HEADS = list(`
  por cierto|by the way|btw|oh and|ah y|ah|and also|y tambien|ponlo|ponla|also make|tambien|
  please|pls|can you|could you|would you|can we|could we|i want to|i d like to|id like to|i would like to|
  i want|i d like|id like|i would like|i prefer|i d prefer|id prefer|i would prefer|prefer|lets|let s|
  change|change it to|set|make|make it|rename|switch|switch to|update|modify|use|put|go with|try|instead|
  better|rather|actually|but|and|no|yes but|ok but|yes|ok|hmm|oh|also|just|now|maybe|how about|what about|
  i think|i changed my mind|on second thought|
  cambia|cambiar|cambiale|cambialo|cambiala|cambiamos|pon|ponle|ponlo|ponla|poner|usa|usar|quiero|quisiera|
  querria|me gustaria|prefiero|preferiria|mejor|mejor con|mejor en|mejor el|mejor la|modifica|modificar|
  actualiza|haz|hazlo|hazla|que sea|deja|dejalo en|dejala en|elige|elijo|me quedo con|y|pero|no|si|vale|
  oye|bueno|mmm|en realidad|la verdad|tambien|ahora|casi mejor|creo que|he cambiado de idea|
  al final|porfa|por favor|podrias|puedes|podemos|vamos a|voy a|y si|que tal|qué tal
`);

/** What joins a field to its new value ("the name to…", "el saludo por…", "name: …"). */
export const CONNECTORS = list(
  `to|into|as|is|should be|would be|will be|be|for|with|now|=|a|al|por|en|como|sea|es|que sea|con|:|for now|
  deberia ser|debe ser|tiene que ser|sera|seria`,
);

/** Ways to give a name outright ("call it Espiga", "que se llame Espiga", "no, it's called Espiga"). */
export const NAME_VERBS = list(`
  call it|call the spark|name it|rename it to|rename it|rename to|rename the spark to|rename the spark|
  it s called|its called|it is called|is called|they call it|we call it|the name is|the name should be|
  its name is|it s name is|call him|call her|
  llamalo|llamala|llamale|llamarlo|llamarla|ponle de nombre|ponle el nombre|ponle por nombre|que se llame|
  se llama|se va a llamar|se llamara|se llamaria|quiero que se llame|el nombre es|el nombre sera|su nombre es|
  nombralo|renombralo|renombrar a|renombralo a|bautizalo|bautizalo como|llamalo mejor|mejor llamalo
`);

/** Said to the builder rather than to visitors: a greeting that starts this way is confirmed before it is used. */
export const INSTRUCTION_STARTS = list(`
  make|write|put|use|say|add|change|set|let it say|have it say|it should|should|something|something like|
  something that|i want|i d like|id like|i would like|could you|can you|please write|please make|please put|
  create|generate|give me|come up with|suggest|more|less|a greeting|a message|a welcome|maybe something|
  pon|ponle|ponlo|ponla|escribe|escribeme|haz|hazlo|hazla|usa|di|decir|añade|anade|agrega|cambia|cambialo|que diga|que ponga|
  que salude|quiero que|quiero un|quiero algo|me gustaria|algo como|algo asi|algo que|algo mas|algo|mas|menos|
  un saludo|un mensaje|una bienvenida|invéntate|inventate|inventa|crea|genera|sugiere|sugiereme|dame|ponme|
  redacta|mejoralo|mejora|hazlo mas|tu decides|you decide|you choose|elige tu|lo que quieras|whatever you want
`);

/** A greeting's own words: a reply with them is a greeting, even when it asks ("How can I help you?"). */
export const GREETING_CUES = list(`
  good day|be of help|of help|muy buenas|con que te ayudo|con que puedo ayudarte|how can we help|what can we do|
  hi|hello|hey|welcome|good morning|good afternoon|good evening|greetings|howdy|hiya|how can i help|
  how may i help|can i help|help you|assist you|what can i do for you|ask me|ask us|here to help|
  hola|buenas|buenos dias|buenas tardes|bienvenido|bienvenida|bienvenidos|bienvenidas|saludos|en que te ayudo|
  en que te puedo ayudar|en que puedo ayudarte|en que puedo ayudarle|en que le ayudo|en que le puedo ayudar|
  te ayudo|le ayudo|os ayudo|ayudarte|ayudarle|ayudaros|te puedo ayudar|puedo ayudarte|preguntame|preguntanos|
  estoy aqui|estamos aqui|a tu servicio|encantado|encantados
`);

/** What an owner says instead of a name when they have none in mind ("you choose", "no sé"). */
export const NO_IDEA = list(`
  no clue|no tengo ni idea|not a clue|
  idk|i dont know|i don t know|dunno|no idea|not sure|im not sure|i m not sure|whatever|anything|any|
  you choose|you pick|you decide|up to you|dealer s choice|surprise me|something nice|something cool|
  no se|ni idea|no lo se|no estoy seguro|no estoy segura|lo que quieras|cualquiera|cualquier cosa|
  elige tu|eligelo tu|decide tu|tu decides|sorprendeme|algo bonito|algo chulo|me da igual|da igual|lo que sea
`);

/** Ways to name the value meant, at a yes/no question ("no, it's Espiga", "no, es Espiga"): only a short capitalised name. */
export const NAME_IS = list(`it s|its|it is|es|is|se llama|it s called`);

/** Words that point at a value rather than say anything ("the", "that name", "ese"): left out for a second reading. */
export const POINTERS = list(`
  the|that|this|it|its|it s|thats|that s|these|those|one|el|la|lo|los|las|ese|esa|eso|este|esto|estos|esos|su|sus|
  your|my|mi|tu|all|todo|toda|todos
`);
