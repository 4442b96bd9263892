import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmailsRepository } from '@sparks/db';
import type { JobPayloads } from '@sparks/queues';
import { UnrecoverableError, type Job } from 'bullmq';
import { MAILER, type Mailer } from './mailer';

@Injectable()
export class SendEmailJob {
  private readonly logger = new Logger(SendEmailJob.name);

  constructor(
    private readonly emails: EmailsRepository,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  async handle(payload: JobPayloads['email.send'], job: Job): Promise<void> {
    const email = await this.emails.findById(payload.emailId);
    if (!email) throw new UnrecoverableError(`email ${payload.emailId} does not exist`);
    if (email.status === 'sent') return; // a redelivery of a job already done
    try {
      await this.mailer.deliver({
        to: email.to,
        subject: email.subject,
        text: email.text ?? '',
        html: email.html ?? undefined,
      });
    } catch (err) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) await this.emails.markError(email.id, err instanceof Error ? err.message : String(err));
      throw err;
    }
    await this.emails.markSent(email.id, this.mailer.transport);
    if (this.mailer.transport === 'outbox') {
      // No SMTP: the log is, with the dev outbox, where people read their codes and links.
      this.logger.log(`dev outbox — to: ${email.to} — ${email.subject}\n${email.text ?? ''}`);
    }
  }
}
