import type { Locale } from '../../../common/locales';
import { interpolate } from '../mail/strings';
import { renderNoticeMail, resolveMailLocale, type RenderedMail } from '../mail/templates';

// The mail to a key's owner when a key is created, in their language: a key made by someone
// who took over a session is then seen at once. Placeholders: {{app}}, {{name}}, {{prefix}},
// {{access}}, {{time}}.
type Strings = {
  subject: string;
  heading: string;
  intro: string;
  notYou: string;
  button: string;
  full: string;
  read: string;
};

const STRINGS: Record<Locale, Strings> = {
  en: {
    subject: 'A new {{app}} API key was created',
    heading: 'A new API key was created for your account',
    intro: 'The key "{{name}}" ({{prefix}}…, {{access}}) was created on {{time}} UTC.',
    notYou:
      'If this was not you, revoke all your API keys in your profile and change your password: the key works until it is revoked.',
    button: 'Open my profile',
    full: 'full access',
    read: 'read only',
  },
  de: {
    subject: 'Ein neuer API-Schlüssel für {{app}} wurde erstellt',
    heading: 'Für Ihr Konto wurde ein neuer API-Schlüssel erstellt',
    intro: 'Der Schlüssel „{{name}}“ ({{prefix}}…, {{access}}) wurde am {{time}} UTC erstellt.',
    notYou:
      'Falls Sie das nicht waren, widerrufen Sie in Ihrem Profil alle API-Schlüssel und ändern Sie Ihr Passwort: Der Schlüssel gilt, bis er widerrufen wird.',
    button: 'Mein Profil öffnen',
    full: 'voller Zugriff',
    read: 'nur lesen',
  },
  es: {
    subject: 'Se ha creado una nueva clave de API de {{app}}',
    heading: 'Se ha creado una nueva clave de API para tu cuenta',
    intro: 'La clave «{{name}}» ({{prefix}}…, {{access}}) se creó el {{time}} UTC.',
    notYou:
      'Si no fuiste tú, revoca todas tus claves de API en tu perfil y cambia tu contraseña: la clave funciona hasta que se revoque.',
    button: 'Abrir mi perfil',
    full: 'acceso completo',
    read: 'solo lectura',
  },
  fr: {
    subject: 'Une nouvelle clé API {{app}} a été créée',
    heading: 'Une nouvelle clé API a été créée pour votre compte',
    intro: 'La clé « {{name}} » ({{prefix}}…, {{access}}) a été créée le {{time}} UTC.',
    notYou:
      "Si ce n'était pas vous, révoquez toutes vos clés API dans votre profil et changez votre mot de passe : la clé fonctionne jusqu'à sa révocation.",
    button: 'Ouvrir mon profil',
    full: 'accès complet',
    read: 'lecture seule',
  },
  ja: {
    subject: '{{app}} の新しい API キーが作成されました',
    heading: 'アカウントに新しい API キーが作成されました',
    intro: 'キー「{{name}}」（{{prefix}}…、{{access}}）が {{time}} UTC に作成されました。',
    notYou:
      '心当たりがない場合は、プロフィールですべての API キーを取り消し、パスワードを変更してください。キーは取り消すまで有効です。',
    button: 'プロフィールを開く',
    full: 'フルアクセス',
    read: '読み取り専用',
  },
  ko: {
    subject: '새 {{app}} API 키가 만들어졌습니다',
    heading: '계정에 새 API 키가 만들어졌습니다',
    intro: '키 "{{name}}"({{prefix}}…, {{access}})이(가) {{time}} UTC에 만들어졌습니다.',
    notYou:
      '본인이 아니라면 프로필에서 모든 API 키를 취소하고 비밀번호를 변경하세요. 키는 취소할 때까지 작동합니다.',
    button: '내 프로필 열기',
    full: '전체 권한',
    read: '읽기 전용',
  },
  pt: {
    subject: 'Uma nova chave de API do {{app}} foi criada',
    heading: 'Uma nova chave de API foi criada para a sua conta',
    intro: 'A chave "{{name}}" ({{prefix}}…, {{access}}) foi criada em {{time}} UTC.',
    notYou:
      'Se não foi você, revogue todas as suas chaves de API no seu perfil e altere a sua senha: a chave funciona até ser revogada.',
    button: 'Abrir o meu perfil',
    full: 'acesso total',
    read: 'somente leitura',
  },
  tw: {
    subject: '已建立新的 {{app}} API 金鑰',
    heading: '您的帳戶已建立新的 API 金鑰',
    intro: '金鑰「{{name}}」（{{prefix}}…，{{access}}）已於 {{time}} UTC 建立。',
    notYou: '如果這不是您本人操作，請在個人資料中撤銷所有 API 金鑰並變更密碼：金鑰在撤銷前都有效。',
    button: '開啟我的個人資料',
    full: '完整權限',
    read: '唯讀',
  },
  vi: {
    subject: 'Một khóa API {{app}} mới đã được tạo',
    heading: 'Một khóa API mới đã được tạo cho tài khoản của bạn',
    intro: 'Khóa "{{name}}" ({{prefix}}…, {{access}}) đã được tạo lúc {{time}} UTC.',
    notYou:
      'Nếu không phải bạn, hãy thu hồi tất cả khóa API trong hồ sơ và đổi mật khẩu: khóa vẫn hoạt động cho đến khi bị thu hồi.',
    button: 'Mở hồ sơ của tôi',
    full: 'toàn quyền',
    read: 'chỉ đọc',
  },
  zh: {
    subject: '已创建新的 {{app}} API 密钥',
    heading: '您的账户已创建新的 API 密钥',
    intro: '密钥“{{name}}”（{{prefix}}…，{{access}}）已于 {{time}} UTC 创建。',
    notYou: '如果这不是您本人操作，请在个人资料中撤销所有 API 密钥并修改密码：密钥在撤销前一直有效。',
    button: '打开我的个人资料',
    full: '完全访问',
    read: '只读',
  },
};

export function renderKeyCreatedMail(input: {
  lang: string;
  appName: string;
  name: string;
  prefix: string;
  scope: 'full' | 'read';
  at: Date;
  profileLink: string | null;
}): RenderedMail {
  const s = STRINGS[resolveMailLocale(input.lang)];
  const vars = {
    app: input.appName,
    name: input.name,
    prefix: input.prefix,
    access: s[input.scope],
    time: input.at.toISOString().slice(0, 16).replace('T', ' '),
  };
  const t = (text: string) => interpolate(text, vars);
  return renderNoticeMail({
    lang: input.lang,
    appName: input.appName,
    subject: t(s.subject),
    heading: t(s.heading),
    paragraphs: [t(s.intro), t(s.notYou)],
    button: input.profileLink ? { link: input.profileLink, label: t(s.button) } : null,
  });
}
