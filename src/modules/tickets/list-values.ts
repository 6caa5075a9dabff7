import { inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { amongIdList, idList } from "../../db/index-hints";

/**
 * How the values that differ between two lists of one shape (the user, the picked queues, the cursor) enter the
 * list's SQL: as themselves, or as a prepared query's named values (`boundValues`), so the shape's SQL is built once.
 */
export interface ListValues {
  one<T>(name: string, value: T): T;
  among(column: SQLWrapper, name: string, ids: number[]): SQL;
}

export const inlineValues: ListValues = {
  one: (_name, value) => value,
  among: (column, _name, ids) => inArray(column, ids),
};

/** Values as placeholders, gathered in `values` for the prepared query. */
export function boundValues(): ListValues & { values: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  return {
    values,
    one: <T>(name: string, value: T) => {
      values[name] = value;
      return sql.placeholder(name) as unknown as T;
    },
    among: (column, name, ids) => {
      values[name] = idList(ids);
      return amongIdList(column, name);
    },
  };
}
