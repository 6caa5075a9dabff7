import { useEffect, useState } from "react";
import { checkField, FORM_RULES, RULES } from "../../src/shared/validation";
import { api, callApi } from "../lib/api";
import { useFormSave } from "../lib/crud";
import { errorText } from "../lib/errors";
import { useFieldChecks } from "../lib/field-checks";
import { Checkbox, ColorField, Input, ruleError } from "../lib/form";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import { NO_SLA, QueueSlaFields, slaOfQueue } from "./QueueSlaFields";
import type { ChatbotOption, NewQueue, Queue } from "../../src/shared/contracts";

type Path = number[];

const blank = (): ChatbotOption => ({ name: "", greetingMessage: "", isAgent: false, userId: null, options: [] });

function normalise(options: Partial<ChatbotOption>[] | undefined): ChatbotOption[] {
  return (options ?? []).map((o) => ({
    id: o.id,
    name: o.name ?? "",
    greetingMessage: o.greetingMessage ?? "",
    isAgent: !!o.isAgent,
    userId: o.userId ?? null,
    options: normalise(o.options),
  }));
}

/** A copy of the tree with the list at `path` (the root list for []) passed through `change`. */
function editList(
  tree: ChatbotOption[],
  path: Path,
  change: (list: ChatbotOption[]) => ChatbotOption[],
): ChatbotOption[] {
  if (!path.length) return change(tree);
  const [head, ...rest] = path;
  return tree.map((o, i) => (i === head ? { ...o, options: editList(o.options, rest, change) } : o));
}

function firstInvalid(tree: ChatbotOption[]): boolean {
  return tree.some((o) => checkName(o.name) || firstInvalid(o.options));
}
const checkName = (name: string) => checkField(RULES.chatbotName, name) !== null;

/** Add/edit queue: name, colour (text + picker), greeting and the nested chatbot options. */
export function QueueModal({
  queueId,
  onClose,
  onSaved,
}: {
  queueId: number | null;
  onClose: () => void;
  onSaved: (q: Queue) => void;
}) {
  const t = useT();
  const [form, setForm] = useState({ name: "", color: "#1f7a5c", greetingMessage: "" });
  const [tree, setTree] = useState<ChatbotOption[]>([]);
  const [sla, setSla] = useState(NO_SLA);
  const [users, setUsers] = useState<{ id: number; name: string }[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const { busy, fieldError, run } = useFormSave(false, undefined, ["name", "color"]);
  const checks = useFieldChecks(FORM_RULES.queue, { name: form.name, color: form.color });
  const edit = (key: "name" | "color") => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    checks.touch(key);
  };
  const [loaded, setLoaded] = useState(queueId === null);

  useEffect(() => {
    api<{ users: { id: number; name: string }[] }>("/users")
      .then((r) => setUsers(r.users))
      .catch(() => setUsers([]));
    if (queueId === null) return;
    api<Queue & { chatbots: ChatbotOption[] }>(`/queue/${queueId}`)
      .then((q) => {
        setForm({ name: q.name, color: q.color, greetingMessage: q.greetingMessage ?? "" });
        setTree(normalise(q.chatbots));
        setSla(slaOfQueue(q));
        setLoaded(true);
      })
      .catch((error) => toast("error", errorText(t, error)));
  }, [queueId, t]);

  async function save() {
    const valid = checks.checkAll();
    setSubmitted(true);
    if (!valid || firstInvalid(tree)) return;
    await run(async () => {
      const body: NewQueue = {
        name: form.name,
        color: form.color,
        greetingMessage: form.greetingMessage,
        chatbots: tree,
        ...sla,
      };
      const saved = queueId
        ? await callApi("PUT /queue/:id", { params: { id: queueId }, body })
        : await callApi("POST /queue", { body });
      toast("success", t("admin.queues.saved"));
      onSaved(saved);
    });
  }

  return (
    <Modal
      variant="admin"
      title={t(queueId ? "admin.queues.editTitle" : "admin.queues.addTitle")}
      onClose={onClose}
      onSubmit={loaded ? save : undefined}
      busy={busy}
      wide
    >
      <div className="admin-grid">
        <Input
          label={t("admin.common.name")}
          value={form.name}
          onChange={edit("name")}
          onBlur={() => checks.touch("name")}
          error={checks.error("name", fieldError)}
          maxLength={50}
        />
        <ColorField value={form.color} onChange={edit("color")} error={checks.error("color", fieldError)} />
      </div>
      <Input
        label={t("admin.queues.greeting")}
        value={form.greetingMessage}
        onChange={(greetingMessage) => setForm({ ...form, greetingMessage })}
        multiline
        maxLength={30000}
      />
      <QueueSlaFields value={sla} onChange={setSla} />
      <fieldset className="admin-checks">
        <legend>{t("admin.queues.options")}</legend>
        <OptionList list={tree} path={[]} setTree={setTree} users={users} showErrors={submitted} />
      </fieldset>
    </Modal>
  );
}

function OptionList({
  list,
  path,
  setTree,
  users,
  showErrors,
}: {
  list: ChatbotOption[];
  path: Path;
  setTree: (fn: (tree: ChatbotOption[]) => ChatbotOption[]) => void;
  users: { id: number; name: string }[];
  showErrors: boolean;
}) {
  const t = useT();
  const update = (i: number, changes: Partial<ChatbotOption>) =>
    setTree((tree) => editList(tree, path, (l) => l.map((o, j) => (j === i ? { ...o, ...changes } : o))));
  return (
    <div className="admin-options">
      {list.map((o, i) => (
        <div key={o.id ?? `new-${path.join("-")}-${i}`} className="admin-option" data-depth={path.length}>
          <div className="admin-option-row">
            <Input
              label={t("admin.queues.optionName", { n: [...path, i].map((n) => n + 1).join(".") })}
              value={o.name}
              onChange={(name) => update(i, { name })}
              error={showErrors ? ruleError(t, RULES.chatbotName, o.name) : null}
              maxLength={100}
            />
            <button
              type="button"
              className="button small danger"
              onClick={() => setTree((tree) => editList(tree, path, (l) => l.filter((_, j) => j !== i)))}
            >
              {t("admin.queues.removeOption")}
            </button>
          </div>
          <Input
            label={t("admin.queues.optionGreeting")}
            value={o.greetingMessage}
            onChange={(greetingMessage) => update(i, { greetingMessage })}
            multiline
            maxLength={30000}
          />
          <div className="admin-option-row">
            <Checkbox
              label={t("admin.queues.attendant")}
              checked={o.isAgent}
              onChange={(isAgent) => update(i, { isAgent, userId: isAgent ? o.userId : null })}
            />
            {o.isAgent && (
              <select
                aria-label={t("admin.queues.attendantUser")}
                value={o.userId ?? ""}
                onChange={(e) => update(i, { userId: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">{t("admin.queues.anyUser")}</option>
                {users.map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name}
                  </option>
                ))}
              </select>
            )}
          </div>
          <OptionList list={o.options} path={[...path, i]} setTree={setTree} users={users} showErrors={showErrors} />
        </div>
      ))}
      <button
        type="button"
        className="button small"
        onClick={() => setTree((tree) => editList(tree, path, (l) => [...l, blank()]))}
      >
        {t(path.length ? "admin.queues.addSubOption" : "admin.queues.addOption")}
      </button>
    </div>
  );
}
