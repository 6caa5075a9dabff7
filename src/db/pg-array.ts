/** A PostgreSQL array literal of `values`, for a parameter cast to `int[]` or `text[]`. */
export function pgArray(values: readonly (number | string)[]): string {
  return `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}
