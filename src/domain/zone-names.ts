/**
 * Current IANA names for zones that ICU (and so Node and browsers) still calls by their old ones:
 * `Intl` resolves Europe/Kyiv to Europe/Kiev and lists Asia/Calcutta, not Asia/Kolkata. The names
 * IANA renamed, from its `backward` file; the old ones stay accepted as input everywhere. A leaf
 * module with no imports: the web app shows the same names the API stores.
 */
export const CURRENT_ZONE_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The current IANA name of a zone `Intl` has resolved (Europe/Kiev → Europe/Kyiv); others unchanged. */
export function currentZoneName(resolved: string): string {
  return CURRENT_ZONE_NAMES[resolved] ?? resolved;
}
