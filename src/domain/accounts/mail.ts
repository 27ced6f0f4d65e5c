import { createTransport, type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing mail. Null in Deps when SMTP_URL is unset: nothing then claims a mail went out. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer (the well-kept mail library of Node): `SMTP_URL` is
 * `smtp://user:pass@host:587` or `smtps://…`, `MAIL_FROM` the sender.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
