/** Shared UI primitives (shadcn-style, Tailwind): import from "components/ui". */
export { Alert } from "./alert";
export { Button, type ButtonVariant } from "./button";
export { Card } from "./card";
export { cn } from "./cn";
export { CodeBlock, CopyButton } from "./code-block";
export { Confirm, ConfirmDelete, Modal } from "./dialogs";
export { Field } from "./field";
export { CONTROL, FormRow } from "./form-row";
export { timeZone, when } from "./format";
export { NotFound, PageTitle, QueryStatus } from "./page";
export { Select, type SelectOption } from "./select";
export { DataTable, type DataTableProps, RowActions, RowButton, TableHead } from "./table";
