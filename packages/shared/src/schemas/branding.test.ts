import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { BrandingUpdate } from './branding.ts';

const issue = (input: object, field: string) => {
  const result = BrandingUpdate.safeParse(input);
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message;
};

describe('BrandingUpdate', () => {
  it('fills the spec defaults and normalises names and colours', () => {
    expect(BrandingUpdate.parse({ customBrandName: ' City-College-2 ' })).toMatchObject({
      customBrandName: 'city-college-2',
      customDomainName: null,
      primaryColor: '#5f51fb',
      textColor: '#ffffff',
      backgroundColor: '#ffffff',
      isBrandLogoRemove: false,
    });
    expect(
      BrandingUpdate.parse({
        customBrandName: 'acme',
        primaryColor: '#AABBCC',
        customDomainName: 'Models.Example.COM.',
        isModelBgLogoRemove: 'true',
      }),
    ).toMatchObject({
      primaryColor: '#aabbcc',
      customDomainName: 'models.example.com',
      isModelBgLogoRemove: true,
    });
  });

  it.each(['ab', 'a1', 'acme-bio', 'x'.repeat(40)])('accepts the brand name %s', (name) => {
    expect(issue({ customBrandName: name }, 'customBrandName')).toBeUndefined();
  });

  it.each(['a', '-acme', 'acme-', 'ac--me', 'acme bio', 'acmé', 'x'.repeat(41)])(
    'refuses the brand name %s',
    (name) => {
      expect(issue({ customBrandName: name }, 'customBrandName')).toBeDefined();
    },
  );

  it('says which rule a brand name breaks', () => {
    expect(issue({}, 'customBrandName')).toBe(MSG.brandNameRequired);
    expect(issue({ customBrandName: 'a_b' }, 'customBrandName')).toBe(MSG.brandNameRule);
    expect(issue({ customBrandName: 'Helix' }, 'customBrandName')).toBe(MSG.brandNameReserved);
  });

  it.each(['models.example.com', 'a.io', 'xn--bcher-kva.example', 'school.xn--p1ai', ''])(
    'accepts the domain %j',
    (domain) => {
      expect(
        issue({ customBrandName: 'acme', customDomainName: domain }, 'customDomainName'),
      ).toBeUndefined();
    },
  );

  it.each([
    'localhost',
    'example',
    'http://example.com',
    'example.com:8080',
    'example.com/path',
    '-bad.example.com',
    'bad-.example.com',
    'under_score.example.com',
    '1.2.3.4',
    `${'a'.repeat(64)}.example.com`,
  ])('refuses the domain %j', (domain) => {
    expect(issue({ customBrandName: 'acme', customDomainName: domain }, 'customDomainName')).toBe(
      MSG.domainRule,
    );
  });

  it('allows text colour black or white only', () => {
    expect(issue({ customBrandName: 'acme', textColor: '#000000' }, 'textColor')).toBeUndefined();
    expect(issue({ customBrandName: 'acme', textColor: '#777777' }, 'textColor')).toBe(MSG.textColourRule);
  });
});
