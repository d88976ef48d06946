/**
 * Sign-in and sign-up pages. Sign-in errors never say whether the email has an account
 * ("Wrong email or password"); throttled attempts say to wait.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Alert, Button, Field } from "../../../components/ui";
import { authClient, authErrorMessage } from "../../../lib/auth-client";

function AuthForm({ mode }: { mode: "sign-in" | "sign-up" }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const next = params.get("next")?.startsWith("/") ? params.get("next")! : "/";
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    setBusy(true);
    setError(null);
    const { error } =
      mode === "sign-up"
        ? await authClient.signUp.email({ email, password, name: String(form.get("name") || email.split("@")[0]) })
        : await authClient.signIn.email({ email, password });
    setBusy(false);
    if (error) return setError(authErrorMessage(error, mode));
    queryClient.clear();
    await navigate(next);
  };
  const other = mode === "sign-in" ? "sign-up" : "sign-in";
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4">
      <h1 className="text-2xl font-semibold">{mode === "sign-in" ? "Sign in to Sightline" : "Create your Sightline account"}</h1>
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        {mode === "sign-up" && <Field label="Name" id="name" name="name" autoComplete="name" />}
        <Field label="Email" id="email" name="email" type="email" required autoComplete="email" />
        <Field
          label="Password"
          id="password"
          name="password"
          type="password"
          required
          minLength={mode === "sign-up" ? 10 : undefined}
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <Button type="submit" disabled={busy}>
          {mode === "sign-in" ? "Sign in" : "Create account"}
        </Button>
      </form>
      <p className="text-sm">
        {mode === "sign-in" ? "No account yet? " : "Already have an account? "}
        <Link className="text-indigo-700 underline dark:text-indigo-300" to={`/${other}${params.size ? `?${params}` : ""}`}>
          {mode === "sign-in" ? "Create one" : "Sign in"}
        </Link>
      </p>
    </main>
  );
}

export const SignInPage = () => <AuthForm mode="sign-in" />;
export const SignUpPage = () => <AuthForm mode="sign-up" />;
