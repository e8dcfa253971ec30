import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { BillingConfig } from './config';

export interface BillingDeps {
  db: Db;
  config: BillingConfig;
  logger: Logger;
  now: () => Date;
}
