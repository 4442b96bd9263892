import type { AppConfig } from '@sparks/core';
import nodemailer, { type Transporter } from 'nodemailer';

export const MAILER = Symbol('MAILER');

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  deliver(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}

/** SMTP when configured; otherwise mail stays in the dev outbox table (nothing to do here). */
export function createMailer(config: AppConfig): Mailer {
  if (!config.SMTP_URL) {
    return { transport: 'outbox', deliver: () => Promise.resolve() };
  }
  const transporter: Transporter = nodemailer.createTransport(config.SMTP_URL);
  return {
    transport: 'smtp',
    deliver: async (m) => {
      await transporter.sendMail({ from: config.MAIL_FROM, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}
