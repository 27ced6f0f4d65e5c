import { useT } from '../i18n/use-t';
import { usePageTitle } from '../components/usePageTitle';

export function About() {
  const t = useT();
  usePageTitle(t('nav.about'));
  return (
    <section class="hero">
      <h1>{t('about.title')}</h1>
      <p class="lead">{t('about.tagline')}</p>
      <ul class="points">
        <li>{t('about.point1')}</li>
        <li>{t('about.point2')}</li>
        <li>{t('about.point3')}</li>
      </ul>
      <div class="actions">
        <a class="btn primary" href="/register">{t('about.start')}</a>
        <a class="btn ghost" href="/signin">{t('auth.signIn')}</a>
      </div>
    </section>
  );
}
