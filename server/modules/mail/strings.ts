// Texts of the transactional mails, one object per interface language.
// Every language has exactly the keys of `en` (checked by the compiler via
// MailStrings and by mail.test.ts at run time). Placeholders: {{app}}, {{code}}.
// Tone follows app/locales: Sie (de), tú (es), vous (fr), você (pt-BR), bạn (vi).
import type { Locale } from '../../../common/locales';

const en = {
  verifySubject: 'Confirm your email address for {{app}}',
  verifyHeading: 'Confirm your email address',
  verifyCodeIntro: 'Enter this code on the {{app}} website to confirm your email address:',
  verifyLinkIntro: 'Or confirm it with a single click:',
  verifyButton: 'Confirm email address',
  verifyExpiry: 'The code and the link are valid for 24 hours.',
  verifyIgnore: 'If you didn’t request this, you can safely ignore this email.',
  resetSubject: 'Reset your {{app}} password',
  resetHeading: 'Reset your password',
  resetIntro:
    'We received a request to reset the password for your {{app}} account. Use the link below to choose a new one.',
  resetButton: 'Choose a new password',
  resetExpiry: 'The link is valid for 30 minutes.',
  resetIgnore: 'If you didn’t ask for this, just ignore this email. Your password will stay the same.',
  linkFallback: 'If the button doesn’t work, copy this link into your browser:',
  footer: 'This is an automated message from {{app}}.',
};

export type MailStringKey = keyof typeof en;
export type MailStrings = Record<MailStringKey, string>;

const de: MailStrings = {
  verifySubject: 'E-Mail-Adresse für {{app}} bestätigen',
  verifyHeading: 'Bestätigen Sie Ihre E-Mail-Adresse',
  verifyCodeIntro:
    'Geben Sie diesen Code auf der Website von {{app}} ein, um Ihre E-Mail-Adresse zu bestätigen:',
  verifyLinkIntro: 'Oder bestätigen Sie sie mit nur einem Klick:',
  verifyButton: 'E-Mail-Adresse bestätigen',
  verifyExpiry: 'Der Code und der Link sind 24 Stunden lang gültig.',
  verifyIgnore: 'Falls Sie das nicht angefordert haben, können Sie diese E-Mail einfach ignorieren.',
  resetSubject: 'Passwort für {{app}} zurücksetzen',
  resetHeading: 'Passwort zurücksetzen',
  resetIntro:
    'Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei {{app}} zurückzusetzen. Über den folgenden Link können Sie ein neues Passwort festlegen.',
  resetButton: 'Neues Passwort festlegen',
  resetExpiry: 'Der Link ist 30 Minuten lang gültig.',
  resetIgnore:
    'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail einfach. Ihr Passwort bleibt dann unverändert.',
  linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
  footer: 'Dies ist eine automatisch versendete Nachricht von {{app}}.',
};

const es: MailStrings = {
  verifySubject: 'Confirma tu correo electrónico en {{app}}',
  verifyHeading: 'Confirma tu dirección de correo electrónico',
  verifyCodeIntro:
    'Escribe este código en el sitio web de {{app}} para confirmar tu dirección de correo electrónico:',
  verifyLinkIntro: 'O confírmala con un solo clic:',
  verifyButton: 'Confirmar correo electrónico',
  verifyExpiry: 'El código y el enlace son válidos durante 24 horas.',
  verifyIgnore: 'Si no lo solicitaste, puedes ignorar este correo sin problema.',
  resetSubject: 'Restablece tu contraseña de {{app}}',
  resetHeading: 'Restablece tu contraseña',
  resetIntro:
    'Recibimos una solicitud para restablecer la contraseña de tu cuenta de {{app}}. Usa el siguiente enlace para elegir una nueva.',
  resetButton: 'Elegir una contraseña nueva',
  resetExpiry: 'El enlace es válido durante 30 minutos.',
  resetIgnore: 'Si no lo solicitaste, simplemente ignora este correo. Tu contraseña no cambiará.',
  linkFallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
  footer: 'Este es un mensaje automático de {{app}}.',
};

// French typography: no-break space before ':'.
const fr: MailStrings = {
  verifySubject: 'Confirmez votre adresse e-mail pour {{app}}',
  verifyHeading: 'Confirmez votre adresse e-mail',
  verifyCodeIntro: 'Saisissez ce code sur le site de {{app}} pour confirmer votre adresse e-mail\u00a0:',
  verifyLinkIntro: 'Ou confirmez-la en un seul clic\u00a0:',
  verifyButton: 'Confirmer l’adresse e-mail',
  verifyExpiry: 'Le code et le lien sont valables 24 heures.',
  verifyIgnore: 'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer cet e-mail.',
  resetSubject: 'Réinitialisez votre mot de passe {{app}}',
  resetHeading: 'Réinitialisez votre mot de passe',
  resetIntro:
    'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte {{app}}. Utilisez le lien ci-dessous pour en choisir un nouveau.',
  resetButton: 'Choisir un nouveau mot de passe',
  resetExpiry: 'Ce lien est valable 30 minutes.',
  resetIgnore:
    'Si vous n’êtes pas à l’origine de cette demande, ignorez simplement cet e-mail. Votre mot de passe ne sera pas modifié.',
  linkFallback: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:',
  footer: 'Ceci est un message automatique de {{app}}.',
};

const ja: MailStrings = {
  verifySubject: '【{{app}}】メールアドレスの確認',
  verifyHeading: 'メールアドレスの確認',
  verifyCodeIntro: '{{app}}のウェブサイトで次の確認コードを入力し、メールアドレスの確認を完了してください。',
  verifyLinkIntro: '以下のリンクからワンクリックで確認することもできます。',
  verifyButton: 'メールアドレスを確認する',
  verifyExpiry: '確認コードとリンクの有効期限は24時間です。',
  verifyIgnore: 'お心当たりのない場合は、このメールを破棄してください。',
  resetSubject: '【{{app}}】パスワード再設定のご案内',
  resetHeading: 'パスワードの再設定',
  resetIntro:
    '{{app}}アカウントのパスワード再設定のリクエストを受け付けました。以下のリンクから新しいパスワードを設定してください。',
  resetButton: '新しいパスワードを設定する',
  resetExpiry: 'リンクの有効期限は30分です。',
  resetIgnore: 'お心当たりのない場合は、このメールを無視してください。パスワードは変更されません。',
  linkFallback: 'ボタンが機能しない場合は、次のリンクをコピーしてブラウザに貼り付けてください。',
  footer: 'このメールは{{app}}から自動送信されています。',
};

const ko: MailStrings = {
  verifySubject: '[{{app}}] 이메일 주소를 인증해 주세요',
  verifyHeading: '이메일 주소 인증',
  verifyCodeIntro: '{{app}} 웹사이트에 아래 코드를 입력하여 이메일 주소를 인증해 주세요.',
  verifyLinkIntro: '또는 아래 링크를 클릭하여 바로 인증할 수도 있습니다.',
  verifyButton: '이메일 주소 인증하기',
  verifyExpiry: '코드와 링크는 24시간 동안 유효합니다.',
  verifyIgnore: '본인이 요청하지 않았다면 이 이메일은 무시하셔도 됩니다.',
  resetSubject: '[{{app}}] 비밀번호 재설정 안내',
  resetHeading: '비밀번호 재설정',
  resetIntro: '{{app}} 계정의 비밀번호 재설정 요청을 받았습니다. 아래 링크에서 새 비밀번호를 설정해 주세요.',
  resetButton: '새 비밀번호 설정하기',
  resetExpiry: '링크는 30분 동안 유효합니다.',
  resetIgnore: '본인이 요청하지 않았다면 이 이메일을 무시하세요. 비밀번호는 변경되지 않습니다.',
  linkFallback: '버튼이 작동하지 않으면 아래 링크를 복사하여 브라우저에 붙여 넣으세요.',
  footer: '이 메일은 {{app}}에서 자동으로 발송되었습니다.',
};

// Brazilian Portuguese.
const pt: MailStrings = {
  verifySubject: '{{app}}: confirme seu endereço de e-mail',
  verifyHeading: 'Confirme seu endereço de e-mail',
  verifyCodeIntro: 'Digite este código no site do {{app}} para confirmar seu endereço de e-mail:',
  verifyLinkIntro: 'Ou confirme com apenas um clique:',
  verifyButton: 'Confirmar e-mail',
  verifyExpiry: 'O código e o link são válidos por 24 horas.',
  verifyIgnore: 'Se você não fez essa solicitação, pode ignorar este e-mail com segurança.',
  resetSubject: '{{app}}: redefina sua senha',
  resetHeading: 'Redefina sua senha',
  resetIntro:
    'Recebemos uma solicitação para redefinir a senha da sua conta no {{app}}. Use o link abaixo para escolher uma nova.',
  resetButton: 'Escolher uma nova senha',
  resetExpiry: 'O link é válido por 30 minutos.',
  resetIgnore: 'Se você não fez essa solicitação, ignore este e-mail. Sua senha não será alterada.',
  linkFallback: 'Se o botão não funcionar, copie este link e cole no seu navegador:',
  footer: 'Esta é uma mensagem automática do {{app}}.',
};

// Traditional Chinese (Taiwan).
const tw: MailStrings = {
  verifySubject: '【{{app}}】驗證您的電子郵件地址',
  verifyHeading: '驗證您的電子郵件地址',
  verifyCodeIntro: '請在 {{app}} 網站上輸入以下驗證碼，以完成電子郵件地址驗證：',
  verifyLinkIntro: '您也可以點選下方連結，一鍵完成驗證：',
  verifyButton: '驗證電子郵件地址',
  verifyExpiry: '驗證碼與連結在 24 小時內有效。',
  verifyIgnore: '如果您並未提出此要求，請忽略這封郵件。',
  resetSubject: '【{{app}}】重設您的密碼',
  resetHeading: '重設密碼',
  resetIntro: '我們收到了重設您 {{app}} 帳號密碼的要求。請透過下方連結設定新密碼。',
  resetButton: '設定新密碼',
  resetExpiry: '此連結在 30 分鐘內有效。',
  resetIgnore: '如果您並未提出此要求，請忽略這封郵件，您的密碼將維持不變。',
  linkFallback: '如果按鈕無法使用，請將以下連結複製到瀏覽器中開啟：',
  footer: '這是由 {{app}} 自動寄送的郵件。',
};

const vi: MailStrings = {
  verifySubject: '{{app}}: Xác minh địa chỉ email của bạn',
  verifyHeading: 'Xác minh địa chỉ email của bạn',
  verifyCodeIntro: 'Nhập mã này trên trang web {{app}} để xác minh địa chỉ email của bạn:',
  verifyLinkIntro: 'Hoặc xác minh chỉ với một cú nhấp:',
  verifyButton: 'Xác minh địa chỉ email',
  verifyExpiry: 'Mã và liên kết có hiệu lực trong 24 giờ.',
  verifyIgnore: 'Nếu bạn không yêu cầu điều này, bạn có thể yên tâm bỏ qua email này.',
  resetSubject: '{{app}}: Đặt lại mật khẩu của bạn',
  resetHeading: 'Đặt lại mật khẩu',
  resetIntro:
    'Chúng tôi đã nhận được yêu cầu đặt lại mật khẩu cho tài khoản {{app}} của bạn. Hãy dùng liên kết bên dưới để chọn mật khẩu mới.',
  resetButton: 'Chọn mật khẩu mới',
  resetExpiry: 'Liên kết có hiệu lực trong 30 phút.',
  resetIgnore: 'Nếu bạn không yêu cầu điều này, hãy bỏ qua email này. Mật khẩu của bạn sẽ không thay đổi.',
  linkFallback: 'Nếu nút không hoạt động, hãy sao chép liên kết này và dán vào trình duyệt:',
  footer: 'Đây là email tự động từ {{app}}.',
};

// Simplified Chinese.
const zh: MailStrings = {
  verifySubject: '【{{app}}】验证您的邮箱地址',
  verifyHeading: '验证您的邮箱地址',
  verifyCodeIntro: '请在 {{app}} 网站上输入以下验证码，完成邮箱验证：',
  verifyLinkIntro: '您也可以点击下方链接，一键完成验证：',
  verifyButton: '验证邮箱',
  verifyExpiry: '验证码和链接在 24 小时内有效。',
  verifyIgnore: '如果这不是您本人的操作，请忽略此邮件。',
  resetSubject: '【{{app}}】重置您的密码',
  resetHeading: '重置密码',
  resetIntro: '我们收到了重置您 {{app}} 账户密码的请求。请通过下方链接设置新密码。',
  resetButton: '设置新密码',
  resetExpiry: '该链接在 30 分钟内有效。',
  resetIgnore: '如果这不是您本人的操作，请忽略此邮件，您的密码不会被更改。',
  linkFallback: '如果按钮无法点击，请将以下链接复制到浏览器中打开：',
  footer: '这是一封由 {{app}} 自动发送的邮件。',
};

export const MAIL_STRINGS: Readonly<Record<Locale, MailStrings>> = { en, de, es, fr, ja, ko, pt, tw, vi, zh };

/**
 * Replaces `{{name}}` with `vars.name`. Unknown placeholders are left as they are,
 * so a typo shows up in the mail instead of silently vanishing.
 */
export function interpolate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    Object.hasOwn(vars, name) ? (vars[name] as string) : match,
  );
}
