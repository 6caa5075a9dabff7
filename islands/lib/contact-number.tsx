import { useT } from "./i18n-context";

/** A contact's phone number, or "number unknown" while WhatsApp shows the person only by their LID. */
export function ContactNumber({ number, link = false }: { number: string | null; link?: boolean }) {
  const t = useT();
  if (!number) return <span className="number-unknown">{t("agent.contacts.numberUnknown")}</span>;
  return link ? <a href={`tel:+${number}`}>{number}</a> : <span>{number}</span>;
}
