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
  chooseSubject: 'Finish signing up for {{app}}',
  chooseHeading: 'Choose your password',
  chooseIntro:
    'Someone, perhaps you, signed up again with this email address while it was still waiting for confirmation. To protect it, the codes sent before no longer work. To finish signing up, choose your password with the link below; this also confirms your address.',
  chooseButton: 'Choose my password',
  chooseIgnore:
    'If it wasn’t you, ignore this email: without this link nobody can finish signing up with your address.',
  existsSubject: 'Sign-up attempt with your {{app}} address',
  existsHeading: 'You already have an account',
  existsIntro:
    'Someone, perhaps you, tried to sign up for {{app}} with this email address. It already has an account, so nothing was changed.',
  existsButton: 'Log in',
  existsReset: 'Forgot your password? Choose a new one here:',
  existsIgnore: 'If it wasn’t you, you can ignore this email: your account is safe.',
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
  chooseSubject: 'Registrierung bei {{app}} abschließen',
  chooseHeading: 'Wählen Sie Ihr Passwort',
  chooseIntro:
    'Jemand, vielleicht Sie selbst, hat sich erneut mit dieser E-Mail-Adresse registriert, während sie noch auf die Bestätigung wartete. Zu ihrem Schutz gelten die zuvor gesendeten Codes nicht mehr. Um die Registrierung abzuschließen, wählen Sie über den folgenden Link Ihr Passwort; damit ist auch Ihre Adresse bestätigt.',
  chooseButton: 'Mein Passwort wählen',
  chooseIgnore:
    'Falls Sie das nicht waren, ignorieren Sie diese E-Mail: Ohne diesen Link kann niemand die Registrierung mit Ihrer Adresse abschließen.',
  existsSubject: 'Registrierungsversuch mit Ihrer Adresse bei {{app}}',
  existsHeading: 'Sie haben bereits ein Konto',
  existsIntro:
    'Jemand, vielleicht Sie selbst, hat versucht, sich mit dieser E-Mail-Adresse bei {{app}} zu registrieren. Für diese Adresse besteht bereits ein Konto, daher wurde nichts geändert.',
  existsButton: 'Anmelden',
  existsReset: 'Passwort vergessen? Hier können Sie ein neues wählen:',
  existsIgnore: 'Falls Sie das nicht waren, können Sie diese E-Mail ignorieren: Ihr Konto ist sicher.',
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
  chooseSubject: 'Termina tu registro en {{app}}',
  chooseHeading: 'Elige tu contraseña',
  chooseIntro:
    'Alguien, quizá tú, se registró de nuevo con esta dirección de correo mientras aún esperaba confirmación. Para protegerla, los códigos enviados antes ya no funcionan. Para terminar el registro, elige tu contraseña con el enlace de abajo; así también confirmas tu dirección.',
  chooseButton: 'Elegir mi contraseña',
  chooseIgnore:
    'Si no fuiste tú, ignora este correo: sin este enlace nadie puede terminar el registro con tu dirección.',
  existsSubject: 'Intento de registro con tu dirección en {{app}}',
  existsHeading: 'Ya tienes una cuenta',
  existsIntro:
    'Alguien, quizá tú, intentó registrarse en {{app}} con esta dirección de correo. Ya tiene una cuenta, así que no se ha cambiado nada.',
  existsButton: 'Iniciar sesión',
  existsReset: '¿Olvidaste tu contraseña? Elige una nueva aquí:',
  existsIgnore: 'Si no fuiste tú, puedes ignorar este correo: tu cuenta está a salvo.',
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
  chooseSubject: 'Terminez votre inscription à {{app}}',
  chooseHeading: 'Choisissez votre mot de passe',
  chooseIntro:
    'Quelqu’un, peut-être vous, s’est de nouveau inscrit avec cette adresse e-mail alors qu’elle attendait encore sa confirmation. Pour la protéger, les codes envoyés auparavant ne fonctionnent plus. Pour terminer votre inscription, choisissez votre mot de passe avec le lien ci-dessous ; cela confirme aussi votre adresse.',
  chooseButton: 'Choisir mon mot de passe',
  chooseIgnore:
    'Si ce n’était pas vous, ignorez cet e-mail : sans ce lien, personne ne peut terminer une inscription avec votre adresse.',
  existsSubject: 'Tentative d’inscription avec votre adresse sur {{app}}',
  existsHeading: 'Vous avez déjà un compte',
  existsIntro:
    'Quelqu’un, peut-être vous, a essayé de s’inscrire à {{app}} avec cette adresse e-mail. Elle a déjà un compte, rien n’a donc été modifié.',
  existsButton: 'Se connecter',
  existsReset: 'Mot de passe oublié ? Choisissez-en un nouveau ici :',
  existsIgnore: 'Si ce n’était pas vous, vous pouvez ignorer cet e-mail : votre compte est en sécurité.',
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
  chooseSubject: '{{app}} の登録を完了してください',
  chooseHeading: 'パスワードを設定してください',
  chooseIntro:
    '確認待ちのこのメールアドレスで、どなたか（ご本人かもしれません）が再度登録しようとしました。保護のため、以前にお送りしたコードは無効になりました。登録を完了するには、下のリンクからパスワードを設定してください。これでメールアドレスの確認も完了します。',
  chooseButton: 'パスワードを設定する',
  chooseIgnore:
    'お心当たりのない場合は、このメールを無視してください。このリンクがなければ、誰もあなたのアドレスで登録を完了できません。',
  existsSubject: '{{app}} でお客様のアドレスによる登録の試み',
  existsHeading: 'すでにアカウントをお持ちです',
  existsIntro:
    'どなたか（ご本人かもしれません）が、このメールアドレスで {{app}} に登録しようとしました。このアドレスにはすでにアカウントがあるため、何も変更されていません。',
  existsButton: 'ログイン',
  existsReset: 'パスワードをお忘れですか？こちらから新しいパスワードを設定できます：',
  existsIgnore: 'お心当たりのない場合は、このメールを無視してください。アカウントは安全です。',
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
  chooseSubject: '{{app}} 가입을 완료하세요',
  chooseHeading: '비밀번호를 정하세요',
  chooseIntro:
    '확인을 기다리던 이 이메일 주소로 누군가(본인일 수도 있습니다) 다시 가입했습니다. 보호를 위해 이전에 보낸 코드는 더 이상 사용할 수 없습니다. 가입을 완료하려면 아래 링크에서 비밀번호를 정하세요. 이메일 주소 확인도 함께 완료됩니다.',
  chooseButton: '비밀번호 정하기',
  chooseIgnore:
    '본인이 아니라면 이 이메일을 무시하세요. 이 링크 없이는 누구도 이 주소로 가입을 완료할 수 없습니다.',
  existsSubject: '{{app}}에서 회원님의 주소로 가입 시도',
  existsHeading: '이미 계정이 있습니다',
  existsIntro:
    '누군가(본인일 수도 있습니다) 이 이메일 주소로 {{app}}에 가입하려고 했습니다. 이 주소에는 이미 계정이 있으므로 아무것도 변경되지 않았습니다.',
  existsButton: '로그인',
  existsReset: '비밀번호를 잊으셨나요? 여기에서 새 비밀번호를 정하세요:',
  existsIgnore: '본인이 아니라면 이 이메일은 무시하셔도 됩니다. 계정은 안전합니다.',
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
  chooseSubject: 'Conclua seu cadastro no {{app}}',
  chooseHeading: 'Escolha sua senha',
  chooseIntro:
    'Alguém, talvez você, se cadastrou de novo com este endereço de e-mail enquanto ele ainda aguardava confirmação. Para protegê-lo, os códigos enviados antes não funcionam mais. Para concluir o cadastro, escolha sua senha pelo link abaixo; isso também confirma seu endereço.',
  chooseButton: 'Escolher minha senha',
  chooseIgnore:
    'Se não foi você, ignore este e-mail: sem este link ninguém consegue concluir um cadastro com seu endereço.',
  existsSubject: 'Tentativa de cadastro com seu endereço no {{app}}',
  existsHeading: 'Você já tem uma conta',
  existsIntro:
    'Alguém, talvez você, tentou se cadastrar no {{app}} com este endereço de e-mail. Ele já tem uma conta, então nada foi alterado.',
  existsButton: 'Entrar',
  existsReset: 'Esqueceu sua senha? Escolha uma nova aqui:',
  existsIgnore: 'Se não foi você, pode ignorar este e-mail: sua conta está segura.',
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
  chooseSubject: '完成 {{app}} 的註冊',
  chooseHeading: '設定您的密碼',
  chooseIntro:
    '有人（也許是您本人）在這個電子郵件地址仍待確認時再次註冊。為了保護它，先前寄出的驗證碼已失效。若要完成註冊，請透過下方連結設定密碼；這同時也會確認您的地址。',
  chooseButton: '設定我的密碼',
  chooseIgnore: '如果不是您本人，請忽略這封郵件：沒有這個連結，任何人都無法用您的地址完成註冊。',
  existsSubject: '有人嘗試以您的地址註冊 {{app}}',
  existsHeading: '您已經有帳戶了',
  existsIntro:
    '有人（也許是您本人）嘗試以這個電子郵件地址註冊 {{app}}。這個地址已經有帳戶，因此沒有任何變更。',
  existsButton: '登入',
  existsReset: '忘記密碼了嗎？請在這裡設定新密碼：',
  existsIgnore: '如果不是您本人，可以忽略這封郵件：您的帳戶是安全的。',
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
  chooseSubject: 'Hoàn tất đăng ký {{app}}',
  chooseHeading: 'Chọn mật khẩu của bạn',
  chooseIntro:
    'Ai đó, có thể là bạn, đã đăng ký lại bằng địa chỉ email này khi nó vẫn đang chờ xác nhận. Để bảo vệ địa chỉ, các mã đã gửi trước đó không còn dùng được. Để hoàn tất đăng ký, hãy chọn mật khẩu qua liên kết bên dưới; việc này cũng xác nhận địa chỉ của bạn.',
  chooseButton: 'Chọn mật khẩu của tôi',
  chooseIgnore:
    'Nếu không phải bạn, hãy bỏ qua email này: không có liên kết này thì không ai có thể hoàn tất đăng ký bằng địa chỉ của bạn.',
  existsSubject: 'Có người thử đăng ký {{app}} bằng địa chỉ của bạn',
  existsHeading: 'Bạn đã có tài khoản',
  existsIntro:
    'Ai đó, có thể là bạn, đã thử đăng ký {{app}} bằng địa chỉ email này. Địa chỉ này đã có tài khoản nên không có gì thay đổi.',
  existsButton: 'Đăng nhập',
  existsReset: 'Quên mật khẩu? Chọn mật khẩu mới tại đây:',
  existsIgnore: 'Nếu không phải bạn, bạn có thể bỏ qua email này: tài khoản của bạn vẫn an toàn.',
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
  chooseSubject: '完成 {{app}} 注册',
  chooseHeading: '设置您的密码',
  chooseIntro:
    '有人（也许是您本人）在这个邮箱地址仍待确认时再次注册。为保护该地址，之前发送的验证码已失效。要完成注册，请通过下方链接设置密码；这同时也会确认您的地址。',
  chooseButton: '设置我的密码',
  chooseIgnore: '如果不是您本人，请忽略此邮件：没有这个链接，任何人都无法用您的地址完成注册。',
  existsSubject: '有人尝试用您的地址注册 {{app}}',
  existsHeading: '您已经有账户了',
  existsIntro: '有人（也许是您本人）尝试用这个邮箱地址注册 {{app}}。该地址已有账户，因此没有做任何更改。',
  existsButton: '登录',
  existsReset: '忘记密码？请在这里设置新密码：',
  existsIgnore: '如果不是您本人，可以忽略此邮件：您的账户是安全的。',
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
