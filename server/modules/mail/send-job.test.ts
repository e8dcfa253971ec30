import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryableError } from '../jobs/queue';
import { createMailer } from './mailer';
import { sendQueuedMail } from './send-job';

const logger = { info: () => {}, warn: () => {} };
const msg = (to: string) => ({ to, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });
let smtp: SMTPServer;
let port: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@'))
        return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
      if (address.address.startsWith('busy@'))
        return callback(Object.assign(new Error('Try later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume().on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => smtp.close(() => r())));

describe('the send-mail job', () => {
  const mailer = () =>
    createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      from: 'a@test',
      outboxDir: 'tmp/outbox',
      logger,
    });

  it('sends, retries when the server says "try later" or is away, and gives up on a refusal', async () => {
    const m = mailer();
    await sendQueuedMail(m, msg('someone@example.test'));
    await expect(sendQueuedMail(m, msg('busy@example.test'))).rejects.toBeInstanceOf(RetryableError);
    const refused = sendQueuedMail(m, msg('nobody@example.test'));
    await expect(refused).rejects.toThrow();
    await expect(refused).rejects.not.toBeInstanceOf(RetryableError);
    m.close();
    const away = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'a@test',
      outboxDir: 'tmp/outbox',
      logger,
    });
    await expect(sendQueuedMail(away, msg('someone@example.test'))).rejects.toBeInstanceOf(RetryableError);
    away.close();
  });
});
