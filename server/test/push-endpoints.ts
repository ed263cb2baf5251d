/**
 * Push endpoints the server's and the relay's host tests and the fuzz share (docs/decisions.md
 * "Push through a relay"): texts two URL parsers read as two hosts, and their kin. web-push sends
 * with Node's legacy `url.parse()`; the checks read with `new URL()`.
 */

/** The secret the tests' relays bring (RELAY_SECRET). */
export const RELAY_SECRET = 'relay-secret-for-tests-0123456789';

/**
 * Not written as browsers write endpoints: refused with "Send the push endpoint exactly as the
 * browser gave it." Those marked † pass a check made with `new URL()` alone while `url.parse()`
 * sends to `evil.example`.
 */
export const NOT_AS_BROWSERS_WRITE: [string, string][] = [
  ['† an escaped dot in the host (%2e)', 'https://evil.example%2ex.push.apple.com/x'],
  ['† an escaped dot in capitals (%2E)', 'https://evil.example%2Ex.push.apple.com/x'],
  ['† two escaped dots', 'https://evil.example%2E%2Ex.push.apple.com/x'],
  ['† an escaped dot under Windows', 'https://evil.example%2ex.notify.windows.com/w/?token=x'],
  ['† an escaped dot, the host in capitals', 'https://EVIL.example%2ex.push.apple.com/x'],
  ['† an escaped ideographic full stop', 'https://evil.example%e3%80%82x.push.apple.com/x'],
  ['† an escaped fullwidth full stop', 'https://evil.example%ef%bc%8ex.push.apple.com/x'],
  ['an escaped dot and :443', 'https://evil.example%2ex.push.apple.com:443/x'],
  ['an escaped dot and a fragment', 'https://evil.example%2ex.push.apple.com/x#y'],
  ['a backslash in the host', 'https://evil.example\\x.push.apple.com/x'],
  ['a backslash before the path', 'https://fcm.googleapis.com\\fcm/send/x'],
  ['a backslash before a user name', 'https://fcm.googleapis.com\\@evil.example/x'],
  ['an escaped slash before a user name', 'https://fcm.googleapis.com%2f@evil.example/x'],
  ['the host in capitals', 'https://FCM.GoogleAPIs.com/fcm/send/x'],
  ['the scheme in capitals', 'HTTPS://fcm.googleapis.com/fcm/send/x'],
  ['port 443 written out', 'https://fcm.googleapis.com:443/fcm/send/x'],
  ['port 443 with a leading zero', 'https://fcm.googleapis.com:0443/fcm/send/x'],
  ['a tab in the host', 'https://fcm.google\tapis.com/fcm/send/x'],
  ['a tab that joins two labels', 'https://evil.example\t.push.apple.com/x'],
  ['a newline in the path', 'https://fcm.googleapis.com/fcm/se\nnd/x'],
  ['a space before the scheme', ' https://fcm.googleapis.com/fcm/send/x'],
  ['an IDN written in Unicode', 'https://пример.push.apple.com/x'],
  ['an ideographic full stop', 'https://evil.example。x.push.apple.com/x'],
  ['a loopback address written in hex', 'https://0x7f.0.0.1/x'],
  ['a loopback address as one number', 'https://2130706433/x'],
  ['an IPv4-mapped address written with dots', 'https://[::ffff:10.0.0.1]/x'],
  ['a dot segment', 'https://fcm.googleapis.com/a/../fcm/send/x'],
  ['an escaped dot segment', 'https://fcm.googleapis.com/a/%2e%2e/fcm/send/x'],
  ['no path', 'https://fcm.googleapis.com'],
  ['a fragment', 'https://fcm.googleapis.com/fcm/send/x#y'],
  ['an empty fragment', 'https://fcm.googleapis.com/fcm/send/x#'],
  ['an apostrophe in the path', "https://fcm.googleapis.com/fcm/send/a'b"],
  ['a bar in the path', 'https://fcm.googleapis.com/fcm/send/a|b'],
  ['a caret in the path', 'https://fcm.googleapis.com/fcm/send/a^b'],
  ['an escaped @ in a user name', 'https://a%40b@fcm.googleapis.com/fcm/send/x'],
];

/**
 * Written as browsers write them but at no push service Orbit sends to: refused with "This push
 * service isn’t supported." Those marked † are under an allowed suffix to `new URL()` while
 * `url.parse()` reads the host as `evil.example`.
 */
export const NOT_A_PUSH_SERVICE: [string, string][] = [
  ['† a semicolon in the host', 'https://evil.example;x.push.apple.com/x'],
  ['† a brace in the host', 'https://evil.example{x.push.apple.com/x'],
  ['a push service with a trailing dot', 'https://fcm.googleapis.com./fcm/send/x'],
  ['a host under an allowed suffix with a trailing dot', 'https://web.push.apple.com./x'],
  ['a push service as the user name', 'https://fcm.googleapis.com@evil.example/x'],
  ['another host as the user name', 'https://evil.example@fcm.googleapis.com/x'],
  ['a public IPv6 literal', 'https://[2a00:1450:4001::200a]/x'],
];

/** As browsers write them, at the browsers' push services: stored exactly as sent. */
export const AS_BROWSERS_WRITE: [string, string][] = [
  ['FCM (Chrome, Edge)', 'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b'],
  ['Mozilla (Firefox)', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk'],
  ['Apple (Safari)', 'https://web.push.apple.com/QGk2c0fH'],
  ['Windows', 'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD'],
  [
    'Windows with escapes in its token',
    'https://wns2-par02p.notify.windows.com/w/?token=BQ%2bY%3d',
  ],
  ['an IDN under an allowed suffix, in punycode', 'https://xn--e1afmkfd.push.apple.com/x'],
];
