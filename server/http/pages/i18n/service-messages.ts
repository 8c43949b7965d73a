import type { MessageKey } from './messages/en.js';
import type { Translate } from './translator.js';

/**
 * The services' field messages are English sentences (they are the API's answers too, which
 * Password Pusher clients read as they are). A page shows them in its own language: each known
 * sentence, with its numbers, has a message key; one not listed here is shown as the service
 * wrote it.
 */
const FIELD_MESSAGES: [RegExp, MessageKey, string[]][] = [
  [/^must be between 0 \(off\) and (\d+)$/, 'service.betweenOff', ['max']],
  [/^must be between (-?\d+) and (-?\d+)$/, 'service.between', ['min', 'max']],
  [/^is too long \(maximum is (\d+) characters\)$/, 'service.tooLong', ['max']],
  [/^is too short \(minimum is (\d+) characters\)$/, 'service.tooShort', ['min']],
  [/^is too long$/, 'service.tooLongPlain', []],
  [/^can't be blank$/, 'service.blank', []],
  [/^must be an http or https URL$/, 'service.httpUrl', []],
  [/^is not a valid email address$/, 'service.email', []],
  [/^must include at least one file for a file push$/, 'service.needsFile', []],
  [/^needs a passphrase \(it counts wrong passphrases\)$/, 'service.burnNeedsPassphrase', []],
  [/^choose at least one event$/, 'service.chooseEvent', []],
  [/^must not contain control characters \(line breaks, tabs, NUL…\) in a URL$/, 'service.urlControl', []],
  [/^This invite link is not valid: it has been used, has expired, or is for another address\.$/, 'service.inviteInvalid', []],
  // Changing the account's address (server/accounts/email-change.ts).
  [/^is already your address$/, 'service.alreadyYourAddress', []],
  [/^is wrong$/, 'service.wrongCurrentPassword', []],
  [/^cannot be changed here: this account signs in through single sign-on, and its address comes from the identity provider$/, 'service.ssoAddress', []],
  // E-mailing a secret's link (notify_emails, pushes.emailLink)
  [/^(".*") is not an e-mail address$/, 'service.notEmailAddress', ['address']],
  [/^at most (\d+) addresses$/, 'service.atMostAddresses', ['max']],
  [/^must be a list of e-mail addresses$/, 'service.emailList', []],
  [/^at least one e-mail address is needed$/, 'service.atLeastOneAddress', []],
  [/^needs an account: anonymous pushes cannot be e-mailed$/, 'service.anonymousMail', []],
  [/^e-mail is not set up on this server$/, 'service.mailNotSetUp', []],
  [/^cannot be used with an end-to-end push: the server does not have its key$/, 'service.endToEndMail', []],
  [/^this push has expired$/, 'service.pushExpired', []],
  [/^an end-to-end push needs the key of its link$/, 'service.linkKeyNeeded', []],
  // Linked secrets (pushes/push-input.ts, push-service.ts followedPush).
  [/^must be the link (?:\(or URL token\) )?of one of your own pushes$/, 'service.followsOwn', []],
  [/^needs an account: only a push of your own can be followed$/, 'service.followsAccount', []],
  [/^needs follows \(the push this one follows\)$/, 'service.followsNeedsFollows', []],
];

/**
 * The services' whole sentences that a page shows as they are (an error page's text, a refused
 * form's notice), by the same rule: known ones in the page's language, others as written.
 */
const SENTENCES: [RegExp, MessageKey, string[]][] = [
  [/^That push doesn't belong to you\.$/, 'service.sentence.notYourPush', []],
  [/^That request doesn't belong to you\.$/, 'service.sentence.notYourRequest', []],
  [/^You need to sign in or sign up before continuing\.$/, 'service.sentence.signInFirst', []],
  [/^You must be signed in to attach files\.$/, 'service.sentence.signInForFiles', []],
  [/^Authentication required: this instance does not allow anonymous access\.$/, 'service.sentence.noAnonymous', []],
  [/^This download link is invalid or has expired\. Open the secret link again\.$/, 'service.sentence.downloadExpired', []],
  [/^Invalid email or password\.$/, 'service.sentence.badCredentials', []],
  [/^Too many accounts were made from your address \(the limit is (\d+) an hour\)\. Please try again later\.$/, 'service.sentence.tooManyAccounts', ['max']],
  [/^A file is larger than the limit of (.+)\.$/, 'service.sentence.fileTooLarge', ['limit']],
  [/^This push cannot be decrypted with the server's key\. The administrator must restore the MASTER_KEY it was stored under\.$/, 'service.sentence.masterKey', []],
  [/^The server is busy checking passwords and passphrases\. Please try again in a few seconds\.$/, 'service.sentence.hashingBusy', []],
  [/^This account no longer exists\.$/, 'service.sentence.accountGone', []],
  [/^Request body too large: the limit is (\d+) bytes\.$/, 'service.sentence.bodyTooLarge', ['max!']],
  [/^Too many form fields: the limit is (\d+) in one body\.$/, 'service.sentence.tooManyFields', ['max!']],
  [/^Too many failed sign-in attempts from your address\. Please wait, then try again\.$/, 'service.sentence.signInLimited', []],
  [/^This account is locked\. Ask an administrator\.$/, 'service.sentence.accountLocked', []],
  [/^Sign in to create a push: this instance does not allow anonymous creation\.$/, 'service.sentence.createNeedsAccount', []],
  [/^Administrators only\.$/, 'service.sentence.adminsOnly', []],
  [/^This invite cannot be revoked: it does not exist, was used, has expired or was revoked already\.$/, 'service.sentence.inviteNotOpen', []],
  [/^This upload did not come from this site's create page \(its CSRF token is missing or stale\): reload the page\.$/, 'service.sentence.staleUpload', []],
  [/^Too many secret links were e-mailed \(at most (\d+) recipients per account and (\d+) links per address a day\)\. Please try again later\.$/, 'service.sentence.tooManyLinkMails', ['perAccount', 'perAddress']],
  // Single sign-on's refusals (accounts/oidc/relying-party.ts, accounts/account-service.ts).
  [/^The sign-in provider \((.+)\) cannot be reached\. Please try again later\.$/, 'service.sentence.ssoUnreachable', ['name']],
  [/^This sign-in was not started in this browser, or took too long\. Please start again\.$/, 'service.sentence.ssoFlowLost', []],
  [/^The sign-in was cancelled at the provider\.$/, 'service.sentence.ssoCancelled', []],
  [/^The provider did not sign you in\. Please start again\.$/, 'service.sentence.ssoProviderRefused', []],
  [/^The answer from the sign-in provider could not be verified\. Please start again\.$/, 'service.sentence.ssoUnverifiable', []],
  [/^Password sign-in is turned off on this server: use single sign-on\.$/, 'service.sentence.passwordsOff', []],
  [/^The sign-in provider did not tell your e-mail address \(ask for the email scope\)\.$/, 'service.sentence.ssoNoEmail', []],
  [/^The sign-in provider has not verified your e-mail address, so it cannot be used to sign in here\.$/, 'service.sentence.ssoEmailUnverified', []],
  [/^This e-mail address belongs to an account of another person at the sign-in provider\. Ask an administrator\.$/, 'service.sentence.ssoOtherPerson', []],
  [/^There is no account for your e-mail address here, and new accounts are not being made\.$/, 'service.sentence.ssoSignUpClosed', []],
  [/^There is no account for your e-mail address here: new accounts need a valid invite link\.$/, 'service.sentence.ssoInviteNeeded', []],
  [/^This account was deleted\. Please try again\.$/, 'service.sentence.ssoAccountDeleted', []],
  [/^Accounts on this server are only for addresses at (.+)\.$/, 'service.sentence.emailDomainsOnly', ['domains']],
];

function translateBy(table: [RegExp, MessageKey, string[]][], t: Translate, message: string): string {
  for (const [pattern, key, names] of table) {
    const m = pattern.exec(message);
    if (!m) continue;
    const params: Record<string, number | string> = {};
    // Whole numbers are formatted for the language; anything else (e.g. "1.5 MiB (…)") goes in as written.
    // A name ending in "!" is a figure kept as the service wrote it (a byte count reads best unformatted).
    names.forEach((name, i) => {
      const raw = name.endsWith('!');
      params[raw ? name.slice(0, -1) : name] = !raw && /^-?\d+$/.test(m[i + 1]!) ? Number(m[i + 1]) : m[i + 1]!;
    });
    return t(key, params);
  }
  return message;
}

/** A service's field message in the page's language (as written when unknown). */
export function translateFieldMessage(t: Translate, message: string): string {
  return translateBy(FIELD_MESSAGES, t, message);
}

/** A service's whole sentence (an error page's, a refused form's) in the page's language (as written when unknown). */
export function translateServiceMessage(t: Translate, message: string): string {
  return translateBy(SENTENCES, t, message);
}

/**
 * A webhook delivery's recorded failure in plain words: the network error codes Node reports
 * (ENOTFOUND…) say little to a person. The code stays beside the words, for whoever debugs it.
 */
const DELIVERY_ERRORS: [RegExp, MessageKey][] = [
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo/i, 'webhooks.error.dns'],
  [/ECONNREFUSED/i, 'webhooks.error.refused'],
  [/ETIMEDOUT|timed? ?out|TimeoutError|aborted/i, 'webhooks.error.timeout'],
  [/ECONNRESET|EPIPE|socket hang up|other side closed/i, 'webhooks.error.reset'],
  [/CERT|certificate|self[- ]signed|TLS|SSL/i, 'webhooks.error.tls'],
  [/EHOSTUNREACH|ENETUNREACH/i, 'webhooks.error.unreachable'],
];

export function describeDeliveryError(t: Translate, raw: string): string {
  const code = /\b(E[A-Z_]{3,})\b/.exec(raw)?.[1];
  const hit = DELIVERY_ERRORS.find(([pattern]) => pattern.test(raw));
  if (!hit) return t('webhooks.error.other', { detail: raw });
  return code ? `${t(hit[1])} (${code})` : t(hit[1]);
}
