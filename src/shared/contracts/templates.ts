/** An approved message template of a Cloud API account, as the composer offers it. */
export interface MessageTemplate {
  name: string;
  language: string;
  category: string;
  /** The body's text with its placeholders `{{1}}`, `{{2}}`… */
  body: string;
  /** How many body placeholders it has. */
  variables: number;
}

/** A template to send: its name and language, and the text of each body placeholder in order. */
export interface TemplateMessage {
  name: string;
  language: string;
  parameters: string[];
}
