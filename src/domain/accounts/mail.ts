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
 * `smtp://user:pass@host:587` or `smtps://…`, `MAIL_FROM` the sender. nodemailer is imported
 * only here, when SMTP_URL is set: a service without mail does not carry it in memory.
 */
export async function smtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
