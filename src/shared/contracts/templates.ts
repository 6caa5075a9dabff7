/** What a template's header holds: a text (with at most one placeholder) or a media file linked at send time. */
export type TemplateHeaderType = "text" | "image" | "video" | "document";

/** An approved message template of a Cloud API account, as the composer offers it. */
export interface MessageTemplate {
  name: string;
  language: string;
  category: string;
  /** The body's text with its placeholders `{{1}}`, `{{2}}`… */
  body: string;
  /** How many body placeholders it has. */
  variables: number;
  /** A header that takes a value when sent: a text one with a placeholder, or a media one (the file's link). */
  header?: { type: TemplateHeaderType; text?: string };
  /** The URL buttons whose link ends in a placeholder, in the buttons' order, with their position among all buttons. */
  urlButtons?: { index: number; text: string; url: string }[];
}

/**
 * A template to send: its name and language, the text of each body placeholder in order and, for templates that
 * have them, the header's value (its placeholder's text, or the link of its image, video or document) and the
 * value of each URL button's placeholder, in the buttons' order.
 */
export interface TemplateMessage {
  name: string;
  language: string;
  parameters: string[];
  header?: string;
  buttons?: string[];
}

/** A template as it is sent, once checked against the approved one: what its header is and where its URL buttons are. */
export interface CheckedTemplate extends TemplateMessage {
  headerType?: TemplateHeaderType;
  buttonIndexes?: number[];
}
