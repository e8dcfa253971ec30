// A local HTTP server playing the Stripe API endpoints ClipScribe calls (customers, Checkout and
// Portal sessions, reading subscriptions, invoices and prices), so stripe-node runs for real
// against it (STRIPE_API_BASE). It also builds objects shaped like the current API version and
// signs webhook events the way Stripe does.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | null;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export interface SubscriptionInput {
  id?: string;
  customer: string;
  price: string;
  status?: string;
  periodStart: number;
  periodEnd: number;
  metadata?: Record<string, string>;
  cancelAtPeriodEnd?: boolean;
  quantity?: number;
}

export function subscriptionObject(s: SubscriptionInput): Obj {
  const id = s.id ?? rid('sub');
  return {
    id,
    object: 'subscription',
    customer: s.customer,
    status: s.status ?? 'active',
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    metadata: s.metadata ?? {},
    items: {
      object: 'list',
      data: [
        {
          id: rid('si'),
          object: 'subscription_item',
          price: { id: s.price, object: 'price' },
          quantity: s.quantity ?? 1,
          current_period_start: s.periodStart,
          current_period_end: s.periodEnd,
        },
      ],
    },
  };
}

export interface InvoiceInput {
  id?: string;
  customer: string;
  subscription: string;
  price: string;
  amountPaid: number;
  tax?: number;
  currency?: string;
  status?: 'paid' | 'open';
  periodStart: number;
  periodEnd: number;
  paidAt?: number;
  paymentIntent?: string;
  metadata?: Record<string, string>;
}

export function invoiceObject(i: InvoiceInput): Obj {
  const status = i.status ?? 'paid';
  return {
    id: i.id ?? rid('in'),
    object: 'invoice',
    customer: i.customer,
    status,
    amount_paid: status === 'paid' ? i.amountPaid : 0,
    currency: i.currency ?? 'usd',
    total_taxes: i.tax ? [{ amount: i.tax }] : [],
    period_start: i.periodStart,
    period_end: i.periodEnd,
    status_transitions: { paid_at: status === 'paid' ? (i.paidAt ?? i.periodStart) : null },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: i.subscription, metadata: i.metadata ?? {} },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: rid('il'),
          object: 'line_item',
          amount: i.amountPaid,
          period: { start: i.periodStart, end: i.periodEnd },
          pricing: { type: 'price_details', price_details: { price: i.price } },
        },
      ],
    },
    payments: {
      object: 'list',
      data: [
        {
          object: 'invoice_payment',
          status,
          payment: { type: 'payment_intent', payment_intent: i.paymentIntent ?? rid('pi') },
        },
      ],
    },
  };
}

export function chargeObject(c: {
  customer: string;
  paymentIntent: string;
  amount: number;
  amountRefunded: number;
  currency?: string;
}): Obj {
  return {
    id: rid('ch'),
    object: 'charge',
    customer: c.customer,
    payment_intent: c.paymentIntent,
    amount: c.amount,
    amount_refunded: c.amountRefunded,
    refunded: c.amountRefunded >= c.amount,
    currency: c.currency ?? 'usd',
  };
}

/** A webhook delivery: the JSON body and its Stripe-Signature header. */
export function signedEvent(
  secret: string,
  type: string,
  object: Obj,
  opts: { id?: string; created?: number } = {},
): { body: string; signature: string; id: string } {
  const id = opts.id ?? rid('evt');
  const body = JSON.stringify({
    id,
    object: 'event',
    type,
    created: opts.created ?? Math.floor(Date.now() / 1000),
    api_version: '2026-10-28.endive',
    livemode: false,
    data: { object },
  });
  const signature = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload: body, secret });
  return { body, signature, id };
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  prices: Map<string, Obj>;
  /** Answers every call with a 500 until set back (Stripe outage). */
  failing: boolean;
  /** A recurring price Stripe would return for `id`. */
  addPrice(id: string, amount: number, currency?: string): void;
  /** The server environment that points stripe-node here, with the webhook secret and plan prices. */
  env(webhookSecret: string, prices: Record<string, string>): Record<string, string>;
  /** What Stripe does when a Checkout session is paid: creates the subscription and its invoice. */
  completeCheckout(sessionId: string, now?: number): { session: Obj; subscription: Obj; invoice: Obj };
  close(): Promise<void>;
}

function parseParams(raw: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw).entries());
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj & { params: Record<string, string> }>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const idempotent = new Map<string, Obj>();
  let base = '';

  const notFound = (what: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });

  function route(method: string, path: string, p: Record<string, string>): { status: number; body: unknown } {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const id = rid('cus');
      const customer = {
        id,
        object: 'customer',
        email: p.email,
        name: p.name ?? null,
        metadata: { user_id: p['metadata[user_id]'] },
      };
      customers.set(id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (!p.customer || !customers.has(p.customer)) return notFound(`customer: '${p.customer}'`);
      if (!p['line_items[0][price]']) {
        return {
          status: 400,
          body: { error: { type: 'invalid_request_error', message: 'Missing line_items' } },
        };
      }
      const id = rid('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        mode: p.mode,
        customer: p.customer,
        client_reference_id: p.client_reference_id ?? null,
        metadata: Object.fromEntries(
          Object.entries(p)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice(9, -1), v]),
        ),
        url: `${base}/checkout/${id}`,
        success_url: p.success_url,
        subscription: null,
        params: p,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!p.customer || !customers.has(p.customer)) return notFound(`customer: '${p.customer}'`);
      const id = rid('bps');
      return {
        status: 200,
        body: {
          id,
          object: 'billing_portal.session',
          customer: p.customer,
          return_url: p.return_url,
          url: `${base}/portal/${id}`,
        },
      };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      return subscriptions.has(m[1]!)
        ? { status: 200, body: subscriptions.get(m[1]!) }
        : notFound(`subscription: '${m[1]}'`);
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      // An update of the plan item's quantity (seats); Stripe prorates, the fake only records it.
      const sub = subscriptions.get(m[1]!);
      if (!sub) return notFound(`subscription: '${m[1]}'`);
      const items = (sub.items as { data: Obj[] }).data;
      const item = items.find((i) => i.id === p['items[0][id]']);
      if (!item) return notFound(`subscription item: '${p['items[0][id]']}'`);
      const quantity = Number(p['items[0][quantity]']);
      if (!Number.isInteger(quantity) || quantity < 1) {
        return {
          status: 400,
          body: { error: { type: 'invalid_request_error', message: 'Invalid quantity' } },
        };
      }
      const updated = {
        ...sub,
        items: { ...(sub.items as Obj), data: items.map((i) => (i === item ? { ...i, quantity } : i)) },
      };
      subscriptions.set(m[1]!, updated);
      return { status: 200, body: updated };
    }
    if (method === 'DELETE' && (m = path.match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      const sub = subscriptions.get(m[1]!);
      if (!sub) return notFound(`subscription: '${m[1]}'`);
      const canceled = { ...sub, status: 'canceled' };
      subscriptions.set(m[1]!, canceled);
      return { status: 200, body: canceled };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/invoices\/([\w-]+)$/))) {
      return invoices.has(m[1]!)
        ? { status: 200, body: invoices.get(m[1]!) }
        : notFound(`invoice: '${m[1]}'`);
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/prices\/([\w-]+)$/))) {
      return prices.has(m[1]!) ? { status: 200, body: prices.get(m[1]!) } : notFound(`price: '${m[1]}'`);
    }
    if (method === 'GET' && (m = path.match(/^\/(checkout|portal)\/([\w-]+)$/))) {
      return {
        status: 200,
        body: `<!doctype html><title>Stripe (fake)</title><h1>Fake ${m[1]} ${m[2]}</h1>`,
      };
    }
    return notFound(`route ${method} ${path}`);
  }

  const fake: FakeStripe = {
    url: '',
    requests,
    subscriptions,
    invoices,
    prices,
    failing: false,
    addPrice(id, amount, currency = 'usd') {
      prices.set(id, { id, object: 'price', unit_amount: amount, currency });
    },
    env(webhookSecret, planPrices) {
      return {
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: base,
        ...planPrices,
      };
    },
    completeCheckout(sessionId, now = Math.floor(Date.now() / 1000)) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const price = session.params['line_items[0][price]']!;
      const metadata = Object.fromEntries(
        Object.entries(session.params)
          .filter(([k]) => k.startsWith('subscription_data[metadata]['))
          .map(([k, v]) => [k.slice('subscription_data[metadata]['.length, -1), v]),
      );
      const periodEnd = now + 30 * 24 * 3600;
      const quantity = Number(session.params['line_items[0][quantity]'] ?? 1);
      const subscription = subscriptionObject({
        customer: String(session.customer),
        price,
        quantity,
        periodStart: now,
        periodEnd,
        metadata,
      });
      subscriptions.set(String(subscription.id), subscription);
      const amount = Number(prices.get(price)?.unit_amount ?? 900) * quantity;
      const invoice = invoiceObject({
        customer: String(session.customer),
        subscription: String(subscription.id),
        price,
        amountPaid: amount,
        periodStart: now,
        periodEnd,
        paidAt: now,
        metadata,
      });
      invoices.set(String(invoice.id), invoice);
      session.subscription = subscription.id;
      const { params: _params, ...plain } = session;
      return { session: { ...plain, status: 'complete', payment_status: 'paid' }, subscription, invoice };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const raw = req.method === 'GET' ? url.search.slice(1) : await readBody(req);
      const params = parseParams(raw);
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      requests.push({ method: req.method ?? 'GET', path: url.pathname, params, idempotencyKey: key });
      let out: { status: number; body: unknown };
      if (fake.failing) {
        out = { status: 500, body: { error: { type: 'api_error', message: 'Stripe is down (fake)' } } };
      } else if (key && idempotent.has(key)) {
        out = { status: 200, body: idempotent.get(key) };
      } else {
        out = route(req.method ?? 'GET', url.pathname, params);
        if (key && out.status === 200) idempotent.set(key, out.body as Obj);
      }
      const html = typeof out.body === 'string';
      const body = html
        ? (out.body as string)
        : JSON.stringify(out.body, (k, v) => (k === 'params' ? undefined : v));
      res.writeHead(out.status, {
        'content-type': html ? 'text/html; charset=utf-8' : 'application/json',
        'request-id': rid('req'),
      });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = base;
  return fake;
}
