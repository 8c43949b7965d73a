/**
 * Every corpus query on which our api.php does not answer exactly as MediaWiki 1.39 did, with
 * the reason. The agreement test fails on a difference not listed here, and on a listed query
 * that no longer differs, so this list stays the true account of what is left.
 */
const NEWER_CATALOGUE = 'The catalogue describes a newer MediaWiki than the 1.39 that was recorded:';
const ASSUMED_PAGES =
  'The validator takes the pages a query names to exist (this wiki has none, so a real answer would say nothing);';

const ASSUMED_USERS =
  'The validator takes the users a query names to exist, as it does pages (it has no accounts to look at);';

export const knownDifferences: Record<string, string> = {
  'format=json&action=query&list=allpages&apfilterredir=x&errorlang=en&errorformat=raw':
    "errorformat=raw lists an enumeration's allowed values in MediaWiki's definition order (all, redirects, nonredirects); the catalogue keeps only the spec's sorted order.",
  'format=json&formatversion=2&action=query&list=allpages&apfilterredir=x&errorlang=en&errorformat=raw':
    "errorformat=raw lists an enumeration's allowed values in MediaWiki's definition order (all, redirects, nonredirects); the catalogue keeps only the spec's sorted order.",
  'format=json&':
    'Without an action MediaWiki shows its HTML help page (action defaults to help); this server has no help module and answers missingparam.',
  'format=json&action=delete':
    'MediaWiki has a delete module and asks for its token; this server serves only paraminfo and query, so delete is a badvalue.',
  'format=json&action=paraminfo&modules=query%2Ballpages&helpformat=html':
    'Only helpformat=none is offered: the catalogue keeps no descriptions to render.',
  'format=json&action=query&list=categorymembers&cmpageid=5':
    `${ASSUMED_PAGES} page 5 does not exist on the recording wiki (nosuchpageid).`,
  'format=json&action=query&list=backlinks&blpageid=99999':
    `${ASSUMED_PAGES} page 99999 does not exist on the recording wiki (nosuchpageid).`,
  'format=json&action=query&prop=revisions&titles=Main_Page|Foo&rvlimit=5':
    `${ASSUMED_PAGES} Foo does not exist on the recording wiki, so MediaWiki saw one page where the validator sees two (list options need a single page).`,
  'format=json&action=query&prop=revisions&titles=Main_Page|Foo&rvstart=2020-01-01T00:00:00Z':
    `${ASSUMED_PAGES} Foo does not exist on the recording wiki, so MediaWiki saw one page where the validator sees two (list options need a single page).`,
  'format=json&action=query&prop=info&inprop=protection|talkid|watched|watchers|visitingwatchers|notificationtimestamp|subjectid|url|readable|preload|displaytitle&titles=Main_Page':
    `${NEWER_CATALOGUE} inprop=preload is deprecated there, not in 1.39.`,
  'format=json&action=query&prop=revisions&titles=Main_Page&rvcontentformat-main=text/x-wiki&rvslots=main&rvprop=content':
    `${NEWER_CATALOGUE} the templated contentformat-{slot} parameters do not exist in 1.39.`,
  'format=json&action=query&prop=extlinks&titles=Main_Page&elexpandurl=1':
    `${NEWER_CATALOGUE} elexpandurl is deprecated there, not in 1.39.`,
  'format=json&action=query&list=exturlusage&euexpandurl=1':
    `${NEWER_CATALOGUE} euexpandurl is deprecated there, not in 1.39.`,
  'format=json&action=query&list=search&srsearch=foo&sroffset=-1':
    `${NEWER_CATALOGUE} sroffset has a minimum of 0 there, none in 1.39.`,
  'format=json&action=query&list=watchlist&wlowner=Foo&wltoken=abc':
    `${ASSUMED_USERS} Foo has no account on the recording wiki (bad_wlowner); for an account the validator answers as MediaWiki does for Admin (bad_wltoken: a new account's token is empty).`,
  'format=json&action=query&list=watchlist&wlowner=Foo&wltoken=x':
    `${ASSUMED_USERS} Foo has no account on the recording wiki (bad_wlowner); for an account the validator answers as MediaWiki does for Admin (bad_wltoken: a new account's token is empty).`,
  ...Object.fromEntries(
    ['ucuser=Foo&ucshow=!minor|minor', 'ucuser=Foo&ucshow=new|!new', 'ucuser=Foo&ucshow=top|!top',
      'ucuser=Foo&ucshow=patrolled|!patrolled', 'ucuser=Foo&ucshow=autopatrolled|!autopatrolled',
      'ucuser=Foo&ucshow=patrolled', 'ucuser=1.2.3.4&ucshow=minor|!minor', 'ucuser=1.2.3.4&ucshow=patrolled'].map((rest) => [
      `format=json&action=query&list=usercontribs&${rest}`,
      `${ASSUMED_USERS} the user has no contributions on the recording wiki, so MediaWiki never reached its show and patrol checks (they run per batch of users found).`,
    ]),
  ),
  'format=json&action=query&list=usercontribs&ucuser=Foo&uccontinue=bad':
    `${ASSUMED_USERS} Foo has no account on the recording wiki, so MediaWiki found no contributions to continue.`,
};

const NO_RULE = 'A check the validator has no rule for yet:';
const INTERNAL_ERROR =
  'MediaWiki 1.39 fails with an internal exception (a continue value whose timestamp cannot parse, or a user id in generator mode); the validator answers what a client can act on.';
const REVISIONS_PAGE_CONTINUE = `${NO_RULE} revisions checks a continue value in its per-page mode too (page id|revision id); the validator only in its list mode.`;

/**
 * The same account for the generated splits (generated-corpus.ts, recorded by record.ts
 * --split). The tuning split's differences were read while the rules were fixed; the held-out
 * split's only after the last rule change that was not about them, to write these reasons (see
 * the README's account of the agreement test).
 */
export const generatedDifferences: Record<string, string> = {
  // tuning split
  'format=json&formatversion=2&action=query&generator=alldeletedrevisions&titles=Main_Page&gadrcontinue=1':
    `${NO_RULE} alldeletedrevisions checks its continue value in generator mode too, where the validator skips its parseParameters checks.`,
  'format=json&action=query&list=exturlusage&eucontinue=1&eucontinue=foo&euquery=%23':
    `${NO_RULE} euquery=# is no URL pattern (badquery), refused before the continue value.`,
  'format=json&formatversion=2&action=query&prop=revisions&titles=Main_Page&rvexpandtemplates=true&rvcontentformat=unknown%2Funknown&rvdifftotext=1':
    'MediaWiki warns that the content format is not supported by the page\'s content model; the validator knows no page\'s content model.',
  'format=json&action=query&list=allusers&auexcludegroup=interface-admin|bot&aurights=delete-redirect|viewmywatchlist|purge&auprop=99':
    `${NO_RULE} allusers turns aurights into a group filter and then refuses it with auexcludegroup (naming augroup).`,
  'format=json&action=query&list=allrevisions&pageids=1&arvcontinue=x|': INTERNAL_ERROR,
  'format=json&action=query&generator=alldeletedrevisions&revids=1&gadruser=%231&gadrexpandtemplates=%2500&gadrdifftotext=foo': INTERNAL_ERROR,
  'format=json&action=query&prop=imageinfo&iibadfilecontexttitle=%00':
    `${NO_RULE} imageinfo refuses an invalid iibadfilecontexttitle (invalid-title).`,
  // held-out split
  'format=json&action=query&generator=embeddedin&titles=Main%20Page&geidir=descending&geipageid=1&geicontinue=0|Foo|1':
    `${NO_RULE} backlinks compares the continue value's fields with the root page's namespace and title; the validator only counts them.`,
  'format=json&action=query&list=allrevisions&arvparse=true&arvcontinue=x|': INTERNAL_ERROR,
  'format=json&formatversion=2&action=query&list=allrevisions&arvcontinue=x|': INTERNAL_ERROR,
  'format=json&action=query&generator=allrevisions&pageids=1&garvslots=main&garvslots=main&garvcontinue=%23Foo|Main_Page': INTERNAL_ERROR,
  'format=json&formatversion=2&action=query&prop=revisions&pageids=1&rvcontinue=Main_Page&rvcontinue=%23frag': REVISIONS_PAGE_CONTINUE,
  'format=json&action=query&prop=revisions&titles=Main_Page&rvprop=flags|content|userid&rvcontinue=%23frag': REVISIONS_PAGE_CONTINUE,
  'format=json&formatversion=2&action=query&list=usercontribs&ucuser=Admin&ucuser=127.0.0.1&ucshow=patrolled|!patrolled|autopatrolled':
    `${ASSUMED_USERS} 127.0.0.1 (the last ucuser wins) has no contributions on the recording wiki, so MediaWiki never reached its show check.`,
  'format=json&action=query&generator=querypage&gqppage=Unwatchedpages':
    `${NO_RULE} the Unwatchedpages query page needs the unwatchedpages right (specialpage-cantexecute).`,
  'format=json&action=query&list=recentchanges&titles=Main%20Page&rcprop=patrolled|tags|flags&rcprop=parsedcomment|patrolled':
    `${NO_RULE} rcprop=patrolled needs the patrol right; the validator checks only the patrol flags of rcshow.`,
};
