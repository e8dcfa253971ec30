// The page chrome of /api/docs (docs-page.ts) in the ten interface languages: headings, the
// introduction, navigation, labels. Operation summaries and schemas come from the OpenAPI
// document and stay as written there. Every language has exactly the keys of `en` (the compiler
// checks it through DocsStrings). Placeholders: {{app}}, {{version}}.
import type { Locale } from '../../common/locales';

const en = {
  title: '{{app}} API reference',
  intro:
    'Every answer is the envelope {code, message, data}. Authenticate with an API key (Authorization: Bearer csk_…, created in your profile) or the session. Uploads use tus 1.0 at /self-api/v1/uploads. Webhooks are signed per Standard Webhooks.',
  machine: 'Machine-readable:',
  sections: 'Sections',
  public: 'No sign-in needed',
  keyOrSession: 'API key or session',
  sessionOnly: 'Session only (not with an API key)',
  parameter: 'Parameter',
  in: 'In',
  schema: 'Schema',
  required: 'required',
  body: 'Body',
  Transcripts: 'Transcripts',
  Folders: 'Folders',
  Shares: 'Shares',
  Webhooks: 'Webhooks',
  'API keys': 'API keys',
  Billing: 'Billing',
  'Public pages': 'Public pages',
  Workspaces: 'Workspaces',
};

export type DocsStrings = typeof en;

const de: DocsStrings = {
  title: '{{app}} API-Referenz',
  intro:
    'Jede Antwort ist der Umschlag {code, message, data}. Authentifizieren Sie sich mit einem API-Schlüssel (Authorization: Bearer csk_…, im Profil erstellt) oder der Sitzung. Uploads nutzen tus 1.0 unter /self-api/v1/uploads. Webhooks werden nach Standard Webhooks signiert.',
  machine: 'Maschinenlesbar:',
  sections: 'Bereiche',
  public: 'Ohne Anmeldung',
  keyOrSession: 'API-Schlüssel oder Sitzung',
  sessionOnly: 'Nur mit Sitzung (nicht mit API-Schlüssel)',
  parameter: 'Parameter',
  in: 'In',
  schema: 'Schema',
  required: 'erforderlich',
  body: 'Body',
  Transcripts: 'Transkripte',
  Folders: 'Ordner',
  Shares: 'Freigaben',
  Webhooks: 'Webhooks',
  'API keys': 'API-Schlüssel',
  Billing: 'Abrechnung',
  'Public pages': 'Öffentliche Seiten',
  Workspaces: 'Arbeitsbereiche',
};

const es: DocsStrings = {
  title: 'Referencia de la API de {{app}}',
  intro:
    'Cada respuesta es el sobre {code, message, data}. Autentícate con una clave de API (Authorization: Bearer csk_…, creada en tu perfil) o con la sesión. Las subidas usan tus 1.0 en /self-api/v1/uploads. Los webhooks se firman según Standard Webhooks.',
  machine: 'Legible por máquinas:',
  sections: 'Secciones',
  public: 'No requiere iniciar sesión',
  keyOrSession: 'Clave de API o sesión',
  sessionOnly: 'Solo con sesión (no con clave de API)',
  parameter: 'Parámetro',
  in: 'En',
  schema: 'Esquema',
  required: 'obligatorio',
  body: 'Cuerpo',
  Transcripts: 'Transcripciones',
  Folders: 'Carpetas',
  Shares: 'Enlaces compartidos',
  Webhooks: 'Webhooks',
  'API keys': 'Claves de API',
  Billing: 'Facturación',
  'Public pages': 'Páginas públicas',
  Workspaces: 'Espacios de trabajo',
};

const fr: DocsStrings = {
  title: 'Référence de l’API {{app}}',
  intro:
    'Chaque réponse est l’enveloppe {code, message, data}. Authentifiez-vous avec une clé d’API (Authorization: Bearer csk_…, créée dans votre profil) ou avec la session. Les envois utilisent tus 1.0 sur /self-api/v1/uploads. Les webhooks sont signés selon Standard Webhooks.',
  machine: 'Lisible par machine :',
  sections: 'Sections',
  public: 'Sans connexion',
  keyOrSession: 'Clé d’API ou session',
  sessionOnly: 'Session uniquement (pas avec une clé d’API)',
  parameter: 'Paramètre',
  in: 'Dans',
  schema: 'Schéma',
  required: 'obligatoire',
  body: 'Corps',
  Transcripts: 'Transcriptions',
  Folders: 'Dossiers',
  Shares: 'Partages',
  Webhooks: 'Webhooks',
  'API keys': 'Clés d’API',
  Billing: 'Facturation',
  'Public pages': 'Pages publiques',
  Workspaces: 'Espaces de travail',
};

const ja: DocsStrings = {
  title: '{{app}} API リファレンス',
  intro:
    'すべての応答は {code, message, data} の形式です。API キー（Authorization: Bearer csk_…、プロフィールで作成）またはセッションで認証します。アップロードは /self-api/v1/uploads の tus 1.0 を使います。Webhook は Standard Webhooks に従って署名されます。',
  machine: '機械可読形式：',
  sections: 'セクション',
  public: 'ログイン不要',
  keyOrSession: 'API キーまたはセッション',
  sessionOnly: 'セッションのみ（API キーは不可）',
  parameter: 'パラメーター',
  in: '場所',
  schema: 'スキーマ',
  required: '必須',
  body: 'ボディ',
  Transcripts: '文字起こし',
  Folders: 'フォルダ',
  Shares: '共有リンク',
  Webhooks: 'Webhook',
  'API keys': 'API キー',
  Billing: '請求',
  'Public pages': '公開ページ',
  Workspaces: 'ワークスペース',
};

const ko: DocsStrings = {
  title: '{{app}} API 레퍼런스',
  intro:
    '모든 응답은 {code, message, data} 형식입니다. API 키(Authorization: Bearer csk_…, 프로필에서 생성) 또는 세션으로 인증하세요. 업로드는 /self-api/v1/uploads의 tus 1.0을 사용합니다. 웹훅은 Standard Webhooks에 따라 서명됩니다.',
  machine: '기계 판독용:',
  sections: '섹션',
  public: '로그인 필요 없음',
  keyOrSession: 'API 키 또는 세션',
  sessionOnly: '세션 전용 (API 키 불가)',
  parameter: '매개변수',
  in: '위치',
  schema: '스키마',
  required: '필수',
  body: '본문',
  Transcripts: '변환 기록',
  Folders: '폴더',
  Shares: '공유 링크',
  Webhooks: '웹훅',
  'API keys': 'API 키',
  Billing: '결제',
  'Public pages': '공개 페이지',
  Workspaces: '워크스페이스',
};

const pt: DocsStrings = {
  title: 'Referência da API do {{app}}',
  intro:
    'Toda resposta é o envelope {code, message, data}. Autentique-se com uma chave de API (Authorization: Bearer csk_…, criada no seu perfil) ou com a sessão. Os envios usam tus 1.0 em /self-api/v1/uploads. Os webhooks são assinados conforme o Standard Webhooks.',
  machine: 'Legível por máquina:',
  sections: 'Seções',
  public: 'Não exige login',
  keyOrSession: 'Chave de API ou sessão',
  sessionOnly: 'Somente sessão (não com chave de API)',
  parameter: 'Parâmetro',
  in: 'Em',
  schema: 'Esquema',
  required: 'obrigatório',
  body: 'Corpo',
  Transcripts: 'Transcrições',
  Folders: 'Pastas',
  Shares: 'Compartilhamentos',
  Webhooks: 'Webhooks',
  'API keys': 'Chaves de API',
  Billing: 'Cobrança',
  'Public pages': 'Páginas públicas',
  Workspaces: 'Espaços de trabalho',
};

const tw: DocsStrings = {
  title: '{{app}} API 參考文件',
  intro:
    '每個回應都是 {code, message, data} 格式。請使用 API 金鑰（Authorization: Bearer csk_…，在個人檔案中建立）或登入工作階段驗證。上傳使用 /self-api/v1/uploads 的 tus 1.0。Webhook 依 Standard Webhooks 簽署。',
  machine: '機器可讀格式：',
  sections: '章節',
  public: '不需登入',
  keyOrSession: 'API 金鑰或工作階段',
  sessionOnly: '僅限工作階段（不可使用 API 金鑰）',
  parameter: '參數',
  in: '位置',
  schema: '結構描述',
  required: '必填',
  body: '內容',
  Transcripts: '轉錄稿',
  Folders: '資料夾',
  Shares: '分享連結',
  Webhooks: 'Webhook',
  'API keys': 'API 金鑰',
  Billing: '帳務',
  'Public pages': '公開頁面',
  Workspaces: '工作區',
};

const vi: DocsStrings = {
  title: 'Tài liệu tham khảo API {{app}}',
  intro:
    'Mọi phản hồi đều có dạng {code, message, data}. Xác thực bằng khóa API (Authorization: Bearer csk_…, tạo trong hồ sơ của bạn) hoặc bằng phiên đăng nhập. Tải lên dùng tus 1.0 tại /self-api/v1/uploads. Webhook được ký theo Standard Webhooks.',
  machine: 'Dạng máy đọc được:',
  sections: 'Mục',
  public: 'Không cần đăng nhập',
  keyOrSession: 'Khóa API hoặc phiên đăng nhập',
  sessionOnly: 'Chỉ phiên đăng nhập (không dùng khóa API)',
  parameter: 'Tham số',
  in: 'Vị trí',
  schema: 'Lược đồ',
  required: 'bắt buộc',
  body: 'Nội dung',
  Transcripts: 'Bản chép lời',
  Folders: 'Thư mục',
  Shares: 'Liên kết chia sẻ',
  Webhooks: 'Webhook',
  'API keys': 'Khóa API',
  Billing: 'Thanh toán',
  'Public pages': 'Trang công khai',
  Workspaces: 'Không gian làm việc',
};

const zh: DocsStrings = {
  title: '{{app}} API 参考文档',
  intro:
    '每个响应都是 {code, message, data} 格式。请使用 API 密钥（Authorization: Bearer csk_…，在个人资料中创建）或登录会话进行认证。上传使用 /self-api/v1/uploads 的 tus 1.0。Webhook 按 Standard Webhooks 签名。',
  machine: '机器可读格式：',
  sections: '章节',
  public: '无需登录',
  keyOrSession: 'API 密钥或会话',
  sessionOnly: '仅限会话（不可使用 API 密钥）',
  parameter: '参数',
  in: '位置',
  schema: '结构',
  required: '必填',
  body: '请求体',
  Transcripts: '转录稿',
  Folders: '文件夹',
  Shares: '分享链接',
  Webhooks: 'Webhook',
  'API keys': 'API 密钥',
  Billing: '账单',
  'Public pages': '公开页面',
  Workspaces: '工作区',
};

export const DOCS_STRINGS: Record<Locale, DocsStrings> = { en, de, es, fr, ja, ko, pt, tw, vi, zh };
