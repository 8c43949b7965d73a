/** Linked secrets on the create page and the owner's pages (pages/linked/); spread into en.ts, each language its own file here. */
export const linkedEn = {
  "linked.opensAfter": "Opens after another push",
  "linked.choose": "Opens only after this push of yours was opened by the recipient",
  "linked.none": "No: opens on its own",
  "linked.pasteLink": "Or paste the link of one of your pushes",
  "linked.orFrom": "Or from this time in any case (optional)",
  "linked.hint": "The recipient has to open the first link in the same browser before this one opens; from the time above, it opens anyway.",
  "linked.label": "{name} · {created} · …{tail}",
  "linked.gone": "a push that no longer exists",
  "linked.opensAfterLabel": "Opens after: {label}",
  "linked.opensAfterUntil": "Opens after: {label} (or from {until})",
  "field.follows": "Opens after",
  "field.follows_until": "Or from",
  "service.followsOwn": "must be the link of one of your own pushes",
  "service.followsAccount": "needs an account: only a push of your own can be followed",
  "service.followsNeedsFollows": "needs the push this one opens after",
} as const;
