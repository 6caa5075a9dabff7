import type { ErrorCode } from "./shared/error-codes";

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

/** Invalid input for one field, answered as 400 `{"error": message, "field": field}` with the spec's message. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "FieldError";
  }
}

export const notFound = (code: ErrorCode) => new AppError(code, 404);
export const forbidden = () => new AppError("ERR_NO_PERMISSION", 403);
