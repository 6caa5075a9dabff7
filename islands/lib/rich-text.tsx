import type { ReactNode } from "react";

/**
 * WhatsApp-style `*bold*` and `~strike~` as React elements. Everything else stays plain text (React escapes it),
 * so message bodies never reach innerHTML.
 */
export function richText(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*([^*\n]+)\*|~([^~\n]+)~/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let key = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(m[1] != null ? <strong key={key++}>{m[1]}</strong> : <s key={key++}>{m[2]}</s>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
