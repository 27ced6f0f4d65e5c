import { useT } from '../i18n/use-t';
import { usePageTitle } from '../components/usePageTitle';

/** A decorative sapling: branches as projects, leaves as tasks, one of them done. */
function Sapling() {
  return (
    <svg class="sapling" viewBox="0 0 200 220" aria-hidden="true" focusable="false">
      <path
        class="sapling-branch"
        d="M100 215V120M100 165L60 120M100 150L140 105M100 120L75 70M100 120L125 60M60 120L35 95M140 105L170 90"
      />
      <circle class="sapling-leaf a" cx="35" cy="92" r="11" />
      <circle class="sapling-leaf b" cx="60" cy="116" r="9" />
      <circle class="sapling-leaf c" cx="75" cy="64" r="13" />
      <circle class="sapling-leaf a" cx="125" cy="54" r="14" />
      <circle class="sapling-leaf done" cx="170" cy="88" r="11" />
      <circle class="sapling-leaf b" cx="140" cy="100" r="9" />
      <circle class="sapling-leaf c" cx="100" cy="30" r="12" />
      <path class="sapling-branch thin" d="M100 120L100 42" />
    </svg>
  );
}

export function About() {
  const t = useT();
  usePageTitle(t('nav.about'));
  return (
    <section class="hero">
      <div class="hero-text">
        <h1>{t('about.title')}</h1>
        <p class="lead">{t('about.tagline')}</p>
        <ul class="points">
          <li>{t('about.point1')}</li>
          <li>{t('about.point2')}</li>
          <li>{t('about.point3')}</li>
        </ul>
        <div class="actions start">
          <a class="btn primary" href="/register">
            {t('about.start')}
          </a>
          <a class="btn ghost" href="/signin">
            {t('auth.signIn')}
          </a>
        </div>
      </div>
      <Sapling />
    </section>
  );
}
