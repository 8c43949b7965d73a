/**
 * Single sign-on's refusals (the relying party's and the account service's English sentences,
 * matched in ../../service-messages.ts), spread into en.ts; each language has its own file here.
 */
export const ssoEn = {
  'service.sentence.ssoUnreachable': 'The sign-in provider ({name}) cannot be reached. Please try again later.',
  'service.sentence.ssoFlowLost': 'This sign-in was not started in this browser, or took too long. Please start again.',
  'service.sentence.ssoCancelled': 'The sign-in was cancelled at the provider.',
  'service.sentence.ssoProviderRefused': 'The provider did not sign you in. Please start again.',
  'service.sentence.ssoUnverifiable': 'The answer from the sign-in provider could not be verified. Please start again.',
  'service.sentence.passwordsOff': 'Password sign-in is turned off on this server: use single sign-on.',
  'service.sentence.ssoNoEmail': 'The sign-in provider did not tell your e-mail address (ask for the email scope).',
  'service.sentence.ssoEmailUnverified': 'The sign-in provider has not verified your e-mail address, so it cannot be used to sign in here.',
  'service.sentence.ssoOtherPerson': 'This e-mail address belongs to an account of another person at the sign-in provider. Ask an administrator.',
  'service.sentence.ssoSignUpClosed': 'There is no account for your e-mail address here, and new accounts are not being made.',
  'service.sentence.ssoInviteNeeded': 'There is no account for your e-mail address here: new accounts need a valid invite link.',
  'service.sentence.ssoAccountDeleted': 'This account was deleted. Please try again.',
  'service.sentence.emailDomainsOnly': 'Accounts on this server are only for addresses at {domains}.',
};
