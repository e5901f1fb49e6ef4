// A loopback address nothing listens on, for the checks of a target that is down. Not a port bound and released: on a
// busy machine another test's server can take that port before the request, which then meets a reset instead of a
// refusal. Every server the tests start binds an ephemeral port, never port 1.
export const NOTHING_LISTENS = 'http://127.0.0.1:1';
