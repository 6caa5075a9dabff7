import type { BulkRecipient } from "./contracts/bulk";
import type { TemplateMessage } from "./contracts/templates";
import { parseCsv } from "./csv";

/** One recipient as the template and the data make it, before a connection is picked. */
export type BulkPreview = Pick<BulkRecipient, "phone" | "message" | "template">;

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
 * phone are left out. A Cloud API template for customers outside the 24-hour window gets its values filled the
 * same way.
 */
export function buildBulk(template: string, csv: string, cloudTemplate?: TemplateMessage | null): BulkPreview[] {
  const [header, ...rows] = parseCsv(csv);
  if (!header) return [];
  return rows
    .filter((row) => (row[0] ?? "").replace(/\D/g, "") !== "")
    .map((row) => {
      const fill = (text: string) => fillTemplate(text, header, row);
      return {
        phone: withCountryCode(row[0]!),
        message: fill(template),
        ...(cloudTemplate ? { template: filledTemplate(cloudTemplate, fill) } : {}),
      };
    });
}

function filledTemplate(template: TemplateMessage, fill: (text: string) => string): TemplateMessage {
  return {
    ...template,
    parameters: template.parameters.map(fill),
    ...(template.header !== undefined ? { header: fill(template.header) } : {}),
    ...(template.buttons ? { buttons: template.buttons.map(fill) } : {}),
  };
}
