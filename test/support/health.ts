// What a fake core answers to `health` in the tests of the layers that only pass it on.
export const HEALTH = {
  ok: true,
  version: '0',
  policy: 'first-responder',
  supportedPolicies: [],
  pending: 0,
  capabilities: [],
};
