/** A PostgreSQL array literal of `values` (null as NULL), for a parameter cast to `int[]` or `text[]`. */
export function pgArray(values: readonly (number | string | null)[]): string {
  return `{${values.map(element).join(",")}}`;
}

function element(value: number | string | null): string {
  if (value === null) return "NULL";
  return typeof value === "number" ? String(value) : `"${value.replace(/["\\]/g, "\\$&")}"`;
}
