import { currentZoneName } from '../../../src/domain/zone-names';

export interface ZoneOption {
  id: string;
  label: string;
}

/** The zone's generic name in the language ("Eastern European Time", "Восточная Европа"), or '' where Intl has none. */
function genericName(zone: string, language: string, at: Date): string {
  try {
    const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(at);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/**
 * Every IANA zone the browser knows, by its current name (Europe/Kyiv, not ICU's Europe/Kiev; the
 * API stores the same), each labelled with its name in the language; `current` stays listed even
 * if this browser lacks it.
 */
export function zoneOptions(current: string, language: string): ZoneOption[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const ids = [...new Set(['UTC', ...known, current].map(currentZoneName))].sort();
  const at = new Date();
  return ids.map((id) => {
    const place = id.replaceAll('_', ' ');
    const name = genericName(id, language, at);
    return { id, label: name !== '' && name !== place ? `${place} — ${name}` : place };
  });
}

export { currentZoneName };
