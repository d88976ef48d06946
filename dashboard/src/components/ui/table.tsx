/**
 * Pieces of the dashboard's data tables: the table itself (with its loading and empty states),
 * its header row, and the cell holding a row's action buttons and those buttons.
 */
import type { ReactNode } from "react";
import { Button } from "./button";

/** The header row of a data table: one column header per label. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-b border-zinc-200 dark:border-zinc-800">
      <tr>
        {columns.map((h) => (
          <th key={h} scope="col" className="py-2 pr-3 font-medium">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Props of `DataTable`. */
export interface DataTableProps<T> {
  /** Column header labels, in order. */
  columns: readonly string[];
  items: readonly T[];
  /** Renders one item's `<tr>` (keyed). */
  row: (item: T) => ReactNode;
  /** The query has no data yet: "Loading…" instead of the table. */
  pending?: boolean;
  /** Shown instead of the table when `items` is empty (e.g. "No keys yet."); without it the table shows with no rows. */
  empty?: string;
}

/** A data table that scrolls sideways when narrower than its columns; "Loading…" while `pending`, `empty` without items. */
export function DataTable<T>({ columns, items, row, pending = false, empty }: DataTableProps<T>) {
  if (pending) return <p>Loading…</p>;
  if (empty !== undefined && items.length === 0) return <p>{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <TableHead columns={columns} />
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}

/** The last cell of a data table's row: its action buttons, side by side. */
export function RowActions({ children }: { children: ReactNode }) {
  return <td className="flex flex-wrap gap-2 py-2">{children}</td>;
}

/** A button of a row's actions: `label` on screen, `name` for assistive technology (it names the row, e.g. "Rename production"). */
export function RowButton({
  label,
  name,
  variant = "secondary",
  onClick,
  disabled,
}: {
  label: string;
  name: string;
  variant?: "secondary" | "ghost";
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <Button variant={variant} onClick={onClick} disabled={disabled} aria-label={name}>
      {label}
    </Button>
  );
}
