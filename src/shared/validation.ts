/**
 * The form field rules as data, with their visible messages. The server builds its request schemas
 * from them and the UI forms check the same rules, so both say the same thing.
 */
export interface FieldRule {
  required?: boolean;
  min?: number;
  max?: number;
  email?: boolean;
  /** Only digits (after the caller removed formatting). */
  digits?: boolean;
  pattern?: RegExp;
  messages?: Partial<Record<"required" | "min" | "max" | "email" | "digits" | "pattern", string>>;
}

export const DEFAULT_MESSAGES = {
  required: "Required",
  min: "Too Short!",
  max: "Too Long!",
  email: "Invalid email",
  digits: "Invalid number format. Only numbers is allowed.",
  pattern: "Invalid value",
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The message for `value` under `rule`, or null when it is valid. Strings are checked trimmed. */
export function checkField(rule: FieldRule, value: unknown): string | null {
  const say = (k: keyof typeof DEFAULT_MESSAGES) => rule.messages?.[k] ?? DEFAULT_MESSAGES[k];
  const text = value == null ? "" : String(value);
  const trimmed = text.trim();
  if (trimmed === "") return rule.required ? say("required") : null;
  if (rule.min != null && trimmed.length < rule.min) return say("min");
  if (rule.max != null && text.length > rule.max) return say("max");
  if (rule.email && !EMAIL.test(trimmed)) return say("email");
  if (rule.digits && !/^\d+$/.test(trimmed)) return say("digits");
  if (rule.pattern && !rule.pattern.test(trimmed)) return say("pattern");
  return null;
}

/** Checks every field of a form; returns field → message for the invalid ones. */
export function checkForm<K extends string>(
  rules: Record<K, FieldRule>,
  values: Partial<Record<K, unknown>>,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(rules) as K[]) {
    const message = checkField(rules[key], values[key]);
    if (message) errors[key] = message;
  }
  return errors;
}

const SHORT_MESSAGE = { min: "Mensagem muito curta", required: "Obrigatório" };
/** Colours end up in style attributes: only `#rgb` or `#rrggbb`, never `url(...)` or other CSS. */
const COLOR = { pattern: /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, messages: { pattern: "Invalid colour" } };

export const RULES = {
  userName: { required: true, min: 2, max: 50 },
  email: { required: true, email: true, max: 320 },
  password: { required: true, min: 5, max: 50 },
  loginEmail: { required: true, max: 320 },
  loginPassword: { required: true, max: 200 },
  connectionName: { required: true, min: 2, max: 50 },
  contactName: { required: true, min: 2, max: 50 },
  contactNumber: { required: true, min: 8, max: 50 },
  contactEmail: { email: true, max: 320 },
  quickAnswerShortcut: { required: true, min: 2, max: 15 },
  quickAnswerMessage: { required: true, min: 8, max: 30000 },
  queueName: { required: true, min: 2, max: 50 },
  queueColor: { required: true, min: 3, max: 9, ...COLOR },
  chatbotName: { required: true, min: 4, max: 100 },
  scheduleBody: { required: true, min: 5, max: 30000, messages: SHORT_MESSAGE },
  scheduleSendAt: { required: true, messages: { required: "Obrigatório" } },
  tagName: { required: true, min: 3, max: 50, messages: SHORT_MESSAGE },
  tagColor: { max: 7, ...COLOR },
  bulkField: { required: true },
} as const satisfies Record<string, FieldRule>;
