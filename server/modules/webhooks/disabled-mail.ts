import type { Locale } from '../../../common/locales';
import { interpolate } from '../mail/strings';
import { renderNoticeMail, resolveMailLocale, type RenderedMail } from '../mail/templates';

// The mail to an endpoint's owner when repeated failures turned it off, in their language.
// Placeholders: {{app}}, {{url}}, {{count}}.
type Strings = { subject: string; heading: string; intro: string; fix: string; button: string };

const STRINGS: Record<Locale, Strings> = {
  en: {
    subject: 'A {{app}} webhook endpoint was turned off',
    heading: 'We stopped sending webhooks to one of your endpoints',
    intro:
      '{{count}} deliveries in a row to {{url}} failed after every retry, so we turned this endpoint off.',
    fix: 'Check that the address answers with a 2xx status, then turn the endpoint back on in your profile. Events that happen while it is off are not sent later.',
    button: 'Open my profile',
  },
  de: {
    subject: 'Ein Webhook-Endpunkt bei {{app}} wurde abgeschaltet',
    heading: 'Wir senden keine Webhooks mehr an einen Ihrer Endpunkte',
    intro:
      '{{count}} Zustellungen in Folge an {{url}} sind nach allen Wiederholungen fehlgeschlagen. Deshalb haben wir diesen Endpunkt abgeschaltet.',
    fix: 'Prüfen Sie, ob die Adresse mit einem 2xx-Status antwortet, und schalten Sie den Endpunkt dann in Ihrem Profil wieder ein. Ereignisse aus der Zwischenzeit werden nicht nachgesendet.',
    button: 'Mein Profil öffnen',
  },
  es: {
    subject: 'Se ha desactivado un endpoint de webhook de {{app}}',
    heading: 'Hemos dejado de enviar webhooks a uno de tus endpoints',
    intro:
      '{{count}} entregas seguidas a {{url}} fallaron tras todos los reintentos, así que hemos desactivado este endpoint.',
    fix: 'Comprueba que la dirección responde con un estado 2xx y vuelve a activar el endpoint en tu perfil. Los eventos ocurridos mientras estaba desactivado no se enviarán después.',
    button: 'Abrir mi perfil',
  },
  fr: {
    subject: 'Un point de terminaison webhook {{app}} a été désactivé',
    heading: "Nous n'envoyons plus de webhooks à l'un de vos points de terminaison",
    intro:
      '{{count}} livraisons de suite vers {{url}} ont échoué après toutes les nouvelles tentatives : nous avons donc désactivé ce point de terminaison.',
    fix: "Vérifiez que l'adresse répond avec un statut 2xx, puis réactivez le point de terminaison dans votre profil. Les événements survenus entre-temps ne seront pas envoyés plus tard.",
    button: 'Ouvrir mon profil',
  },
  ja: {
    subject: '{{app}} の Webhook エンドポイントを停止しました',
    heading: 'エンドポイントの1つへの Webhook 送信を停止しました',
    intro:
      '{{url}} への配信が、すべての再試行の後も {{count}} 回連続で失敗したため、このエンドポイントを停止しました。',
    fix: 'アドレスが 2xx ステータスで応答することを確認してから、プロフィールでエンドポイントを再び有効にしてください。停止中に発生したイベントは後から送信されません。',
    button: 'プロフィールを開く',
  },
  ko: {
    subject: '{{app}} 웹훅 엔드포인트가 꺼졌습니다',
    heading: '엔드포인트 하나로 웹훅 전송을 중단했습니다',
    intro: '{{url}}(으)로의 전송이 모든 재시도 후에도 {{count}}회 연속 실패하여 이 엔드포인트를 껐습니다.',
    fix: '주소가 2xx 상태로 응답하는지 확인한 다음 프로필에서 엔드포인트를 다시 켜세요. 꺼져 있는 동안 발생한 이벤트는 나중에 전송되지 않습니다.',
    button: '내 프로필 열기',
  },
  pt: {
    subject: 'Um endpoint de webhook do {{app}} foi desativado',
    heading: 'Deixámos de enviar webhooks para um dos seus endpoints',
    intro:
      '{{count}} entregas seguidas para {{url}} falharam após todas as novas tentativas, por isso desativámos este endpoint.',
    fix: 'Verifique se o endereço responde com um estado 2xx e volte a ativar o endpoint no seu perfil. Os eventos ocorridos enquanto esteve desativado não serão enviados mais tarde.',
    button: 'Abrir o meu perfil',
  },
  tw: {
    subject: '{{app}} 的 Webhook 端點已停用',
    heading: '我們已停止向您的一個端點傳送 Webhook',
    intro: '傳送到 {{url}} 的事件在所有重試後已連續 {{count}} 次失敗,因此我們停用了此端點。',
    fix: '請確認該位址會以 2xx 狀態回應,然後在個人資料中重新啟用端點。停用期間發生的事件不會補發。',
    button: '開啟我的個人資料',
  },
  vi: {
    subject: 'Một điểm nhận webhook của {{app}} đã bị tắt',
    heading: 'Chúng tôi đã ngừng gửi webhook đến một điểm nhận của bạn',
    intro:
      '{{count}} lần gửi liên tiếp đến {{url}} đều thất bại sau mọi lần thử lại, nên chúng tôi đã tắt điểm nhận này.',
    fix: 'Hãy kiểm tra địa chỉ trả về trạng thái 2xx, rồi bật lại điểm nhận trong hồ sơ của bạn. Các sự kiện xảy ra khi điểm nhận bị tắt sẽ không được gửi bù.',
    button: 'Mở hồ sơ của tôi',
  },
  zh: {
    subject: '{{app}} 的 Webhook 端点已停用',
    heading: '我们已停止向您的一个端点发送 Webhook',
    intro: '发送到 {{url}} 的事件在所有重试后已连续 {{count}} 次失败,因此我们停用了此端点。',
    fix: '请确认该地址会以 2xx 状态响应,然后在个人资料中重新启用端点。停用期间发生的事件不会补发。',
    button: '打开我的个人资料',
  },
};

export function renderEndpointDisabledMail(input: {
  lang: string;
  appName: string;
  url: string;
  failures: number;
  profileLink: string | null;
}): RenderedMail {
  const s = STRINGS[resolveMailLocale(input.lang)];
  const vars = { app: input.appName, url: input.url, count: String(input.failures) };
  const t = (text: string) => interpolate(text, vars);
  return renderNoticeMail({
    lang: input.lang,
    appName: input.appName,
    subject: t(s.subject),
    heading: t(s.heading),
    paragraphs: [t(s.intro), t(s.fix)],
    button: input.profileLink ? { link: input.profileLink, label: t(s.button) } : null,
  });
}
