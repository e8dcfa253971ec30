import type { Db, Tx } from '../../db/client';
import type { Logger } from '../../logger';
import type { BillingConfig } from './config';
import type { Order } from '../../db/schema';

export interface BillingDeps {
  db: Db;
  config: BillingConfig;
  logger: Logger;
  now: () => Date;
  /** Runs in the transaction that records a payment or refund (the affiliate programme's hook). */
  onOrder?: (tx: Tx, order: Order) => Promise<void>;
}
