import { base64Encode, base64UrlDecode, base64UrlEncode } from './base64';

const bytes = Uint8Array.from({ length: 300 }, (_, index) => (index * 37) % 256);

describe(base64Encode.name, () => {
  it('encodes as RFC 4648 base64 with padding', () => {
    expect(base64Encode(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64Encode(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
    expect(base64Encode(new Uint8Array())).toBe('');
  });

  it('encodes more than one chunk of 32 KiB', () => {
    const large = Uint8Array.from({ length: 0x8000 * 2 + 5 }, (_, index) => index % 251);
    expect(base64Encode(large)).toBe(Buffer.from(large).toString('base64'));
  });
});

describe(base64UrlEncode.name, () => {
  it('encodes as base64url without padding, and decodes back', () => {
    expect(base64UrlEncode(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64UrlDecode(base64UrlEncode(bytes))).toEqual(bytes);
  });
});
