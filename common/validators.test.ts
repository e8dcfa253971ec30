import { describe, it, expect } from 'vitest';
import {
  VALIDATION_MESSAGES as M,
  chineseIdCheckChar,
  isDesktopUserAgent,
  isMobileUserAgent,
  validAlphabets,
  validChineseName,
  validEmailLoose,
  validEmailStrict,
  validLandline,
  validLowerCase,
  validNumeric,
  validUpperCase,
  validUrl,
  validUsername,
  validateChineseId,
  validateMobile,
} from './validators';

describe('validUsername', () => {
  it('accepts the known accounts, trimming whitespace', () => {
    expect(validUsername('admin')).toBe(true);
    expect(validUsername('editor')).toBe(true);
    expect(validUsername('  admin\t')).toBe(true);
  });
  it('rejects anything else, case-sensitively', () => {
    for (const s of ['', ' ', 'Admin', 'ADMIN', 'administrator', 'edit', 'root', 'ad min']) {
      expect(validUsername(s), s).toBe(false);
    }
  });
});

describe('validEmailStrict', () => {
  it('accepts conventional addresses', () => {
    for (const s of [
      'a@b.co',
      'john.smith@example.com',
      'j_s%x+tag-1@mail.example.co.uk',
      'USER@EXAMPLE.ORG',
      'a@my-host.io',
      '1@2a.de',
    ]) {
      expect(validEmailStrict(s), s).toBe(true);
    }
  });
  it('rejects malformed addresses', () => {
    for (const s of [
      '',
      'plain',
      '@example.com',
      'a@',
      'a@example',
      '.a@example.com',
      'a.@example.com',
      'a..b@example.com',
      'a@-example.com',
      'a@example-.com',
      'a@example..com',
      'a@example.c',
      'a@example.c0m',
      'a b@example.com',
      'a@b@example.com',
      'a!@example.com',
      'a@exam_ple.com',
      ' a@example.com',
    ]) {
      expect(validEmailStrict(s), s).toBe(false);
    }
  });
  it('limits domain labels to 63 characters', () => {
    expect(validEmailStrict(`a@${'x'.repeat(63)}.com`)).toBe(true);
    expect(validEmailStrict(`a@${'x'.repeat(64)}.com`)).toBe(false);
  });
});

describe('validEmailLoose', () => {
  it('accepts anything shaped like x@y.z without spaces', () => {
    for (const s of ['a@b.c', 'a..b@-x.1', 'ü@例え.jp', 'a!#$@b.c']) {
      expect(validEmailLoose(s), s).toBe(true);
    }
  });
  it('rejects missing parts and whitespace', () => {
    for (const s of ['', 'a@b', '@b.c', 'a@.c', 'a@b.', 'a b@c.d', 'a@b .c', 'a@b@c.d', 'abc']) {
      expect(validEmailLoose(s), s).toBe(false);
    }
  });
});

describe('validateMobile', () => {
  it('accepts any 11 digits starting with 1', () => {
    for (const p of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
      expect(validateMobile(`1${p}812345678`)).toEqual({ ok: true });
    }
    expect(validateMobile('12345678901')).toEqual({ ok: true });
    expect(validateMobile(' 13812345678 ')).toEqual({ ok: true });
  });
  it('reports empty input', () => {
    for (const s of ['', '   ', null, undefined]) {
      expect(validateMobile(s)).toEqual({ ok: false, message: M.mobileEmpty });
    }
  });
  it('reports anything that is not exactly 11 digits', () => {
    for (const s of ['1381234567', '138123456789', '1381234567a', '+8613812345', '138 1234 5678']) {
      expect(validateMobile(s), s).toEqual({ ok: false, message: M.mobileLength });
    }
  });
  it('reports 11 digits that do not start with 1', () => {
    for (const s of ['23812345678', '03812345678', '98765432101']) {
      expect(validateMobile(s), s).toEqual({ ok: false, message: M.mobileFormat });
    }
  });
  it('uses three distinct, namespaced keys', () => {
    const keys = [M.mobileEmpty, M.mobileLength, M.mobileFormat];
    expect(new Set(keys).size).toBe(3);
    for (const k of keys) expect(k).toMatch(/^validation\.mobile\.\w+$/);
  });
});

describe('validLandline', () => {
  it('accepts optional 3–4 digit area code plus 7–8 digits', () => {
    for (const s of ['010-12345678', '0755-1234567', '12345678', '1234567', '010-1234567', '0755-12345678']) {
      expect(validLandline(s), s).toBe(true);
    }
  });
  it('rejects other shapes', () => {
    for (const s of [
      '',
      '123456',
      '123456789',
      '01-12345678',
      '01234-1234567',
      '010-123456',
      '010-123456789',
      '01012345678',
      '010 12345678',
      '(010)12345678',
      '-12345678',
      '010-',
      '010-1234567a',
      '12345678-123',
    ]) {
      expect(validLandline(s), s).toBe(false);
    }
  });
});

describe('validUrl', () => {
  it('accepts http(s) URLs with a host', () => {
    for (const s of [
      'http://a',
      'https://example.com',
      'http://localhost:3000/path?q=1#frag',
      'https://sub.example.co.uk/a/b.html',
      'http://127.0.0.1:8080',
      'https://[::1]/x',
      'https://例子.中国/',
      'https://example.com?x=1',
    ]) {
      expect(validUrl(s), s).toBe(true);
    }
  });
  it('rejects other schemes, missing hosts and whitespace', () => {
    for (const s of [
      '',
      'ftp://example.com',
      'http://',
      'https://',
      'https:// x',
      'http:/example.com',
      'example.com',
      'HTTP//example.com',
      'https://exa mple.com',
      'https://example.com/a b',
      ' https://example.com',
      'https://:80',
      'https://example.com:',
      'javascript:alert(1)',
    ]) {
      expect(validUrl(s), s).toBe(false);
    }
  });
});

describe('character-class validators', () => {
  it('validLowerCase', () => {
    expect(validLowerCase('abcz')).toBe(true);
    for (const s of ['', 'abC', 'ab1', 'a b', 'é']) expect(validLowerCase(s), s).toBe(false);
  });
  it('validUpperCase', () => {
    expect(validUpperCase('ABCZ')).toBe(true);
    for (const s of ['', 'ABc', 'AB1', 'A B', 'É']) expect(validUpperCase(s), s).toBe(false);
  });
  it('validAlphabets', () => {
    expect(validAlphabets('aZbY')).toBe(true);
    for (const s of ['', 'ab1', 'a-b', 'a b', 'ß', '中']) expect(validAlphabets(s), s).toBe(false);
  });
  it('validNumeric', () => {
    expect(validNumeric('0')).toBe(true);
    expect(validNumeric('0123456789')).toBe(true);
    for (const s of ['', '-1', '+1', '1.5', '1e3', ' 1', '１２', '٣']) {
      expect(validNumeric(s), s).toBe(false);
    }
  });
});

describe('user agent detection', () => {
  const mobile = [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Safari/537.36',
    'Mozilla/5.0 (webOS/1.4.0; U; en-US)',
    'BlackBerry9700/5.0.0.351',
    'Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; IEMobile/9.0)',
    'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80)',
    'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0)',
    'SomeBrowser Mobile',
  ];
  const desktop = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
    '',
  ];
  it('classifies mobile agents', () => {
    for (const ua of mobile) {
      expect(isMobileUserAgent(ua), ua).toBe(true);
      expect(isDesktopUserAgent(ua), ua).toBe(false);
    }
  });
  it('classifies everything else as desktop', () => {
    for (const ua of desktop) {
      expect(isMobileUserAgent(ua), ua).toBe(false);
      expect(isDesktopUserAgent(ua), ua).toBe(true);
    }
  });
});

describe('validChineseName', () => {
  it('accepts 2 to 4 ideographs', () => {
    for (const s of ['张三', '李小龙', '诸葛孔明', '㐀㐁', '𠀀𠀁']) {
      expect(validChineseName(s), s).toBe(true);
    }
  });
  it('rejects wrong length and non-ideographs', () => {
    for (const s of [
      '',
      '张',
      '欧阳娜娜娜',
      '张 三',
      ' 张三',
      '张·三',
      '张3',
      'Zhang',
      '张a',
      'たなか',
      '김철수',
      '〇〇',
      '张。',
    ]) {
      expect(validChineseName(s), s).toBe(false);
    }
  });
});

describe('chineseIdCheckChar', () => {
  it('computes the ISO 7064 MOD 11-2 check character', () => {
    // Known published example.
    expect(chineseIdCheckChar('11010519491231002')).toBe('X');
    expect(chineseIdCheckChar('44030419900101123')).toBe('3');
  });
  it('produces every check char', () => {
    const seen = new Set<string>();
    for (let seq = 0; seq < 1000 && seen.size < 11; seq++) {
      seen.add(chineseIdCheckChar(`11010519900101${String(seq).padStart(3, '0')}`));
    }
    expect([...seen].sort().join('')).toBe('0123456789X');
  });
  it('rejects input that is not 17 digits', () => {
    expect(() => chineseIdCheckChar('1101051949123100')).toThrow(RangeError);
    expect(() => chineseIdCheckChar('1101051949123100a')).toThrow(RangeError);
  });
});

describe('validateChineseId', () => {
  // Build a valid ID by appending the computed check character.
  const withCheck = (first17: string) => first17 + chineseIdCheckChar(first17);

  it('accepts valid IDs including X / x check chars', () => {
    expect(validateChineseId('11010519491231002X')).toEqual({ ok: true });
    expect(validateChineseId('11010519491231002x')).toEqual({ ok: true });
    expect(validateChineseId(' 11010519491231002X ')).toEqual({ ok: true });
    for (const p of ['44030419900101123', '31010120000229456', '91000018000101000', '65010120991231999']) {
      expect(validateChineseId(withCheck(p)), p).toEqual({ ok: true });
    }
  });

  it('accepts every listed province code', () => {
    for (const code of ['11', '46', '50', '65', '71', '81', '82', '91']) {
      expect(validateChineseId(withCheck(`${code}010519900101123`)), code).toEqual({ ok: true });
    }
  });

  it('1: empty', () => {
    for (const s of ['', '   ', null, undefined]) {
      expect(validateChineseId(s)).toEqual({ ok: false, message: M.chineseIdEmpty });
    }
  });

  it('2: length not 18', () => {
    for (const s of ['1101051949123100', '11010519491231002', '11010519491231002X1', '1']) {
      expect(validateChineseId(s), s).toEqual({ ok: false, message: M.chineseIdLength });
    }
  });

  it('3: wrong format', () => {
    for (const s of [
      '11010519491231002Y', // bad check char
      '1101051949123100XX', // X not last
      '110105179912310021', // year 17xx
      '110105210012310021', // year 21xx
      '110105194913310021', // month 13
      '110105194900310021', // month 00
      '110105194912320021', // day 32
      '110105194912000021', // day 00
      '110105202302290021', // Feb 29 in a non-leap year
      '110105190002290021', // 1900 was not a leap year
      '110105199004310021', // April 31
      '11010519491231 02X', // space inside
    ]) {
      expect(validateChineseId(s), s).toEqual({ ok: false, message: M.chineseIdFormat });
    }
  });

  it('4: wrong address code (checked before the check digit)', () => {
    for (const code of ['10', '16', '20', '24', '30', '38', '47', '55', '66', '70', '83', '90', '99', '00']) {
      // Correct check digit, so only the region is wrong.
      expect(validateChineseId(withCheck(`${code}010519900101123`)), code).toEqual({
        ok: false,
        message: M.chineseIdRegion,
      });
    }
  });

  it('5: wrong check digit', () => {
    const valid = withCheck('44030419900101123');
    const last = valid.charAt(17);
    for (const wrong of '0123456789X') {
      if (wrong === last) continue;
      expect(validateChineseId(valid.slice(0, 17) + wrong), wrong).toEqual({
        ok: false,
        message: M.chineseIdChecksum,
      });
    }
    // A transposition of two digits is caught.
    expect(validateChineseId('11010519491213002X')).toEqual({ ok: false, message: M.chineseIdChecksum });
  });

  it('uses five distinct, namespaced keys', () => {
    const keys = [
      M.chineseIdEmpty,
      M.chineseIdLength,
      M.chineseIdFormat,
      M.chineseIdRegion,
      M.chineseIdChecksum,
    ];
    expect(new Set(keys).size).toBe(5);
    for (const k of keys) expect(k).toMatch(/^validation\.chineseId\.\w+$/);
  });
});
