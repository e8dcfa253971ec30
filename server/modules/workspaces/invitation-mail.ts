import type { Locale } from '../../../common/locales';
import type { InvitableRole } from '../../../common/record-states';
import { interpolate } from '../mail/strings';
import { renderNoticeMail, resolveMailLocale, type RenderedMail } from '../mail/templates';

// The invitation to a workspace, in the invitee's language (decision 0027).
// Placeholders: {{app}}, {{inviter}}, {{workspace}}, {{role}}.
type Strings = {
  subject: string;
  heading: string;
  intro: string;
  account: string;
  button: string;
  expiry: string;
  ignore: string;
  roles: Record<InvitableRole, string>;
};

const STRINGS: Record<Locale, Strings> = {
  en: {
    subject: '{{inviter}} invited you to {{workspace}} on {{app}}',
    heading: 'You are invited to {{workspace}}',
    intro:
      '{{inviter}} invited you to work together in the workspace “{{workspace}}” on {{app}}, as {{role}}.',
    account:
      'Accept with the account of this address. No account yet? You create one on the way, with this address.',
    button: 'See the invitation',
    expiry: 'The link works once, for 7 days.',
    ignore: 'Not expecting this? Ignore this email: nothing happens without your answer.',
    roles: {
      viewer: 'a viewer (read, comment and export)',
      editor: 'an editor (upload, edit, export and share)',
      admin: 'an admin (also manages the members)',
    },
  },
  de: {
    subject: '{{inviter}} hat Sie zu {{workspace}} bei {{app}} eingeladen',
    heading: 'Einladung zu {{workspace}}',
    intro:
      '{{inviter}} lädt Sie ein, im Arbeitsbereich „{{workspace}}“ bei {{app}} zusammenzuarbeiten, als {{role}}.',
    account:
      'Nehmen Sie die Einladung mit dem Konto dieser Adresse an. Noch kein Konto? Sie legen es dabei mit dieser Adresse an.',
    button: 'Einladung ansehen',
    expiry: 'Der Link funktioniert einmal und 7 Tage lang.',
    ignore: 'Sie haben das nicht erwartet? Ignorieren Sie diese E-Mail: Ohne Ihre Antwort passiert nichts.',
    roles: {
      viewer: 'Betrachter (lesen, kommentieren und exportieren)',
      editor: 'Bearbeiter (hochladen, bearbeiten, exportieren und teilen)',
      admin: 'Administrator (verwaltet auch die Mitglieder)',
    },
  },
  es: {
    subject: '{{inviter}} te ha invitado a {{workspace}} en {{app}}',
    heading: 'Te han invitado a {{workspace}}',
    intro:
      '{{inviter}} te invita a trabajar en equipo en el espacio de trabajo «{{workspace}}» de {{app}}, como {{role}}.',
    account:
      'Acepta con la cuenta de esta dirección. ¿Aún no tienes cuenta? La crearás por el camino, con esta dirección.',
    button: 'Ver la invitación',
    expiry: 'El enlace funciona una sola vez y durante 7 días.',
    ignore: '¿No lo esperabas? Ignora este correo: no pasará nada sin tu respuesta.',
    roles: {
      viewer: 'lector (leer, comentar y exportar)',
      editor: 'editor (subir, editar, exportar y compartir)',
      admin: 'administrador (también gestiona los miembros)',
    },
  },
  fr: {
    subject: '{{inviter}} vous invite à rejoindre {{workspace}} sur {{app}}',
    heading: 'Vous êtes invité à rejoindre {{workspace}}',
    intro:
      '{{inviter}} vous invite à travailler ensemble dans l’espace de travail « {{workspace}} » sur {{app}}, en tant que {{role}}.',
    account:
      'Acceptez avec le compte de cette adresse. Pas encore de compte ? Vous le créerez en chemin, avec cette adresse.',
    button: 'Voir l’invitation',
    expiry: 'Le lien fonctionne une seule fois, pendant 7 jours.',
    ignore: 'Vous ne vous y attendiez pas ? Ignorez cet e-mail : rien ne se passe sans votre réponse.',
    roles: {
      viewer: 'lecteur (lire, commenter et exporter)',
      editor: 'éditeur (importer, modifier, exporter et partager)',
      admin: 'administrateur (gère aussi les membres)',
    },
  },
  ja: {
    subject: '{{inviter}}さんから{{app}}のワークスペース「{{workspace}}」への招待が届いています',
    heading: '「{{workspace}}」への招待',
    intro: '{{inviter}}さんが、{{app}}のワークスペース「{{workspace}}」に{{role}}として招待しています。',
    account:
      'このメールアドレスのアカウントで承諾してください。アカウントをお持ちでない場合は、途中でこのアドレスで作成できます。',
    button: '招待を確認する',
    expiry: 'このリンクは1回のみ、7日間有効です。',
    ignore: '心当たりがない場合は、このメールを無視してください。返答しない限り何も起こりません。',
    roles: {
      viewer: '閲覧者（閲覧・コメント・エクスポート）',
      editor: '編集者（アップロード・編集・エクスポート・共有）',
      admin: '管理者（メンバーの管理も可能）',
    },
  },
  ko: {
    subject: '{{inviter}}님이 {{app}}의 {{workspace}}에 초대했습니다',
    heading: '{{workspace}} 초대',
    intro:
      '{{inviter}}님이 {{app}}의 워크스페이스 “{{workspace}}”에 {{role}}(으)로 함께 일하자고 초대했습니다.',
    account: '이 주소의 계정으로 수락하세요. 아직 계정이 없다면 이 주소로 가입하면서 만들 수 있습니다.',
    button: '초대 보기',
    expiry: '이 링크는 7일 동안 한 번만 사용할 수 있습니다.',
    ignore: '예상하지 못한 메일이라면 무시하세요. 응답하지 않으면 아무 일도 일어나지 않습니다.',
    roles: {
      viewer: '뷰어(읽기, 댓글, 내보내기)',
      editor: '편집자(업로드, 편집, 내보내기, 공유)',
      admin: '관리자(멤버 관리 포함)',
    },
  },
  pt: {
    subject: '{{inviter}} convidou-o para {{workspace}} no {{app}}',
    heading: 'Foi convidado para {{workspace}}',
    intro:
      '{{inviter}} convidou-o para trabalhar em conjunto no espaço de trabalho «{{workspace}}» do {{app}}, como {{role}}.',
    account:
      'Aceite com a conta deste endereço. Ainda não tem conta? Cria-a pelo caminho, com este endereço.',
    button: 'Ver o convite',
    expiry: 'O link funciona uma única vez, durante 7 dias.',
    ignore: 'Não estava à espera? Ignore este email: nada acontece sem a sua resposta.',
    roles: {
      viewer: 'leitor (ler, comentar e exportar)',
      editor: 'editor (carregar, editar, exportar e partilhar)',
      admin: 'administrador (também gere os membros)',
    },
  },
  tw: {
    subject: '{{inviter}} 邀請您加入 {{app}} 的 {{workspace}}',
    heading: '邀請您加入 {{workspace}}',
    intro: '{{inviter}} 邀請您以{{role}}身分，在 {{app}} 的工作區「{{workspace}}」中一起工作。',
    account: '請使用此地址的帳戶接受邀請。還沒有帳戶？您可以在過程中用此地址建立。',
    button: '查看邀請',
    expiry: '此連結只能使用一次，有效期 7 天。',
    ignore: '如果您並未預期收到此郵件，請忽略：沒有您的回覆，什麼都不會發生。',
    roles: {
      viewer: '檢視者（閱讀、留言、匯出）',
      editor: '編輯者（上傳、編輯、匯出、分享）',
      admin: '管理員（也可管理成員）',
    },
  },
  vi: {
    subject: '{{inviter}} đã mời bạn tham gia {{workspace}} trên {{app}}',
    heading: 'Lời mời tham gia {{workspace}}',
    intro:
      '{{inviter}} mời bạn cùng làm việc trong không gian làm việc “{{workspace}}” trên {{app}} với vai trò {{role}}.',
    account:
      'Hãy chấp nhận bằng tài khoản của địa chỉ này. Chưa có tài khoản? Bạn sẽ tạo tài khoản bằng địa chỉ này ngay khi chấp nhận.',
    button: 'Xem lời mời',
    expiry: 'Liên kết chỉ dùng được một lần, trong 7 ngày.',
    ignore: 'Không mong đợi email này? Hãy bỏ qua nó: sẽ không có gì xảy ra nếu bạn không trả lời.',
    roles: {
      viewer: 'người xem (đọc, bình luận và xuất)',
      editor: 'người chỉnh sửa (tải lên, chỉnh sửa, xuất và chia sẻ)',
      admin: 'quản trị viên (quản lý cả thành viên)',
    },
  },
  zh: {
    subject: '{{inviter}} 邀请您加入 {{app}} 上的 {{workspace}}',
    heading: '邀请您加入 {{workspace}}',
    intro: '{{inviter}} 邀请您以{{role}}身份，在 {{app}} 的工作区“{{workspace}}”中一起工作。',
    account: '请使用此邮箱地址的账户接受邀请。还没有账户？您可以在接受时用此地址注册。',
    button: '查看邀请',
    expiry: '此链接只能使用一次，有效期 7 天。',
    ignore: '如果您没有预期收到此邮件，请忽略：没有您的回复，什么都不会发生。',
    roles: {
      viewer: '查看者（阅读、评论、导出）',
      editor: '编辑者（上传、编辑、导出、分享）',
      admin: '管理员（还可管理成员）',
    },
  },
};

export function renderInvitationMail(input: {
  lang: string;
  appName: string;
  inviter: string;
  workspace: string;
  role: InvitableRole;
  link: string;
}): RenderedMail {
  const s = STRINGS[resolveMailLocale(input.lang)];
  const vars = {
    app: input.appName,
    inviter: input.inviter,
    workspace: input.workspace,
    role: s.roles[input.role],
  };
  const t = (text: string) => interpolate(text, vars);
  return renderNoticeMail({
    lang: input.lang,
    appName: input.appName,
    subject: t(s.subject),
    heading: t(s.heading),
    paragraphs: [t(s.intro), t(s.account)],
    button: { link: input.link, label: t(s.button) },
    footnotes: [t(s.expiry), t(s.ignore)],
  });
}
