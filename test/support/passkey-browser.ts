/**
 * Passkeys in a real browser: headless Chromium (the packaged one the workbench tests use, never
 * downloaded) with a CDP virtual authenticator per approver, and the passkey pages mounted on a
 * plain node:http server on loopback, as the shared router will mount them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createWebHandler, type WebHandler } from '../../src/adapters/web/handler.js';
import { createApp } from '../../src/app/index.js';
import { enrolLink } from '../../src/app/passkey-enrol.js';
import type { WebDeps } from '../../src/compose/app-deps.js';
import { launchChromium } from '../workbench/support.js';
import { blocksText, eventually, type Harness } from './harness.js';
import { click, ephemeralText, quiescent } from './requests.js';
import { type HarnessSetup, useHarness, useStarted } from './use-harness.js';

export interface PagesServer {
  port: number;
  /** PUBLIC_URL for the harness: localhost (a secure context and a valid RP ID), under a path. */
  publicUrl: string;
  mount(handler: WebHandler): void;
  close(): Promise<void>;
}

export async function startPagesServer(path = '/rampart'): Promise<PagesServer> {
  let handler: WebHandler | undefined;
  const server: Server = createServer((req, res) => {
    const answer = handler ? handler(req, res) : Promise.resolve(false);
    answer
      .then((handled) => {
        if (!handled) {
          res.writeHead(404);
          res.end();
        }
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    publicUrl: `http://localhost:${port}${path}`,
    mount(h) {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Approver {
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  /** Script errors in the page (any one fails the test file). */
  errors: string[];
}

/** The options of an approver's virtual platform authenticator (user verification on, presence simulated). */
export const AUTHENTICATOR = {
  protocol: 'ctap2',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
} as const;

/** The link in the newest private "Approve with your passkey" answer to `user` about `id`. */
export const offeredLink = (h: Harness, user: string, id: string): Promise<string> =>
  eventually(
    () => {
      const offer = h.fake
        .ephemerals(user)
        .filter((e) => e.text?.includes(id))
        .at(-1);
      return /"url":"([^"]+)"/.exec(blocksText(offer))?.[1];
    },
    10_000,
    'the passkey link',
  );

/** A page with its own virtual platform authenticator (user verification on, presence simulated). */
export async function approverBrowser(browser: Browser): Promise<Approver> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: AUTHENTICATOR });
  return { page, cdp, authenticatorId, errors };
}

/** Opens a one-time link and waits for the page's button (or its refusal). */
export async function openLink(a: Approver, url: string): Promise<string> {
  await a.page.goto(url);
  await a.page.locator('#main p, #main h2').first().waitFor();
  await a.page.locator('#main', { hasNotText: 'Checking your link' }).waitFor();
  return (await a.page.locator('#main').textContent()) ?? '';
}

/** Clicks the page's one button and returns what the page says once the server answered. */
export async function pressAndRead(a: Approver): Promise<string> {
  await a.page.locator('#go').click();
  // Done when the server's answer replaced the button, or the browser refused (the button stays).
  await Promise.race([
    a.page.locator('#go').waitFor({ state: 'detached' }),
    a.page.locator('#status', { hasText: 'did not give' }).waitFor(),
  ]);
  return (await a.page.locator('#main').textContent()) ?? '';
}

/** The passkey pages for the enclosing file; call it before useHarness, whose PUBLIC_URL names them. */
export const usePages = (): PagesServer =>
  useStarted(
    'passkey pages',
    () => startPagesServer(),
    (p) => p.close(),
  );

/**
 * Headless Chromium for the enclosing file, and a new approver page (its own authenticator) on
 * each `open()`. At the end a script error on any of those pages fails the file, before the
 * browser closes.
 */
export function useApproverBrowsers(): { open(): Promise<Approver> } {
  // Launching Chromium on a busy machine takes longer than a harness.
  const browser = useStarted(
    'Chromium',
    () => launchChromium(),
    (b) => b.close(),
    60_000,
  );
  const opened: Approver[] = [];
  afterAll(() => {
    for (const a of opened) expect(a.errors).toEqual([]);
  });
  return {
    async open() {
      const a = await approverBrowser(browser);
      opened.push(a);
      return a;
    },
  };
}

/**
 * The step-up set-up of an end-to-end file: its passkey pages (PUBLIC_URL), a harness with `env`,
 * approvers' browsers, and the pages served by the app over `web(h)` (default: the harness's own
 * deps), mounted once the harness runs.
 */
export function useStepUpHarness(
  name: string,
  env: Record<string, string>,
  o: { setup?: HarnessSetup; web?: (h: Harness) => WebDeps } = {},
): { pages: PagesServer; h: Harness; browsers: { open(): Promise<Approver> } } {
  const pages = usePages();
  const h = useHarness(name, () => ({ ...env, PUBLIC_URL: pages.publicUrl }), o.setup);
  const browsers = useApproverBrowsers();
  beforeAll(() => {
    const deps = o.web ? o.web(h) : h.rampart.deps;
    pages.mount(createWebHandler(createApp(deps), deps.config.stepUp, deps.log));
  });
  return { pages, h, browsers };
}

/**
 * `user`, who has no passkey, clicks Approve on step-up request `id`: told to enrol one, and the
 * click counts nothing (the request stays pending with no vote).
 */
export async function expectPlainApproveCountsNothing(h: Harness, user: string, id: string): Promise<void> {
  await click(h, user, id, 'request_approve');
  await eventually(() => ephemeralText(h, user).includes('you have none'), 10_000, 'enrol hint');
  await quiescent(h);
  const after = await h.rampart.deps.store.get(id);
  expect([after?.state, after?.votes]).toEqual(['pending', []]);
}

/** A new approver browser in which `user` enrols a passkey from the bootstrap link, as `rampart passkeys enrol-link` gives it. */
export async function enrolledFromBootstrap(
  browsers: { open(): Promise<Approver> },
  deps: WebDeps,
  user: string,
): Promise<Approver> {
  const a = await browsers.open();
  const link = await enrolLink(deps, user, true);
  if (link.kind !== 'link') throw new Error('bootstrap refused');
  expect(await openLink(a, link.url)).toContain(user);
  expect(await pressAndRead(a)).toContain('can approve payments now');
  return a;
}
