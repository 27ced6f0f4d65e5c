/** The words of the server-rendered OAuth pages, in the two languages of CONTRACT §15. */
export const pageText = {
  en: {
    signInTitle: 'Sign in to Task Tree',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signInFailed: 'The email or password is not correct.',
    tooMany: 'Too many failed attempts; try again later.',
    consentTitle: 'Connect an app to Task Tree',
    wants: 'wants to use your Task Tree account.',
    scopes: 'It will be able to:',
    scope: { read: 'read your trees, projects, tasks and notes', write: 'create, change and delete them', attachments: 'open attachments' },
    dropped: 'Your Seed plan can only read through apps, so this connection will not get: ',
    resource: 'Where:',
    redirect: 'You will be sent back to:',
    signedInAs: 'Signed in as',
    approve: 'Allow',
    deny: 'Deny',
    errorTitle: 'This connection cannot continue',
    forged: 'This form was not sent from the Task Tree page (the security field is missing or wrong). Start the connection again from the app.',
  },
  ru: {
    signInTitle: 'Вход в Task Tree',
    email: 'Электронная почта',
    password: 'Пароль',
    signIn: 'Войти',
    signInFailed: 'Неверная почта или пароль.',
    tooMany: 'Слишком много неудачных попыток; попробуйте позже.',
    consentTitle: 'Подключение приложения к Task Tree',
    wants: 'запрашивает доступ к вашему аккаунту Task Tree.',
    scopes: 'Приложение сможет:',
    scope: { read: 'читать ваши деревья, проекты, задачи и заметки', write: 'создавать, изменять и удалять их', attachments: 'открывать вложения' },
    dropped: 'На тарифе Seed приложения могут только читать, поэтому это подключение не получит: ',
    resource: 'Где:',
    redirect: 'После этого вы вернётесь на:',
    signedInAs: 'Вы вошли как',
    approve: 'Разрешить',
    deny: 'Отклонить',
    errorTitle: 'Подключение невозможно',
    forged: 'Форма отправлена не со страницы Task Tree (поле защиты отсутствует или неверно). Начните подключение заново из приложения.',
  },
} as const;

export type PageLanguage = keyof typeof pageText;
export type PageText = (typeof pageText)[PageLanguage];

/** The signed-in user's language, else the browser's Accept-Language, else English. */
export function pageLanguage(userLanguage: string | null, acceptLanguage: string | undefined): PageLanguage {
  if (userLanguage === 'ru' || userLanguage === 'en') return userLanguage;
  const first = (acceptLanguage ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()).find((tag) => tag.startsWith('ru') || tag.startsWith('en'));
  return first?.startsWith('ru') === true ? 'ru' : 'en';
}
