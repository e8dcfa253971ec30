import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { DAY_MS } from '../../common/dates';
import { applySchema, newCodeSchema, payoutAccountSchema } from '../../common/affiliate-schemas';
import type { AppEnv } from '../http/app-env';
import { requireUser } from '../http/current-user';
import { ok } from '../../common/envelope';
import { requestMeta } from '../http/request-meta';
import { readBody, readQuery } from '../http/validate';
import { recordClick } from '../modules/affiliate/attribution';
import { affiliatePayload, codeJson, codesOf, settlementJson } from '../modules/affiliate/payload';
import { listPayouts, requestPayout } from '../modules/affiliate/payouts';
import {
  addCode,
  applyAsAffiliate,
  codeAvailable,
  findAffiliate,
  ownAffiliate,
  setPayoutAccount,
} from '../modules/affiliate/program';
import { RECORD_TYPES, commissionSummary, recordList } from '../modules/affiliate/reports';

const affiliate = (c: Context<AppEnv>) => c.get('deps').services.affiliate;

const recordQuery = z.object({
  type: z.enum(RECORD_TYPES).default('commission'),
  code: z.string().trim().toUpperCase().max(32).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** /common-api/v1/distribution: the affiliate programme (the fixed paths say "distribution": docs/glossary.md). */
export function affiliateApi() {
  const api = new Hono<AppEnv>();
  api.post('/', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, applySchema);
    const created = await applyAsAffiliate(affiliate(c), user, body);
    return c.json(ok(await affiliatePayload(affiliate(c), created)));
  });
  // Not being an affiliate is an answer, not an error: every signed-in page may ask (data null).
  api.get('/show', async (c) => {
    const user = await requireUser(c);
    const row = await findAffiliate(affiliate(c), user);
    return c.json(ok(row ? await affiliatePayload(affiliate(c), row) : null));
  });
  api.get('/check-code', async (c) => {
    await requireUser(c);
    const { code } = readQuery(c, z.object({ code: z.string().max(64) }));
    return c.json(ok(await codeAvailable(affiliate(c), code)));
  });
  api.get('/get-code-list', async (c) => {
    const user = await requireUser(c);
    await ownAffiliate(affiliate(c), user);
    return c.json(ok({ codes: await codesOf(affiliate(c), user.id) }));
  });
  api.post('/code', async (c) => {
    const user = await requireUser(c);
    const row = await addCode(affiliate(c), user, await readBody(c, newCodeSchema));
    return c.json(ok(codeJson(row)));
  });
  api.get('/record-list', async (c) => {
    const user = await requireUser(c);
    await ownAffiliate(affiliate(c), user);
    const q = readQuery(c, recordQuery);
    const result = await recordList(affiliate(c), user.id, {
      ...q,
      from: q.from ? new Date(`${q.from}T00:00:00Z`) : undefined,
      to: q.to ? new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS) : undefined,
    });
    return c.json(ok({ ...result, page: q.page, page_size: q.page_size }));
  });
  api.get('/commission', async (c) => {
    const user = await requireUser(c);
    await ownAffiliate(affiliate(c), user);
    return c.json(ok(await commissionSummary(affiliate(c), user.id)));
  });
  api.get('/settle-list', async (c) => {
    const user = await requireUser(c);
    await ownAffiliate(affiliate(c), user);
    const rows = await listPayouts(affiliate(c).db, user.id);
    return c.json(ok({ settlements: rows.map(settlementJson) }));
  });
  api.post('/settle', async (c) => {
    const user = await requireUser(c);
    const { currency } = await readBody(
      c,
      z.object({
        currency: z
          .string()
          .regex(/^[a-zA-Z]{3}$/)
          .optional(),
      }),
    );
    const s = await requestPayout(affiliate(c), user, currency);
    return c.json(ok({ id: s.id, amount: s.amount, currency: s.currency, status: s.status }));
  });
  api.post('/update-info', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, payoutAccountSchema);
    const a = await setPayoutAccount(affiliate(c), user, body.paypal_email);
    return c.json(ok(await affiliatePayload(affiliate(c), a)));
  });
  // Public: sent by the page when a visitor arrives with ?ref (docs/product.md#referrals).
  api.post('/click', async (c) => {
    const { distribution_code } = await readBody(c, z.object({ distribution_code: z.string().max(64) }));
    const { env } = c.get('deps');
    const meta = requestMeta(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
    const counted = await recordClick(affiliate(c), {
      code: distribution_code,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return c.json(ok({ counted }));
  });
  return api;
}
