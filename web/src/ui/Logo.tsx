import { useId } from 'react';

import { BRAND_NAME } from '../version';

interface LogoMarkProps {
  size?: number;
  className?: string;
}

/** The Sparks mark: a four-point spark with a small companion spark on a rounded gradient tile. */
export function LogoMark({ size = 32, className }: LogoMarkProps) {
  const id = useId();
  const gradient = `${id}-bg`;
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      xmlns="http://www.w3.org/2000/svg"
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#7c5cff" />
          <stop offset="1" stopColor="#ff7a45" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradient})`} />
      <path
        d="M14 6.5c.6 4.6 2.9 6.9 7.5 7.5-4.6.6-6.9 2.9-7.5 7.5-.6-4.6-2.9-6.9-7.5-7.5 4.6-.6 6.9-2.9 7.5-7.5Z"
        fill="#fff"
      />
      <path
        d="M22.5 18.5c.3 2 1.2 2.9 3.2 3.2-2 .3-2.9 1.2-3.2 3.2-.3-2-1.2-2.9-3.2-3.2 2-.3 2.9-1.2 3.2-3.2Z"
        fill="#fff"
        opacity=".85"
      />
    </svg>
  );
}

interface LogoProps extends LogoMarkProps {
  /** Show the "Sparks" word next to the mark (default true). */
  withWordmark?: boolean;
}

/** Brand logo for the header: the mark plus the word "Sparks". */
export function Logo({ size = 32, className, withWordmark = true }: LogoProps) {
  return (
    <span className={['logo', className].filter(Boolean).join(' ')}>
      <LogoMark size={size} />
      {withWordmark && <span className="logo__word">{BRAND_NAME}</span>}
    </span>
  );
}
