/** The words of the server-rendered OAuth pages, in the two languages of CONTRACT §15. */
export const pageText = {
  en: {
    skip: 'Skip to content',
    languageLabel: 'Language',
    signInTitle: 'Sign in to Task Tree',
    signInLead: 'An app is asking to connect to your account. Sign in first; nothing is shared until you allow it.',
    forgot: 'Forgot your password?',
    noAccount: 'New here?',
    createAccount: 'Create account',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signInFailed: 'The email or password is not correct.',
    tooMany: 'Too many failed attempts; try again later.',
    consentTitle: 'Connect an app to Task Tree',
    wants: 'wants to use your Task Tree account.',
    scopes: 'It will be able to:',
    scope: {
      read: 'read your trees, projects, tasks and notes',
      write: 'create, change and delete them',
      attachments: 'open attachments',
    },
    dropped: 'Your Seed plan can only read through apps, so this connection will not get: ',
    resource: 'Where:',
    redirect: 'You will be sent back to:',
    signedInAs: 'Signed in as',
    trees: 'Trees',
    allTrees: 'All trees',
    allTreesHint: 'every tree you can see, now and later',
    chosenTrees: 'Chosen trees',
    chosenTreesHint: 'only the trees ticked below; everything else stays hidden from the app',
    noTrees: 'You have no trees yet.',
    chooseTree: 'Tick at least one tree, or choose All trees.',
    treeGone: 'One of the chosen trees is no longer yours to share. Choose again.',
    tooManyTrees: 'Choose at most 50 trees, or All trees.',
    approve: 'Allow',
    deny: 'Deny',
    errorTitle: 'This connection cannot continue',
    errorLead: 'Nothing was shared with the app. Go back to it and start connecting again.',
    home: 'Go to Task Tree',
    untrusted: {
      no_client: 'The request names no app (client_id is missing).',
      metadata_document:
        'Apps identified by a URL (Client ID Metadata Documents) are not supported here; the app must register first.',
      unknown_client:
        'This app is not registered here (unknown client_id). It may have been removed after 30 days unused; the app registers again when you reconnect it.',
      bad_redirect_uri: 'The address to send you back to (redirect_uri) is missing or is not one this app registered.',
    },
    forged:
      'This form was not sent from the Task Tree page (the security field is missing or wrong). Start the connection again from the app.',
    badReturn:
      'The address to return to after signing in (return_to) is not valid. Start the connection again from the app.',
  },
  ru: {
    skip: 'К содержимому',
    languageLabel: 'Язык',
    signInTitle: 'Вход в Task Tree',
    signInLead:
      'Приложение просит доступ к вашему аккаунту. Сначала войдите: ничего не передаётся, пока вы не разрешите.',
    forgot: 'Забыли пароль?',
    noAccount: 'Впервые здесь?',
    createAccount: 'Создать аккаунт',
    email: 'Эл. почта',
    password: 'Пароль',
    signIn: 'Войти',
    signInFailed: 'Неверная почта или пароль.',
    tooMany: 'Слишком много неудачных попыток; попробуйте позже.',
    consentTitle: 'Подключение приложения к Task Tree',
    wants: 'запрашивает доступ к вашему аккаунту Task Tree.',
    scopes: 'Приложение сможет:',
    scope: {
      read: 'читать ваши деревья, проекты, задачи и заметки',
      write: 'создавать, изменять и удалять их',
      attachments: 'открывать вложения',
    },
    dropped: 'На тарифе Seed приложения могут только читать, поэтому это подключение не получит: ',
    resource: 'Где:',
    redirect: 'После этого вы вернётесь на:',
    signedInAs: 'Вы вошли как',
    trees: 'Деревья',
    allTrees: 'Все деревья',
    allTreesHint: 'все деревья, которые вы видите, сейчас и в будущем',
    chosenTrees: 'Выбранные деревья',
    chosenTreesHint: 'только отмеченные ниже; остальное приложению не видно',
    noTrees: 'У вас пока нет деревьев.',
    chooseTree: 'Отметьте хотя бы одно дерево или выберите «Все деревья».',
    treeGone: 'Одно из выбранных деревьев вам больше недоступно. Выберите заново.',
    tooManyTrees: 'Выберите не больше 50 деревьев или «Все деревья».',
    approve: 'Разрешить',
    deny: 'Отклонить',
    errorTitle: 'Подключение невозможно',
    errorLead: 'Приложение ничего не получило. Вернитесь в него и начните подключение заново.',
    home: 'Перейти в Task Tree',
    untrusted: {
      no_client: 'В запросе не указано приложение (нет client_id).',
      metadata_document:
        'Приложения, заданные адресом (Client ID Metadata Document), здесь не поддерживаются; приложение должно сначала зарегистрироваться.',
      unknown_client:
        'Это приложение здесь не зарегистрировано (неизвестный client_id). Возможно, оно было удалено после 30 дней без использования; при повторном подключении приложение зарегистрируется снова.',
      bad_redirect_uri:
        'Адрес возврата (redirect_uri) не указан или не входит в число зарегистрированных этим приложением.',
    },
    forged:
      'Форма отправлена не со страницы Task Tree (поле защиты отсутствует или неверно). Начните подключение заново из приложения.',
    badReturn: 'Адрес возврата после входа (return_to) недействителен. Начните подключение заново из приложения.',
  },
} as const;

export type PageLanguage = keyof typeof pageText;
export type PageText = (typeof pageText)[PageLanguage];

/** Each language named in itself, for the switch. */
export const languageNames: Record<PageLanguage, string> = { en: 'English', ru: 'Русский' };
