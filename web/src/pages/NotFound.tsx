import { useT } from '../i18n/use-t';
import { usePageTitle } from '../components/usePageTitle';

export function NotFound() {
  const t = useT();
  usePageTitle(t('notFound.title'));
  return (
    <section class="page narrow center">
      <h1>{t('notFound.title')}</h1>
      <p class="muted">{t('notFound.text')}</p>
      <a class="btn primary" href="/trees">
        {t('notFound.home')}
      </a>
    </section>
  );
}
