/** A short-lived signed link to a file (a backup, a message's media), asked for when it is opened. */
export interface SignedLink {
  url: string;
}
