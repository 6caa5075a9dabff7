import { useEffect, useState } from "react";
import { callApi } from "../lib/api";
import { ContactNumber } from "../lib/contact-number";
import { useT } from "../lib/i18n-context";
import type { Contact } from "./ContactModal";

const MIN_SEARCH = 3;
const DEBOUNCE_MS = 300;

/** Contact autocomplete from 3 characters (GET /contacts/list?name=); `onCreate` adds an "Add contact" option for the typed name. */
export function ContactPicker({
  id,
  label,
  value,
  onPick,
  onCreate,
}: {
  id: string;
  label: string;
  value: { id: number; name: string } | null;
  onPick: (c: Contact | null) => void;
  onCreate?: (name: string) => void;
}) {
  const t = useT();
  const [name, setName] = useState("");
  const [options, setOptions] = useState<Contact[]>([]);
  const [closed, setClosed] = useState(false);
  const query = name.trim();

  useEffect(() => {
    if (value || query.length < MIN_SEARCH) return setOptions([]);
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      callApi("GET /contacts/list", { query: { name: query.toLowerCase() }, signal: ctrl.signal })
        .then((rows) => setOptions(rows.slice(0, 20)))
        .catch(() => setOptions([]));
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [query, value]);

  const showList = !value && !closed && query.length >= MIN_SEARCH;
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          role="combobox"
          aria-expanded={showList}
          aria-controls={`${id}-options`}
          aria-autocomplete="list"
          autoComplete="off"
          value={value ? value.name : name}
          maxLength={100}
          placeholder={t("agent.newTicket.hint")}
          onChange={(e) => {
            onPick(null);
            setClosed(false);
            setName(e.target.value);
          }}
          onKeyDown={(e) => {
            // Escape closes the suggestions first; the dialog around it closes on the next one.
            if (e.key === "Escape" && showList) {
              e.preventDefault();
              setClosed(true);
            }
          }}
        />
      </div>
      {showList && (
        <div id={`${id}-options`} className="option-list" role="listbox">
          {options.map((c) => (
            <button key={c.id} type="button" role="option" aria-selected="false" onClick={() => onPick(c)}>
              <strong>{c.name}</strong> <ContactNumber number={c.number} />
            </button>
          ))}
          {onCreate && (
            <button
              type="button"
              role="option"
              aria-selected="false"
              onClick={() => {
                setClosed(true);
                onCreate(query);
              }}
            >
              {t("agent.newTicket.create", { name: query })}
            </button>
          )}
        </div>
      )}
    </>
  );
}
