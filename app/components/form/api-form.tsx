import type { ReactNode } from 'react';
import { FormAlert } from './form-alert';

/**
 * A form of useApiForm: it posts to the page's action before the script runs and through the
 * API after, and shows the form-wide error above its fields.
 */
export function ApiForm({
  form,
  className = 'relative mt-6 space-y-4',
  children,
}: {
  form: { submit: (event: React.FormEvent<HTMLFormElement>) => Promise<void>; formError: string | null };
  className?: string;
  children: ReactNode;
}) {
  return (
    <form method="post" className={className} onSubmit={(e) => void form.submit(e)} noValidate>
      <FormAlert message={form.formError} />
      {children}
    </form>
  );
}
