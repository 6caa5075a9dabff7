import type { Availability } from "../../src/shared/contracts/users";
import { useT } from "./i18n-context";

/** The coloured dot of an availability (green online, amber away, grey offline); its label is said beside it. */
export function AvailabilityDot({ availability }: { availability: Availability }) {
  return <span className={`availability-dot availability-${availability}`} aria-hidden="true" />;
}

/** The dot and the availability's name. */
export function AvailabilityLabel({ availability }: { availability: Availability }) {
  const t = useT();
  return (
    <span className="availability" data-availability={availability}>
      <AvailabilityDot availability={availability} />
      {t(`availability.${availability}`)}
    </span>
  );
}
