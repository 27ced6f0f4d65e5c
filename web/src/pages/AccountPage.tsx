import { useMemo, useState } from 'preact/hooks';
import { auth } from '../api/endpoints';
import { useSession, useUser } from '../session';
import { useT } from '../i18n/use-t';
import { LANGUAGES, type Language } from '../i18n';
import { formatDateTime } from '../i18n/format';
import { ErrorNote } from '../components/ErrorNote';
import { useSubmit } from '../components/useSubmit';
import { PROFILE_NAME_MAX } from '../api/bounds';
import { usePageTitle } from '../components/usePageTitle';
import { Field } from '../components/Field';
import { AccountSecurity } from './AccountSecurity';
import { currentZoneName, zoneOptions } from '../i18n/zones';

export function AccountPage() {
  const t = useT();
  const user = useUser();
  const { setUser } = useSession();
  usePageTitle(t('account.title'));
  const [name, setName] = useState(user.name);
  const [language, setLanguage] = useState<Language>(user.language);
  // A zone saved under an old name (Europe/Kiev) is offered by its current one.
  const [timezone, setTimezone] = useState(currentZoneName(user.timezone));
  const [saved, setSaved] = useState(false);
  const zones = useMemo(() => zoneOptions(user.timezone, user.language), [user.timezone, user.language]);
  const {
    busy,
    error,
    submit: save,
  } = useSubmit(async () => {
    setSaved(false);
    setUser(await auth.updateProfile({ name: name.trim(), language, timezone })); // switches the app's language too
    setSaved(true);
  });

  return (
    <section class="page narrow">
      <h1>{t('account.title')}</h1>
      <p class="lead">{t('account.lead')}</p>
      <form class="card stack" onSubmit={save}>
        <h2>{t('account.profile')}</h2>
        <Field label={t('fields.email')}>{(id) => <input id={id} type="email" value={user.email} readOnly />}</Field>
        <Field label={t('fields.name')}>
          {(id) => (
            <input
              id={id}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              maxLength={PROFILE_NAME_MAX}
              autoComplete="name"
            />
          )}
        </Field>
        <div class="grid-2">
          <Field label={t('fields.language')}>
            {(id) => (
              <select id={id} value={language} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
                {LANGUAGES.map((l) => (
                  <option key={l} value={l} lang={l}>
                    {t(`account.languages.${l}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('fields.timezone')}>
            {(id) => (
              <select id={id} value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)}>
                {zones.map((z) => (
                  <option key={z.id} value={z.id}>
                    {z.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <ErrorNote error={error} />
        {saved ? (
          <p class="note ok" role="status">
            {t('account.saved')}
          </p>
        ) : null}
        <div class="actions">
          <button class="btn primary" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
      <div class="card">
        <h2>{t('account.plan')}</h2>
        <p class="plan-name">{t(`account.planName.${user.effective_plan}`)}</p>
        {user.plan_expires_at !== null ? (
          <p class="muted">{t('account.until', { date: formatDateTime(user.plan_expires_at, user.timezone) })}</p>
        ) : null}
      </div>
      <AccountSecurity />
    </section>
  );
}
