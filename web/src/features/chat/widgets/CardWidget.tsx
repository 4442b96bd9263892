/** One line of a card: a label and its value. */
interface InfoLine {
  label: string;
  value: string;
}

export interface CardWidgetProps {
  title: string;
  info: InfoLine[];
  variant: 'card' | 'userCard';
}

/** `card` (label/value) and `userCard` (type/result, given here as label/value). */
export function CardWidget({ title, info, variant }: CardWidgetProps) {
  return (
    <section className={`chat-card chat-card--${variant}`} aria-label={title || undefined}>
      {title && <h3 className="chat-card__title">{title}</h3>}
      <dl className="chat-card__list">
        {info.map((line, index) => (
          <div className="chat-card__row" key={`${index}-${line.label}`}>
            <dt>{line.label}</dt>
            <dd>
              <span className="chat-card__value">{line.value}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
