import { FieldError } from "../errors";
import { isWithinDateBounds } from "../shared/date-bounds";

/** The instant an ISO text in `field` names, in epoch ms; anything else (or out of bounds) is 400 on `field`. */
export function instantField(field: string, value: string): number {
  const at = Date.parse(value);
  if (!isWithinDateBounds(at)) throw new FieldError(field, "date");
  return at;
}
