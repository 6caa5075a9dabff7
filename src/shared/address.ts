/**
 * How a person in a 1:1 chat is addressed between the channel layer and the inbox: the digits of their phone
 * number, or `lid:<digits>` while WhatsApp shows them only by their LID. A LID is a private id, not a phone
 * number: it is never stored, shown or dialled as one.
 */
export const LID_PREFIX = "lid:";

/** The address of a person known only by their LID. */
export function lidAddress(lid: string): string {
  return LID_PREFIX + lid;
}

/** The LID digits of a `lid:` address; undefined for a phone number or a group id. */
export function lidOfAddress(address: string): string | undefined {
  return address.startsWith(LID_PREFIX) ? address.slice(LID_PREFIX.length) : undefined;
}

/** Where replies to a contact go: its phone number when known, else its LID. */
export function contactAddress(contact: { number: string | null; lid: string | null }): string {
  if (contact.number) return contact.number;
  return contact.lid ? lidAddress(contact.lid) : "";
}
