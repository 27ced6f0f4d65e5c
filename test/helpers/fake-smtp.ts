import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback (smtp-server, from the nodemailer project) that keeps what it receives. */
export async function startFakeSmtp() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail's text as a reader sees it: quoted-printable soft breaks joined and `=3D` back to `=`. */
export function mailText(mail: ReceivedMail): string {
  return mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The first match of `pattern` in a mail to `email`, waiting up to 5 s for one to arrive (mail goes out after the answer). */
export async function waitForMail(mails: ReceivedMail[], email: string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 250; i++) {
    for (const mail of mails.filter((m) => m.to.includes(email))) {
      const found = pattern.exec(mailText(mail));
      if (found !== null) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${email} matching ${pattern}`);
}
