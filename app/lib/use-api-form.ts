import { useState } from 'react';
import { fieldKeysOf } from '../../common/envelope';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { fieldErrors } from '../../common/auth-schemas';
import { api } from './api';
import { ApiClientError } from './api-client';
import type { PostedFailure } from './form-action';

/**
 * Validates a form with the shared zod schema, posts it, and maps server field errors back
 * onto the inputs. `onSuccess` receives the envelope's data. `posted` is the route action's
 * answer when the form was submitted before hydration (see form-action.ts).
 */
export function useApiForm<S extends z.ZodType, R>(opts: {
  schema: S;
  path: string;
  method?: 'POST' | 'PUT';
  onSuccess: (data: R, input: z.infer<S>) => void | Promise<void>;
  posted?: PostedFailure | null;
}) {
  const { t } = useTranslation();
  const posted = opts.posted ?? null;
  const [errors, setErrors] = useState<Record<string, string>>(posted?.fields ?? {});
  const [formError, setFormError] = useState<string | null>(() =>
    posted ? t(posted.message, posted.values ?? undefined) : null,
  );
  const [errorCode, setErrorCode] = useState<number | null>(posted?.code ?? null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = Object.fromEntries(new FormData(event.currentTarget).entries());
    const parsed = opts.schema.safeParse(raw);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setFormError(null);
    setErrorCode(null);
    setPending(true);
    try {
      const data = await api.request<R>(opts.method ?? 'POST', opts.path, { body: raw, handleErrors: true });
      await opts.onSuccess(data, parsed.data);
    } catch (err) {
      if (err instanceof ApiClientError) {
        const fields = fieldKeysOf(err.data);
        if (fields) setErrors(fields);
        setErrorCode(err.code);
        setFormError(err.message);
      } else {
        throw err;
      }
    } finally {
      setPending(false);
    }
  }

  return { errors, formError, errorCode, pending, submit, setFormError, kept: posted?.kept ?? {} };
}
