/** The name and WhatsApp number a contact card (vCard) carries. */
export function vcardOf(body: string): { name: string; number: string } {
  const name = body.match(/^FN:(.*)$/m)?.[1]?.trim() ?? "";
  const number = body.match(/waid=(\d+)/)?.[1] ?? body.match(/^TEL[^:]*:(.*)$/m)?.[1]?.replace(/\D/g, "") ?? "";
  return { name, number };
}

/** The names of every card in a body holding one or more vCards (several contacts shared at once). */
export function vcardNames(body: string): string[] {
  return [...body.matchAll(/^FN:(.*)$/gm)].map((m) => m[1]!.trim()).filter(Boolean);
}
