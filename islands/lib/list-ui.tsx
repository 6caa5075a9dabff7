import type { ReactNode } from "react";
import { useT } from "./i18n-context";

type Variant = "agent" | "admin";

/** A list's search box (the caller debounces; see use-paged-list). */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <input
      className="search"
      type="search"
      aria-label={label}
      placeholder={label}
      value={value}
      maxLength={100}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * A list's empty / failed / loading line: table rows spanning `colSpan` columns when given, paragraphs otherwise.
 * The empty text is `<variant>.common.empty`.
 */
export function ListStatus({
  loading,
  empty,
  failed,
  colSpan,
  variant = "agent",
}: {
  loading: boolean;
  empty: boolean;
  failed?: boolean;
  colSpan?: number;
  variant?: Variant;
}) {
  const t = useT();
  const line = (text: string) =>
    colSpan ? (
      <tr>
        <td colSpan={colSpan} className="list-empty">
          {text}
        </td>
      </tr>
    ) : (
      <p className="list-empty">{text}</p>
    );
  return (
    <>
      {!loading && empty && line(failed ? t("errors.generic") : t(`${variant}.common.empty`))}
      {loading && line(t("app.loading"))}
    </>
  );
}

/** A row's Edit and Delete buttons (`editLabel` / `deleteLabel` name the row for screen readers); admin screens wrap them in `.admin-row-actions`. */
export function RowActions({
  onEdit,
  onDelete,
  editLabel,
  deleteLabel,
  variant = "agent",
}: {
  onEdit: () => void;
  onDelete?: () => void;
  editLabel: string;
  deleteLabel: string;
  variant?: Variant;
}) {
  const t = useT();
  const buttons = (
    <>
      <button type="button" className="button small" onClick={onEdit} aria-label={editLabel}>
        {t(`${variant}.common.edit`)}
      </button>
      {onDelete && (
        <button type="button" className="button small danger" onClick={onDelete} aria-label={deleteLabel}>
          {t(`${variant}.common.delete`)}
        </button>
      )}
    </>
  );
  return variant === "admin" ? <div className="admin-row-actions">{buttons}</div> : buttons;
}

/** An admin page's heading row: the title and its toolbar (search, add, …). */
export function AdminHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="admin-header">
      <h1 className="page-title">{title}</h1>
      <div className="admin-toolbar">{children}</div>
    </div>
  );
}
