import type { BulkRecipient } from "./contracts/bulk";
import { parseCsv } from "./csv";

/** One recipient as the template and the data make it, before a connection is picked. */
export type BulkPreview = Pick<BulkRecipient, "phone" | "message">;

/** The phone gets the 55 prefix unless it has more than 11 digits and already starts with 55. */
export function withCountryCode(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  return digits.length > 11 && digits.startsWith("55") ? digits : `55${digits}`;
}

/** Fills `{column}` with the row's value of that header column; an unknown column stays as written. */
export function fillTemplate(template: string, header: string[], row: string[]): string {
  return template.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const at = header.findIndex((h) => h.trim().toLowerCase() === name.trim().toLowerCase());
    return at >= 0 ? (row[at] ?? "") : whole;
  });
}

/**
 * One message per data line: the first line names the columns, the first column is the phone. Lines without a
 * phone are left out.
 */
export function buildBulk(template: string, csv: string): BulkPreview[] {
  const [header, ...rows] = parseCsv(csv);
  if (!header) return [];
  return rows
    .filter((row) => (row[0] ?? "").replace(/\D/g, "") !== "")
    .map((row) => ({ phone: withCountryCode(row[0]!), message: fillTemplate(template, header, row) }));
}
