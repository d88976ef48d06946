/** Shared UI primitives (shadcn-style, Tailwind): import from "components/ui". */
export { Alert } from "./alert";
export { Button, type ButtonVariant } from "./button";
export { Card } from "./card";
export { cn } from "./cn";
export { CodeBlock, CopyButton } from "./code-block";
export { Confirm, Modal } from "./dialogs";
export { Field } from "./field";
export { timeZone, when } from "./format";
export { NotFound, PageTitle, QueryStatus } from "./page";
export { Select, type SelectOption } from "./select";
export { TableHead } from "./table";
