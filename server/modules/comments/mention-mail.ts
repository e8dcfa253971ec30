import { formatTime } from '../../../common/format';
import type { Locale } from '../../../common/locales';
import { interpolate } from '../mail/strings';
import { renderNoticeMail, resolveMailLocale, type RenderedMail } from '../mail/templates';

// The mail to a member mentioned in a comment, in their language, with a link to the moment.
// Placeholders: {{author}}, {{transcript}}, {{time}}, {{app}}.
type Strings = { subject: string; heading: string; intro: string; button: string; why: string };

const STRINGS: Record<Locale, Strings> = {
  en: {
    subject: '{{author}} mentioned you on “{{transcript}}”',
    heading: '{{author}} mentioned you',
    intro: '{{author}} mentioned you in a comment on “{{transcript}}” at {{time}}:',
    button: 'Open the moment',
    why: 'You get this mail because a member of your workspace on {{app}} mentioned you.',
  },
  de: {
    subject: '{{author}} hat Sie in „{{transcript}}“ erwähnt',
    heading: '{{author}} hat Sie erwähnt',
    intro: '{{author}} hat Sie in einem Kommentar zu „{{transcript}}“ bei {{time}} erwähnt:',
    button: 'Zur Stelle',
    why: 'Sie erhalten diese E-Mail, weil ein Mitglied Ihres Arbeitsbereichs bei {{app}} Sie erwähnt hat.',
  },
  es: {
    subject: '{{author}} te mencionó en «{{transcript}}»',
    heading: '{{author}} te mencionó',
    intro: '{{author}} te mencionó en un comentario sobre «{{transcript}}» en {{time}}:',
    button: 'Abrir el momento',
    why: 'Recibes este correo porque un miembro de tu espacio de trabajo en {{app}} te mencionó.',
  },
  fr: {
    subject: '{{author}} vous a mentionné dans « {{transcript}} »',
    heading: '{{author}} vous a mentionné',
    intro: '{{author}} vous a mentionné dans un commentaire sur « {{transcript}} » à {{time}} :',
    button: 'Ouvrir ce passage',
    why: 'Vous recevez cet e-mail parce qu’un membre de votre espace de travail sur {{app}} vous a mentionné.',
  },
  ja: {
    subject: '{{author}} さんが「{{transcript}}」であなたをメンションしました',
    heading: '{{author}} さんがあなたをメンションしました',
    intro: '{{author}} さんが「{{transcript}}」の {{time}} のコメントであなたをメンションしました：',
    button: 'その場面を開く',
    why: '{{app}} のワークスペースのメンバーがあなたをメンションしたため、このメールをお送りしています。',
  },
  ko: {
    subject: '{{author}} 님이 “{{transcript}}”에서 회원님을 언급했습니다',
    heading: '{{author}} 님이 회원님을 언급했습니다',
    intro: '{{author}} 님이 “{{transcript}}”의 {{time}} 지점 댓글에서 회원님을 언급했습니다:',
    button: '해당 장면 열기',
    why: '{{app}} 워크스페이스의 멤버가 회원님을 언급하여 이 메일을 보내 드립니다.',
  },
  pt: {
    subject: '{{author}} mencionou você em “{{transcript}}”',
    heading: '{{author}} mencionou você',
    intro: '{{author}} mencionou você em um comentário sobre “{{transcript}}” em {{time}}:',
    button: 'Abrir o momento',
    why: 'Você recebe este e-mail porque um membro do seu espaço de trabalho no {{app}} mencionou você.',
  },
  tw: {
    subject: '{{author}} 在「{{transcript}}」中提及了你',
    heading: '{{author}} 提及了你',
    intro: '{{author}} 在「{{transcript}}」{{time}} 處的留言中提及了你：',
    button: '開啟該片段',
    why: '你收到這封郵件，是因為你在 {{app}} 的工作區成員提及了你。',
  },
  vi: {
    subject: '{{author}} đã nhắc đến bạn trong “{{transcript}}”',
    heading: '{{author}} đã nhắc đến bạn',
    intro: '{{author}} đã nhắc đến bạn trong một bình luận về “{{transcript}}” tại {{time}}:',
    button: 'Mở đoạn này',
    why: 'Bạn nhận được email này vì một thành viên trong không gian làm việc của bạn trên {{app}} đã nhắc đến bạn.',
  },
  zh: {
    subject: '{{author}} 在“{{transcript}}”中提到了你',
    heading: '{{author}} 提到了你',
    intro: '{{author}} 在“{{transcript}}”{{time}} 处的评论中提到了你：',
    button: '打开该片段',
    why: '你收到这封邮件，是因为你在 {{app}} 的工作区成员提到了你。',
  },
};

/** How much of the comment the mail quotes. */
const EXCERPT_MAX = 500;

export function renderMentionMail(input: {
  lang: string;
  appName: string;
  author: string;
  transcript: string;
  excerpt: string;
  at: number;
  link: string;
}): RenderedMail {
  const s = STRINGS[resolveMailLocale(input.lang)];
  const vars = {
    app: input.appName,
    author: input.author,
    transcript: input.transcript,
    time: formatTime(input.at),
  };
  const t = (text: string) => interpolate(text, vars);
  const excerpt =
    input.excerpt.length > EXCERPT_MAX ? `${input.excerpt.slice(0, EXCERPT_MAX)}…` : input.excerpt;
  return renderNoticeMail({
    lang: input.lang,
    appName: input.appName,
    subject: t(s.subject),
    heading: t(s.heading),
    paragraphs: [t(s.intro), `“${excerpt}”`],
    button: { link: input.link, label: t(s.button) },
    footnotes: [t(s.why)],
  });
}
