/** Pieces of the dashboard's data tables. */

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
