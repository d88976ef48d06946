/** Radix dialogs: a confirmation before destructive actions (and its delete form), and a modal for a shown-once key. */
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "./button";

const panel =
  "fixed left-1/2 top-1/2 w-[min(92vw,36rem)] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-800 dark:bg-zinc-950";
const overlay = "fixed inset-0 bg-black/50";

/**
 * Asks before a destructive action: a button labelled `action` (accessible name "`action`
 * `subject`", e.g. "Revoke production") opens the dialog; `onConfirm` runs on its confirm button.
 */
export function Confirm(props: {
  action: string;
  subject: string;
  variant?: "secondary" | "ghost";
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button variant={props.variant ?? "secondary"} aria-label={`${props.action} ${props.subject}`}>
          {props.action}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={panel}>
          <AlertDialog.Title className="text-lg font-semibold">{props.title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">{props.description}</AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="danger" onClick={props.onConfirm}>
                {props.confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * `Confirm` for deleting `subject`: a ghost "Delete" button, the question "Delete “`subject`”?"
 * (or `title`) and a confirm button "Delete `what`" (e.g. "Delete key").
 */
export function ConfirmDelete(props: { subject: string; what: string; title?: string; description: ReactNode; onConfirm: () => void }) {
  return (
    <Confirm
      action="Delete"
      subject={props.subject}
      variant="ghost"
      title={props.title ?? `Delete “${props.subject}”?`}
      description={props.description}
      confirmLabel={`Delete ${props.what}`}
      onConfirm={props.onConfirm}
    />
  );
}

/** A controlled modal dialog. */
export function Modal(props: { open: boolean; onClose: () => void; title: string; description?: string; children: ReactNode }) {
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlay} />
        <Dialog.Content className={panel}>
          <Dialog.Title className="text-lg font-semibold">{props.title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{props.description}</Dialog.Description>
          <div className="mt-4">{props.children}</div>
          <div className="mt-5 flex justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary">Done</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
