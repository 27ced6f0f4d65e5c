import { useT } from '../../i18n/use-t';
import { Field } from '../../components/Field';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../api/bounds';

/** The email and password fields of every signed-out form, with the names CONTRACT §15 fixes. */
export function EmailField({ value, onInput }: { value: string; onInput(value: string): void }) {
  const t = useT();
  return (
    <Field label={t('fields.email')}>
      {(id) => (
        <input
          id={id}
          type="email"
          name="email"
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
          required
          autoComplete="username"
        />
      )}
    </Field>
  );
}

export function PasswordField({
  value,
  onInput,
  autoComplete,
  label,
}: {
  value: string;
  onInput(value: string): void;
  autoComplete: string;
  label?: string;
}) {
  const t = useT();
  return (
    <Field label={label ?? t('fields.password')}>
      {(id) => (
        <>
          <input
            id={id}
            type="password"
            name="password"
            value={value}
            onInput={(e) => onInput(e.currentTarget.value)}
            required
            minLength={PASSWORD_MIN}
            maxLength={PASSWORD_MAX}
            autoComplete={autoComplete}
          />
          {autoComplete === 'new-password' ? <span class="hint">{t('auth.passwordHint')}</span> : null}
        </>
      )}
    </Field>
  );
}
