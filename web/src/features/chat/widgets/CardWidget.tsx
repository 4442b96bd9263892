import type { InfoLine } from './parse';

export interface CardWidgetProps {
  title: string;
  info: InfoLine[];
  variant: 'card' | 'userCard';
}

/** `card` (label/value; an object value as key/value lines) and `userCard` (type/result). */
export function CardWidget({ title, info, variant }: CardWidgetProps) {
  return (
    <section className={`chat-card chat-card--${variant}`} aria-label={title || undefined}>
      {title && <h3 className="chat-card__title">{title}</h3>}
      <dl className="chat-card__list">
        {info.map((line, index) => (
          <div className="chat-card__row" key={`${index}-${line.label}`}>
            <dt>{line.label}</dt>
            <dd>
              {typeof line.value === 'string' ? (
                <span className="chat-card__value">{line.value}</span>
              ) : (
                <dl className="chat-card__nested">
                  {line.value.map(([key, value]) => (
                    <div key={key} className="chat-card__nested-row">
                      <dt>{key}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
