/** The text a template send shows in the chat: its body with the placeholders `{{1}}`, `{{2}}`… filled in order. */
export function renderTemplate(body: string, parameters: readonly string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}
