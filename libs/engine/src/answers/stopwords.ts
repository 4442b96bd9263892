/**
 * Stop words: the words that say nothing of what a question is about. The Snowball project's English and
 * Spanish lists (the ones PostgreSQL's `english` and `spanish` text-search configurations use; BSD
 * licence), with the chat forms customers type ("u", "whats", "q") and a few more function words.
 * A stop word that starts a concept phrase of concepts.ts ("sin gluten", "how much") is read as the phrase.
 */
import { fold, type Lang } from './words';

const EN = `
a about above after again against all also although am among an and another any anyone anything
anywhere are as at be because been before being below between both but by can did do does doing don
down during each either even everything few for from further get got had has have having he hello
her here hers herself hi him himself his how however i i'd i'm i've if im in into is it it's its
itself just let let's me more most my myself neither no nor not now of off ok okay on once only or
other our ours ourselves out over own per please r really s same she should since so some someone
something somewhere still such t than thank thanks that the their theirs them themselves then there
these they this those though through to too toward towards u under until up upon ur very via was we
we're well were what what's whats when where whether which while who whom why will with within
without yet you you're your yours yourself yourselves
`;

const ES = `
a acá ahí al algo alguien alguna algunas alguno algunos algún allá allí ante antes aquí aunque
bueno cada como con contra cual cuando cuál cuáles cuándo cuánta cuántas cuánto cuántos cómo de del
desde donde durante dónde e eh el ella ellas ellos en entonces entre era erais eran eras eres es
esa esas ese eso esos esta estaba estabais estaban estabas estad estada estadas estado estados
estamos estando estar estaremos estará estarán estarás estaré estaréis estaría estaríais estaríamos
estarían estarías estas este estemos esto estos estoy estuve estuviera estuvierais estuvieran
estuvieras estuvieron estuviese estuvieseis estuviesen estuvieses estuvimos estuviste estuvisteis
estuviéramos estuviésemos estuvo está estábamos estáis están estás esté estéis estén estés fue
fuera fuerais fueran fueras fueron fuese fueseis fuesen fueses fui fuimos fuiste fuisteis fuéramos
fuésemos gracias ha habida habidas habido habidos habiendo habremos habrá habrán habrás habré
habréis habría habríais habríamos habrían habrías habéis había habíais habíamos habían habías han
has hasta hay haya hayamos hayan hayas hayáis he hemos hola hube hubiera hubierais hubieran
hubieras hubieron hubiese hubieseis hubiesen hubieses hubimos hubiste hubisteis hubiéramos
hubiésemos hubo la las le les lo los me mediante mi mientras mis misma mismas mismo mismos mucho
muchos muy más mí mía mías mío míos nada ni ninguna ningún no nos nosotras nosotros nuestra
nuestras nuestro nuestros o ok os otra otras otro otros oye para pero poco por porque pues q que
quien quienes quién quiénes qué se sea seamos sean seas según sentid sentida sentidas sentido
sentidos seremos será serán serás seré seréis sería seríais seríamos serían serías seáis siente sin
sino sintiendo sobre sois solo somos son soy su sus suya suyas suyo suyos sí sólo también tan tanta
tanto te tendremos tendrá tendrán tendrás tendré tendréis tendría tendríais tendríamos tendrían
tendrías tened tenemos tenga tengamos tengan tengas tengo tengáis tenida tenidas tenido tenidos
teniendo tenéis tenía teníais teníamos tenían tenías ti tiene tienen tienes toda todas todo todos
tras tu tus tuve tuviera tuvierais tuvieran tuvieras tuvieron tuviese tuvieseis tuviesen tuvieses
tuvimos tuviste tuvisteis tuviéramos tuviésemos tuvo tuya tuyas tuyo tuyos tú un una uno unos vale
vosostras vosostros vuestra vuestras vuestro vuestros y ya yo él éramos
`;

export const STOP_WORDS: Record<Lang, ReadonlySet<string>> = {
  en: new Set(EN.split(/\s+/).filter(Boolean).map(fold)),
  es: new Set(ES.split(/\s+/).filter(Boolean).map(fold)),
};
