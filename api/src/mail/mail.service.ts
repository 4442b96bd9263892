import { Injectable } from '@nestjs/common';
import { EmailsRepository, type NewEmail } from '@sparks/db';
import { JobProducer } from '@sparks/queues';

/** Records an e-mail and hands it to the worker through the `email` queue. */
@Injectable()
export class MailService {
  constructor(
    private readonly emails: EmailsRepository,
    private readonly jobs: JobProducer,
  ) {}

  async send(email: NewEmail): Promise<string> {
    const row = await this.emails.create(email);
    await this.jobs.enqueue('email.send', { emailId: row.id });
    return row.id;
  }
}
