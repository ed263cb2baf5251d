import { describe, expect, it } from 'vitest';
import {
  displayText,
  MESSAGES,
  birthdayError,
  emailError,
  interestsError,
  isValidUsername,
  passwordChecks,
  passwordError,
  signupErrors,
  usernameError,
  usernameRuleWhileTyping,
} from './validation.ts';

const today = new Date(2026, 10, 23);

describe('username rules', () => {
  it('requires a username', () => expect(usernameError('  ')).toBe('Username required'));
  it('needs at least 3 characters', () => expect(usernameError('ab')).toBe('Min 3 chars'));
  it('allows letters, digits, dot, underscore and hyphen', () =>
    expect(usernameError('a.b_c-1')).toBeNull());
  it('refuses other characters with the settings message', () =>
    expect(usernameError('bad name')).toBe('3–20 chars: letters, numbers, . _ -'));
  it('refuses more than 20 characters', () => expect(isValidUsername('a'.repeat(21))).toBe(false));
  it('accepts exactly 20 characters', () => expect(isValidUsername('a'.repeat(20))).toBe(true));
});

describe('the username rule while typing', () => {
  const rule = '3–20 chars: letters, numbers, . _ -';
  it('names a character outside the set at once, however short the name', () => {
    expect(usernameRuleWhileTyping('ab!')).toBe(rule);
    expect(usernameRuleWhileTyping('a b')).toBe(rule);
    expect(usernameRuleWhileTyping('!')).toBe(rule);
  });
  it('names a name past 20 characters', () =>
    expect(usernameRuleWhileTyping('a'.repeat(21))).toBe(rule));
  it('stays quiet while a short name may still grow into a good one', () => {
    expect(usernameRuleWhileTyping('')).toBeNull();
    expect(usernameRuleWhileTyping('ab')).toBeNull();
  });
  it('stays quiet for a name that keeps the rule', () =>
    expect(usernameRuleWhileTyping('a.b_c-1')).toBeNull());
});

describe('email rules', () => {
  it('requires an email', () => expect(emailError('')).toBe('Email required'));
  it('refuses an address without a domain', () =>
    expect(emailError('me@home')).toBe('Enter a valid email address.'));
  it('refuses spaces', () => expect(emailError('a b@c.io')).toBe('Enter a valid email address.'));
  it('accepts a plain address', () => expect(emailError('me@orbit.example')).toBeNull());
});

describe('birthday rules', () => {
  it('requires a birthday', () => expect(birthdayError('', today)).toBe('Birthday required'));
  it('refuses under-18s', () => expect(birthdayError('2008-11-24', today)).toBe('18+ only'));
  it('accepts the 18th birthday itself', () =>
    expect(birthdayError('2008-11-23', today)).toBeNull());
  it('refuses a date that does not exist', () =>
    expect(birthdayError('2001-02-30', today)).toBe(MESSAGES.birthdayInvalid));
  it('refuses a date in the future', () =>
    expect(birthdayError('2030-01-01', today)).toBe(MESSAGES.birthdayInvalid));
});

describe('password rules', () => {
  it('requires a password', () => expect(passwordError('')).toBe('Required'));
  it.each(['Short1!', 'nouppercase1!', 'NOLOWERCASE1!', 'NoDigits!!', 'NoSymbol123'])(
    'refuses %s',
    (password) => expect(passwordError(password)).toBe('Password requirements not met'),
  );
  it('accepts a password meeting every check', () =>
    expect(passwordError('Sup3r$ecret')).toBeNull());
  it('reports each check separately for the checklist', () =>
    expect(passwordChecks('abc')).toEqual({
      length: false,
      upper: false,
      lower: true,
      digit: false,
      symbol: false,
    }));
});

describe('interests', () => {
  it('allows 25', () =>
    expect(interestsError(Array.from({ length: 25 }, (_, i) => `i${i}`))).toBeNull());
  it('refuses 26', () =>
    expect(interestsError(Array.from({ length: 26 }, (_, i) => `i${i}`))).toBe(
      MESSAGES.tooManyInterests,
    ));
});

describe('signup as a whole', () => {
  const valid = {
    username: 'nova',
    email: 'nova@orbit.example',
    password: 'Sup3r$ecret',
    firstName: '',
    lastName: '',
    birthday: '1990-01-01',
    referral: '',
    interests: [],
    securityQuestion: '',
    securityAnswer: '',
    favoriteQuote: '',
    hasProfilePic: true,
  };
  it('has no errors when every rule holds', () => expect(signupErrors(valid, today)).toEqual([]));
  it('requires a profile image', () =>
    expect(signupErrors({ ...valid, hasProfilePic: false }, today)).toEqual([
      ['profilePic', 'Profile image required'],
    ]));
  it('reports errors in form order', () =>
    expect(
      signupErrors({ ...valid, username: '', email: '' }, today).map(([field]) => field),
    ).toEqual(['username', 'email']));
  it('refuses an over-long quote', () =>
    expect(signupErrors({ ...valid, favoriteQuote: 'x'.repeat(281) }, today)[0]?.[0]).toBe(
      'favoriteQuote',
    ));
  it.each(['', '   ', '\u200b', '\u2066\u2069', '\ufeff \u2060'])(
    'asks for the question of an answer when the question shows nothing (%j)',
    (securityQuestion) =>
      expect(signupErrors({ ...valid, securityQuestion, securityAnswer: 'Lisbon' }, today)).toEqual(
        [['securityQuestion', 'Add the question your answer belongs to.']],
      ),
  );
});

describe('display text', () => {
  it('drops the overrides, embeddings, isolates and marks that reorder what is shown', () => {
    const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067'];
    const more = ['\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
    for (const control of [...controls, ...more])
      expect(displayText(`Ada${control}gpj.exe`)).toBe('Adagpj.exe');
    expect(displayText('\u202e\u202eAd\u2067astra\u2069.')).toBe('Adastra.');
  });

  it('keeps every other letter, right-to-left scripts and emoji as they are', () => {
    for (const text of ['Zoë Ørsted', 'שלום עולם', 'مرحبا', '👩‍🚀 in orbit', 'Ａｄａ', ''])
      expect(displayText(text)).toBe(text);
  });

  it('drops the zero width space, the word joiner and the byte order mark wherever they are', () => {
    for (const hidden of ['\u200b', '\u2060', '\ufeff']) {
      expect(displayText(`Ada${hidden}Lovelace`)).toBe('AdaLovelace');
      expect(displayText(`${hidden}Ada${hidden}`)).toBe('Ada');
      expect(displayText(`👩${hidden}🚀 علی${hidden}زاده`)).toBe('👩🚀 علیزاده');
    }
  });

  it('drops a joiner where it changes nothing one sees: two names that look alike stay alike', () => {
    for (const joiner of ['\u200c', '\u200d']) {
      expect(displayText(`A${joiner}da Love${joiner}lace`)).toBe('Ada Lovelace');
      expect(displayText(`${joiner}Ада ${joiner}Ἀδα ${joiner}`)).toBe('Ада Ἀδα ');
      expect(displayText(`Ada${joiner}${joiner}`)).toBe('Ada');
      expect(displayText(`陈${joiner}静 김${joiner}민 สม${joiner}ชาย 7${joiner}7`)).toBe(
        '陈静 김민 สมชาย 77',
      );
    }
    // A joiner after an emoji joins it to nothing unless a pictograph follows.
    expect(displayText('🚀\u200d')).toBe('🚀');
    expect(displayText('🚀\u200dA')).toBe('🚀A');
    expect(displayText('🚀\u200c🚀')).toBe('🚀🚀');
  });

  it('keeps the joiner inside an emoji sequence: a family, a profession, a skin tone, a flag', () => {
    const sequences = [
      '👨\u200d👩\u200d👧\u200d👦',
      '👩🏽\u200d🚀',
      '🧑🏿\u200d🤝\u200d🧑🏻',
      '❤\ufe0f\u200d🔥',
      '🏳\ufe0f\u200d🌈',
      '🏴\u200d☠\ufe0f',
      '👨\u200d🦰',
    ];
    for (const emoji of sequences) expect(displayText(`Ada ${emoji}`)).toBe(`Ada ${emoji}`);
  });

  it('keeps the joiners of scripts whose letters they change: Persian, Hindi, Malayalam, Sinhala', () => {
    const words = [
      // Persian: the non-joiner keeps "Alizadeh" in two shapes, as it is spelt.
      'علی\u200cزاده',
      'می\u200cخواهم',
      // Arabic: the joiner draws a letter in its joined form alone.
      'ه\u200d',
      // Hindi: a half form (क्‍ष) or no conjunct (क्‌ष) instead of क्ष.
      'क्\u200dष',
      'क्\u200cष',
      // Malayalam's chillu written with a joiner, Sinhala's yansaya and rakaransaya.
      'ന്\u200d',
      'ශ්\u200dර',
      // Syriac and Mongolian are cursive too.
      'ܫܠ\u200cܡ',
      'ᠮᠣ\u200dᠩ',
    ];
    for (const word of words) expect(displayText(word)).toBe(word);
  });
});
