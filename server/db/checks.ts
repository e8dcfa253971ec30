import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `column IN (…)` for a CHECK constraint, from one of the lists in common/record-states.ts. The
 * values are written into the constraint as literals (a constraint takes no parameters); they are
 * our own constants, never input. A null passes, as in SQL: nullable columns stay nullable.
 */
export function oneOf(column: AnyPgColumn, values: readonly (string | number)[]): SQL {
  const literals = values.map((v) =>
    sql.raw(typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`),
  );
  return sql`${column} in (${sql.join(literals, sql`, `)})`;
}
