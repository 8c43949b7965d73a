import type { ssoEn } from './en.js';

/** Single sign-on's refusals in Japanese. */
export const ssoJa: Record<keyof typeof ssoEn, string> = {
  'service.sentence.ssoUnreachable': 'サインインプロバイダー（{name}）に接続できません。しばらくしてからもう一度お試しください。',
  'service.sentence.ssoFlowLost': 'このサインインはこのブラウザーで開始されていないか、時間がかかりすぎました。最初からやり直してください。',
  'service.sentence.ssoCancelled': 'サインインはプロバイダーでキャンセルされました。',
  'service.sentence.ssoProviderRefused': 'プロバイダーはサインインさせませんでした。最初からやり直してください。',
  'service.sentence.ssoUnverifiable': 'サインインプロバイダーからの応答を検証できませんでした。最初からやり直してください。',
  'service.sentence.passwordsOff': 'このサーバーではパスワードによるサインインは無効です。シングルサインオンを使ってください。',
  'service.sentence.ssoNoEmail': 'サインインプロバイダーがメールアドレスを伝えませんでした（email スコープを要求してください）。',
  'service.sentence.ssoEmailUnverified': 'サインインプロバイダーがメールアドレスを確認していないため、ここでのサインインには使えません。',
  'service.sentence.ssoOtherPerson': 'このメールアドレスは、サインインプロバイダーでは別の人のアカウントのものです。管理者に問い合わせてください。',
  'service.sentence.ssoSignUpClosed': 'このメールアドレスのアカウントはここにはなく、新しいアカウントは作成されていません。',
  'service.sentence.ssoInviteNeeded': 'このメールアドレスのアカウントはここにはありません。新しいアカウントには有効な招待リンクが必要です。',
  'service.sentence.ssoAccountDeleted': 'このアカウントは削除されました。もう一度お試しください。',
  'service.sentence.emailDomainsOnly': 'このサーバーのアカウントは {domains} のアドレス専用です。',
};
