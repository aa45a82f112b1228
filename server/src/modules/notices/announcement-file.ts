import matter from 'gray-matter';
import { languages } from '../settings/schemas.ts';
import { type AnnouncementInput, announcementCategories, type NoticeLanguage } from './schemas.ts';

/**
 * An announcement file for `npm run ops -- notices publish <file.md>`:
 *
 *   ---
 *   kind: announcement
 *   category: maintenance          # news | maintenance | listing | activity
 *   pinned: true                   # optional
 *   publishAt: 2030-01-01T00:00:00Z  # optional, default now; expireAt likewise
 *   languages: [zh-CN, en]         # the sections below, zh-CN required
 *   ---
 *   <!-- lang: zh-CN -->
 *   # 标题
 *   正文（Markdown）
 *   <!-- lang: en -->
 *   # Title
 *   Body (Markdown)
 *
 * Each section's first `# ` line is its title, the rest its body. Returns the same input the console
 * sends, so both go through one validation; problems are thrown as plain messages for the CLI.
 */
export function parseAnnouncementFile(text: string): AnnouncementInput {
  const { data, content } = matter(text);
  if (data.kind !== undefined && data.kind !== 'announcement')
    throw new Error(`kind must be announcement (system notices come from events), got ${String(data.kind)}`);
  if (!(announcementCategories as readonly string[]).includes(String(data.category)))
    throw new Error(`category must be one of ${announcementCategories.join(', ')}`);
  const sections = splitSections(content);
  const listed: string[] = Array.isArray(data.languages) ? data.languages.map(String) : Object.keys(sections);
  if (!listed.includes('zh-CN')) throw new Error('languages must include zh-CN (the fallback)');
  const texts: Partial<Record<NoticeLanguage, { title: string; bodyMd: string }>> = {};
  for (const language of listed) {
    if (!(languages as readonly string[]).includes(language)) throw new Error(`unknown language ${language}`);
    const section = sections[language];
    if (!section) throw new Error(`no <!-- lang: ${language} --> section`);
    texts[language as NoticeLanguage] = section;
  }
  return {
    category: data.category,
    ...(data.pinned === undefined ? {} : { pinned: data.pinned === true }),
    ...(data.publishAt ? { publishAt: new Date(data.publishAt).toISOString() } : {}),
    ...(data.expireAt ? { expireAt: new Date(data.expireAt).toISOString() } : {}),
    texts: texts as AnnouncementInput['texts'],
  };
}

function splitSections(content: string): Record<string, { title: string; bodyMd: string }> {
  const sections: Record<string, { title: string; bodyMd: string }> = {};
  const parts = content.split(/^<!--\s*lang:\s*([A-Za-z-]+)\s*-->\s*$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const language = parts[i] as string;
    const lines = (parts[i + 1] ?? '').trim().split('\n');
    const heading = lines.findIndex((line) => line.startsWith('# '));
    if (heading < 0) throw new Error(`the ${language} section needs a "# title" line`);
    sections[language] = {
      title: (lines[heading] as string).slice(2).trim(),
      bodyMd: lines
        .slice(heading + 1)
        .join('\n')
        .trim(),
    };
  }
  return sections;
}
