import type { Params } from '../../rest/bracket-params.js';
import type { FollowsValues } from './follows-field.js';

/**
 * The create form's linked-secret fields turned into the API's: a pasted link (`follows_link`)
 * is `push[follows]` in place of the list's choice, and the "or from" time without scripts
 * (`follows_until_at`, the hidden push[follows_until] left empty) is read as UTC, as the
 * release time is (create-routes.tsx releaseFromForm). Nothing is checked here: the push
 * service refuses what is not the sender's own push. Answers the values to show the form again.
 */
export function followsFromForm(input: Params, params: Params): FollowsValues {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const values: FollowsValues = { follows: text(input.follows), follows_link: text(params.follows_link), follows_until_at: text(params.follows_until_at) };
  if (values.follows_link !== '') input.follows = values.follows_link;
  if (text(input.follows_until) === '' && values.follows_until_at !== '') input.follows_until = `${values.follows_until_at}Z`;
  return values;
}
