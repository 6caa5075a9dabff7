import type { ErrorCode } from "./shared/error-codes";
import { type FieldProblem, RULE_MESSAGES, type RuleCode } from "./shared/validation";

/** A start that cannot go on, for a reason its one-line message explains (shown without a stack). */
export class StartupError extends Error {}

/** A refusal the client should see: answered as `{"error": code}` with `status` (400 unless said otherwise). */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status = 400,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = "AppError";
  }
}

/**
 * Invalid input for one field, answered as 400 `{"error": "VALIDATION", field, rule, message}`: `rule` is the code
 * clients translate, `message` the rule's product wording (the rule's own unless a field words it differently).
 */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    readonly rule: RuleCode,
    message: string = RULE_MESSAGES[rule],
  ) {
    super(message);
    this.name = "FieldError";
  }

  /** The error for a problem found by `checkField`. */
  static of(field: string, problem: FieldProblem): FieldError {
    return new FieldError(field, problem.rule, problem.message);
  }
}

export const notFound = (code: ErrorCode) => new AppError(code, 404);
export const forbidden = () => new AppError("ERR_NO_PERMISSION", 403);
