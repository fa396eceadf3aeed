import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';
import { LTI_CLAIM, LtiDeepLinkingResponseClaims } from '@helix/shared/schemas/lti';
import { escapeHtml } from '../escape-html.ts';

/**
 * A learning platform the tests run (IMS LTI 1.3 Core, Security Framework, Deep Linking 2.0): its own
 * RSA keys, its JWKS served over HTTP on a free port, real signed id_tokens with the spec's claims, an
 * OIDC authorization endpoint that answers the tool's login with an auto-posted id_token (as Moodle and
 * Canvas do), a course page that launches the tool in an iframe, and a deep-linking return endpoint that
 * verifies the tool's answer with the tool's JWKS. Tests can also sign tokens by hand (bad keys,
 * wrong claims) and rotate the platform's key.
 */

export interface PlatformKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function platformKey(): Promise<PlatformKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** What a launch the platform sends is about. */
export type PendingLaunch =
  | {
      kind: 'resource';
      /** The deep-linked item's custom parameters (helix_model) or none. */
      custom?: Record<string, string>;
      context?: { id: string; title?: string; label?: string };
      sub?: string;
      resourceLinkId?: string;
      /** The launch's roles (default: a learner). */
      roles?: string[];
      /** The user's name claim (default 'Pat Pupil'; null: none sent). */
      name?: string | null;
    }
  | { kind: 'deep-link'; acceptMultiple?: boolean; data?: string; sub?: string };

export interface DeepLinkResult {
  /** The verified claims, or the verification failure. */
  claims?: LtiDeepLinkingResponseClaims & JWTPayload;
  error?: string;
}

export interface TestPlatformOptions {
  clientId?: string;
  deploymentId?: string;
  /** Where the tool lives (PUBLIC_URL): its login URL and JWKS. */
  toolUrl: string;
  /** The tool's JWKS path (from the tool's settings), to verify deep-linking answers. */
  toolJwksUrl?: string;
}

export class TestLtiPlatform {
  readonly clientId: string;
  readonly deploymentId: string;
  readonly deepLinkResults: DeepLinkResult[] = [];
  #keys: PlatformKey[] = [];
  #server: Server;
  #url = '';
  #pending = new Map<string, PendingLaunch>();
  #toolUrl: string;
  toolJwksUrl: string | undefined;
  /** Serve the JWKS (false: the keyset URL answers 503). */
  jwksUp = true;
  jwksFetches = 0;

  private constructor(opts: TestPlatformOptions, server: Server) {
    this.clientId = opts.clientId ?? `helix-${randomBytes(4).toString('hex')}`;
    this.deploymentId = opts.deploymentId ?? `dep-${randomBytes(3).toString('hex')}`;
    this.#toolUrl = opts.toolUrl.replace(/\/+$/, '');
    this.toolJwksUrl = opts.toolJwksUrl;
    this.#server = server;
  }

  static async start(opts: TestPlatformOptions): Promise<TestLtiPlatform> {
    const holder: { platform?: TestLtiPlatform } = {};
    const server = createServer((req, res) => {
      holder.platform!.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
      });
    });
    const platform = new TestLtiPlatform(opts, server);
    holder.platform = platform;
    platform.#keys = [await platformKey()];
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    platform.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return platform;
  }

  get issuer(): string {
    return this.#url;
  }
  get authLoginUrl(): string {
    return `${this.#url}/auth`;
  }
  get tokenUrl(): string {
    return `${this.#url}/token`;
  }
  get keysetUrl(): string {
    return `${this.#url}/jwks`;
  }
  get returnUrl(): string {
    return `${this.#url}/deep-link-return`;
  }
  get key(): PlatformKey {
    return this.#keys[0]!;
  }

  /** The registration the school's owner enters in Helix. */
  registration(name = 'Test Moodle') {
    return {
      name,
      issuer: this.issuer,
      clientId: this.clientId,
      deploymentIds: [this.deploymentId],
      authLoginUrl: this.authLoginUrl,
      tokenUrl: this.tokenUrl,
      keysetUrl: this.keysetUrl,
    };
  }

  /** A new signing key, published in the JWKS from now on (the old one is dropped). */
  async rotateKey(): Promise<void> {
    this.#keys = [await platformKey()];
  }

  jwks(): JSONWebKeySet {
    return { keys: this.#keys.map((k) => k.publicJwk) };
  }

  /** The login initiation parameters the platform sends the tool for a prepared launch. */
  loginParams(hint: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      iss: this.issuer,
      login_hint: `user-${hint}`,
      target_link_uri: `${this.#toolUrl}/api/lti/launch`,
      lti_message_hint: hint,
      client_id: this.clientId,
      lti_deployment_id: this.deploymentId,
      ...extra,
    };
  }

  /** Keeps what a launch is about; the hint goes through the tool's login and comes back to /auth. */
  prepare(launch: PendingLaunch): string {
    const hint = randomBytes(8).toString('hex');
    this.#pending.set(hint, launch);
    return hint;
  }

  /** The id_token's claims for a launch, per the IMS spec. */
  claims(launch: PendingLaunch, nonce: string): JWTPayload {
    const common = {
      nonce,
      sub: launch.sub ?? 'pupil-1',
      name: 'Pat Pupil',
      [LTI_CLAIM.version]: '1.3.0',
      [LTI_CLAIM.deploymentId]: this.deploymentId,
      [LTI_CLAIM.targetLinkUri]: `${this.#toolUrl}/api/lti/launch`,
      'https://purl.imsglobal.org/spec/lti/claim/tool_platform': {
        guid: 'test-platform',
        name: 'Test Moodle',
      },
    };
    if (launch.kind === 'deep-link') {
      return {
        ...common,
        [LTI_CLAIM.messageType]: 'LtiDeepLinkingRequest',
        [LTI_CLAIM.roles]: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
        [LTI_CLAIM.context]: { id: 'course-7b', label: 'BIO7B', title: 'Biology 7B' },
        [LTI_CLAIM.deepLinkingSettings]: {
          deep_link_return_url: this.returnUrl,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['iframe', 'window'],
          accept_multiple: launch.acceptMultiple ?? true,
          ...(launch.data !== undefined ? { data: launch.data } : {}),
        },
      };
    }
    return {
      ...common,
      [LTI_CLAIM.messageType]: 'LtiResourceLinkRequest',
      [LTI_CLAIM.roles]: launch.roles ?? ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
      ...(launch.name !== undefined ? { name: launch.name ?? undefined } : {}),
      [LTI_CLAIM.resourceLink]: { id: launch.resourceLinkId ?? 'rl-1', title: 'Heart model' },
      ...(launch.context ? { [LTI_CLAIM.context]: launch.context } : {}),
      ...(launch.custom ? { [LTI_CLAIM.custom]: launch.custom } : {}),
    };
  }

  /** A signed id_token: the platform's key unless `key` says otherwise; `claims` override any claim. */
  async idToken(
    payload: JWTPayload,
    opts: {
      key?: PlatformKey;
      audience?: string | string[];
      issuer?: string;
      expiresIn?: string | number;
      iat?: number;
    } = {},
  ): Promise<string> {
    const key = opts.key ?? this.key;
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(opts.issuer ?? this.issuer)
      .setAudience(opts.audience ?? this.clientId)
      .setIssuedAt(opts.iat)
      .setExpirationTime(opts.expiresIn ?? '5m');
    return jwt.sign(key.privateKey);
  }

  /**
   * The platform's side of the OIDC flow: checks the tool's authentication request and answers the
   * id_token for the prepared launch named by lti_message_hint, with the tool's state and nonce.
   */
  async authorize(params: URLSearchParams): Promise<{ redirectUri: string; idToken: string; state: string }> {
    const expect: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: this.clientId,
    };
    for (const [name, value] of Object.entries(expect)) {
      if (params.get(name) !== value)
        throw new Error(`authorization request: ${name} is ${params.get(name)}`);
    }
    const hint = params.get('lti_message_hint') ?? '';
    const launch = this.#pending.get(hint);
    if (!launch) throw new Error('authorization request: unknown lti_message_hint');
    if (params.get('login_hint') !== `user-${hint}`) throw new Error('authorization request: login_hint');
    const nonce = params.get('nonce');
    const state = params.get('state');
    const redirectUri = params.get('redirect_uri');
    if (!nonce || !state || !redirectUri)
      throw new Error('authorization request: nonce, state, redirect_uri');
    return { redirectUri, state, idToken: await this.idToken(this.claims(launch, nonce)) };
  }

  /** Verifies a deep-linking answer with the tool's published keys (fetched over HTTP). */
  async verifyDeepLinkResponse(
    jwt: string,
    jwks?: JSONWebKeySet,
  ): Promise<LtiDeepLinkingResponseClaims & JWTPayload> {
    const keys = jwks
      ? createLocalJWKSet(jwks)
      : createRemoteJWKSet(new URL(this.toolJwksUrl ?? ''), { cooldownDuration: 0 });
    const { payload } = await jwtVerify(jwt, keys, {
      algorithms: ['RS256'],
      issuer: this.clientId,
      audience: this.issuer,
      requiredClaims: ['iat', 'exp', 'nonce'],
    });
    return { ...payload, ...LtiDeepLinkingResponseClaims.parse(payload) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.#url);
    const html = (status: number, body: string): void =>
      void res
        .writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
        .end(body);
    if (url.pathname === '/jwks') {
      this.jwksFetches += 1;
      if (!this.jwksUp) return void res.writeHead(503).end('down');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(this.jwks()));
      return;
    }
    if (url.pathname === '/auth') {
      const { redirectUri, state, idToken } = await this.authorize(url.searchParams);
      return html(200, autoPost(redirectUri, { id_token: idToken, state }));
    }
    if (url.pathname.startsWith('/course/')) {
      // The course page: the activity opens the tool in a frame, starting with the login initiation.
      const hint = url.pathname.slice('/course/'.length);
      const login = new URL(`${this.#toolUrl}/api/lti/login`);
      for (const [name, value] of Object.entries(this.loginParams(hint))) login.searchParams.set(name, value);
      return html(
        200,
        `<!doctype html><html lang="en"><head><title>Biology 7B · Test Moodle</title></head><body><main><h1>Biology 7B</h1>` +
          `<iframe title="Helix activity" src="${escapeHtml(login.toString())}" width="1000" height="700" allow="fullscreen; xr-spatial-tracking"></iframe></main></body></html>`,
      );
    }
    if (url.pathname === '/deep-link-return' && req.method === 'POST') {
      const body = new URLSearchParams(await readBody(req));
      const jwt = body.get('JWT') ?? '';
      try {
        const claims = await this.verifyDeepLinkResponse(jwt);
        this.deepLinkResults.push({ claims });
        const titles = claims[LTI_CLAIM.contentItems].map((i) => `<li>${escapeHtml(i.title)}</li>`).join('');
        return html(
          200,
          `<!doctype html><html lang="en"><head><title>Added</title></head><body><main><h1>Added to Biology 7B</h1><ul id="added">${titles}</ul></main></body></html>`,
        );
      } catch (error) {
        this.deepLinkResults.push({ error: String(error) });
        return html(
          400,
          `<!doctype html><html lang="en"><head><title>Refused</title></head><body><main><h1>Refused</h1></main></body></html>`,
        );
      }
    }
    res.writeHead(404).end();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}

function autoPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([n, v]) => `<input type="hidden" name="${escapeHtml(n)}" value="${escapeHtml(v)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><title>Launching</title></head><body><form id="f" method="post" action="${escapeHtml(action)}">${inputs}<button>Continue</button></form><script>document.getElementById('f').submit()</script></body></html>`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
