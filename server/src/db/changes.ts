import type { DeleteResult, UpdateResult } from 'kysely';

/** An update or delete statement without `returning`, ready to run. */
interface ChangeStatement {
  executeTakeFirst(): Promise<UpdateResult | DeleteResult>;
}

/** How many rows the statement updated or deleted. */
export async function rowsChanged(statement: ChangeStatement): Promise<number> {
  const result = await statement.executeTakeFirst();
  return Number('numDeletedRows' in result ? result.numDeletedRows : result.numUpdatedRows);
}

/** Whether the statement updated or deleted any row. */
export async function changedAny(statement: ChangeStatement): Promise<boolean> {
  return (await rowsChanged(statement)) > 0;
}
