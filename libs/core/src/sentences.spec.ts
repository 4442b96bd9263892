import { splitSentences } from './sentences';

const SPANISH = [
  'El señor Muñoz llegó a la reunión del año 2001.',
  '¿Quién pagó la cuenta?',
  '¡Nadie lo sabía!',
  'La cigüeña voló sobre el pueblo; después, todos se fueron a casa.',
  'El horario de atención es de 9:00 a 18:00 horas y el precio es de 3.50 euros.',
  'La Sra. Peña y el Dr. Gutiérrez, p. ej. los dueños, abren también los sábados.',
  'Según J. R. Jiménez, el pingüino «Ñandú» es del año 1998.',
];

const ENGLISH = [
  'Mr. Smith opened the shop in 1998.',
  'It sells coffee, tea, etc. and cakes every day.',
  'Prices start at $3.50, e.g. for an espresso.',
  'Is it open on Sundays?',
  'Yes!',
  'Ask for No. 5 on the menu.',
];

describe('splitSentences', () => {
  it('splits Spanish prose into its sentences, accents and opening marks intact', () => {
    expect(splitSentences(SPANISH.join(' '))).toEqual(SPANISH);
  });

  it('splits English prose into its sentences, keeping abbreviations and numbers inside', () => {
    expect(splitSentences(ENGLISH.join(' '))).toEqual(ENGLISH);
  });

  it('cuts no name that holds an abbreviation or an initial ("Brown v. Board", "St. Johns River")', () => {
    const text =
      'In many parts of the United States, after the 1954 decision in the landmark court case Brown v. Board of ' +
      'Education of Topeka, local families organized private academies. The city lies on the St. Johns River. ' +
      'Dr. Smith teaches there.';
    expect(splitSentences(text)).toEqual([
      'In many parts of the United States, after the 1954 decision in the landmark court case Brown v. Board of Education of Topeka, local families organized private academies.',
      'The city lies on the St. Johns River.',
      'Dr. Smith teaches there.',
    ]);
  });

  it('answers nothing for blank text and the text itself when there is no boundary', () => {
    expect(splitSentences('   ')).toEqual([]);
    expect(splitSentences('Una línea sin punto final')).toEqual(['Una línea sin punto final']);
  });
});
