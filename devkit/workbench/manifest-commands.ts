/**
 * The slash commands Slack would route to Rampart: the ones in manifest.yml, with their
 * descriptions and usage hints for the composer's suggestions.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

export interface SlashCommand {
  command: string;
  description: string;
  usageHint: string;
}

const manifest = z.object({
  features: z.object({
    slash_commands: z
      .array(z.object({ command: z.string(), description: z.string().default(''), usage_hint: z.string().default('') }))
      .default([]),
  }),
});

// devkit/workbench → the repository root. The devkit is never compiled (tsx runs it), so the
// path holds wherever it is imported from.
export const MANIFEST_URL = new URL('../../manifest.yml', import.meta.url);

export async function readSlashCommands(url: URL = MANIFEST_URL): Promise<SlashCommand[]> {
  const parsed = manifest.parse(parse(await readFile(url, 'utf8')));
  return parsed.features.slash_commands.map((c) => ({
    command: c.command,
    description: c.description,
    usageHint: c.usage_hint,
  }));
}
