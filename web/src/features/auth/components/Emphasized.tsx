const SLOT = '\u0000';

/**
 * A translated sentence with one value shown in bold, e.g. the e-mail in "We sent a code to {{email}}".
 * `render` gets a placeholder to pass as the value; the sentence is split around it. (Lighter than
 * react-i18next's <Trans>, which would grow the initial i18n chunk.)
 */
export function Emphasized({ render, value }: { render: (slot: string) => string; value: string }) {
  const [before, ...rest] = render(SLOT).split(SLOT);
  if (rest.length === 0) return <>{before}</>;
  return (
    <>
      {before}
      <strong>{value}</strong>
      {rest.join(value)}
    </>
  );
}
