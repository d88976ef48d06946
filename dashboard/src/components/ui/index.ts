/** Shared UI primitives (shadcn-style, Tailwind): import from "components/ui". */
export { Alert } from "./alert";
export { Button } from "./button";
export { Card } from "./card";
export { cn } from "./cn";
export { CodeBlock } from "./code-block";
export { Confirm, ConfirmDelete, Modal } from "./dialogs";
export { Field } from "./field";
export { CONTROL } from "./form-row";
export { timeZone, when } from "./format";
export { NotFound, PageTitle, QueryStatus } from "./page";
export { Select, type SelectOption } from "./select";
export { DataTable, RowActions, RowButton, TableHead } from "./table";
